"""Test-session set-up that must come before anything else is imported.

NumPy's OpenBLAS reads OPENBLAS_NUM_THREADS once, when NumPy is first imported: set it here, as
``device/cli.py`` does for the command line, so the card reader's small matrix products run on one thread
as on the device (with a thread per core they fought each other and the tests ran about three times as
slow on a 2-core machine). No pytest plugin in use imports NumPy before this file is loaded.

It also keeps the doctests' scratch folders out of /tmp (``_doctest_scratch``).
"""

import os
import tempfile

import pytest  # neither imports NumPy

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


@pytest.fixture(autouse=True)
def _doctest_scratch(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A doctest's ``tempfile.mkdtemp()`` folders go under its own ``tmp_path``, which pytest clears, not
    into /tmp for good (other tests keep /tmp: a socket path must stay short)."""
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setattr(tempfile, "tempdir", str(request.getfixturevalue("tmp_path")))
