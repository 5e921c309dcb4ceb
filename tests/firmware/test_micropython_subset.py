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


def _imports(tree):
    """(module, names bound, guarded): guarded when inside a try that catches ImportError."""
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(handler.type, ast.Name) and handler.type.id == "ImportError"
            for handler in node.handlers
        ):
            guarded |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, {alias.asname or alias.name}, id(node) in guarded
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", {alias.asname or alias.name for alias in node.names}, id(node) in guarded


def _annotations(tree):
    """The ids of every node inside an annotation (which MicroPython parses and never evaluates)."""
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            roots.append(node.returns)
    return {id(inner) for root in roots for inner in ast.walk(root)}


@pytest.mark.parametrize("path", PICO_FILES, ids=lambda path: path.name)
def test_imports_only_what_micropython_has(path):
    """Other modules only under `except ImportError`, and their names only in annotations."""
    tree = _tree(path)
    for_checker_only = set()
    for module, names, guarded in _imports(tree):
        if module.split(".")[0] not in MICROPYTHON_MODULES:
            assert guarded, f"{path.name} imports {module} unguarded"
            for_checker_only |= names
    in_annotations = _annotations(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in for_checker_only:
            assert id(node) in in_annotations, f"{path.name}:{node.lineno} uses {node.id} at run time"


@pytest.mark.parametrize("path", PICO_FILES, ids=lambda path: path.name)
def test_uses_no_cpython_only_features(path):
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Name):
            assert node.id not in NOT_IN_MICROPYTHON, f"{path.name}:{node.lineno} uses {node.id}"
        if isinstance(node, ast.keyword):
            assert node.arg != "strict", f"{path.name}:{node.lineno}: zip(strict=) is not in MicroPython"
        assert not isinstance(node, ast.Match), f"{path.name}:{node.lineno}: match is not in MicroPython"
        if isinstance(node, ast.AnnAssign):  # newer MicroPython refuses to annotate anything but a name
            assert isinstance(node.target, ast.Name), f"{path.name}:{node.lineno} annotates an attribute"
        if isinstance(node, ast.FormattedValue):  # MicroPython's f-strings take no nested format specs
            assert node.format_spec is None, f"{path.name}:{node.lineno} has an f-string format spec"


def test_struct_layouts_keep_to_little_endian_b_h_i():
    for kind in protocol.TYPES.values():
        assert re.fullmatch("<[BHI]*", kind.FORMAT), kind.__name__
