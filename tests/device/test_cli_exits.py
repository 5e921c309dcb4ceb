"""Every command ends as command-line tools do: quietly when the reader of its output goes away (``| head``),
with one line when the disk is full, with status 130 on Ctrl-C; never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.cli import CLOSED, INTERRUPTED


def tablescore(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "tablescore"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "device.cli", *args]


def test_a_closed_pipe_ends_it_quietly() -> None:
    child = subprocess.Popen(tablescore("score", "--samples"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline().startswith(b"== ")
    child.stdout.close()  # as `head -1` does once it has its line
    assert child.wait(timeout=60) == CLOSED
    assert child.stderr is not None and child.stderr.read() == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(tablescore("score", "--samples"), stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["tablescore: the disk is full: make room and try again"]


def test_ctrl_c_ends_it_with_130_and_no_traceback() -> None:
    # Ctrl-C at its default, as a terminal's foreground command has it (a shell's background job inherits it ignored)
    child = subprocess.Popen(tablescore("score", "cribbage", "--batch"), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write('{"hand": ["5H", "5C", "5D", "JS"], "starter": "5S"}\n')
    child.stdin.flush()
    assert '"total": 29' in child.stdout.readline()  # it is running, waiting for the next line
    time.sleep(0.2)
    os.kill(child.pid, signal.SIGINT)
    assert child.wait(timeout=60) == INTERRUPTED
    assert child.stderr is not None and "Traceback" not in child.stderr.read()
