"""The files copied to the Pico keep to what MicroPython offers (checked on their syntax trees)."""

import ast
import re
from pathlib import Path

import pytest

from firmware import main, protocol

PICO_FILES = [Path(protocol.__file__), Path(main.__file__)]
# Modules a MicroPython build for the Pico provides (binascii is optional and guarded), plus the
# protocol itself, which sits beside main.py on the Pico and is a package module on the host.
MICROPYTHON_MODULES = {
    "binascii",
    "machine",
    "micropython",
    "os",
    "select",
    "struct",
    "sys",
    "time",
    "protocol",
    "firmware",
}
NOT_IN_MICROPYTHON = {"dataclass", "dataclasses", "enum", "Enum", "typing", "contextlib", "abc", "functools"}


def _tree(path):
    return ast.parse(path.read_text(), filename=str(path))


@pytest.mark.parametrize("path", PICO_FILES, ids=lambda path: path.name)
def test_imports_only_what_micropython_has(path):
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in MICROPYTHON_MODULES, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", PICO_FILES, ids=lambda path: path.name)
def test_uses_no_cpython_only_features(path):
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Name):
            assert node.id not in NOT_IN_MICROPYTHON, f"{path.name}:{node.lineno} uses {node.id}"
        if isinstance(node, ast.keyword):
            assert node.arg != "strict", f"{path.name}:{node.lineno}: zip(strict=) is not in MicroPython"
        assert not isinstance(node, ast.Match), f"{path.name}:{node.lineno}: match is not in MicroPython"
        if isinstance(node, ast.FormattedValue):  # MicroPython's f-strings take no nested format specs
            assert node.format_spec is None, f"{path.name}:{node.lineno} has an f-string format spec"


def test_struct_layouts_keep_to_little_endian_b_h_i():
    for kind in protocol.TYPES.values():
        assert re.fullmatch("<[BHI]*", kind.FORMAT), kind.__name__
