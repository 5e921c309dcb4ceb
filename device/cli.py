"""The ``tablescore`` command.

>>> parser().prog
'tablescore'
"""

from __future__ import annotations

import os

# The device reads one frame at a time: BLAS threads for the card reader's small matrix products only
# contend for the cores (the demo's frames took 60 ms instead of 11 on this 2-core machine under load).
# Set before NumPy is first imported, which loads its BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import errno  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

from club import command as club_command  # noqa: E402
from device import __version__, history_command, recognize_command, run_command, score_command  # noqa: E402
from device.demo import command as demo_command  # noqa: E402


def parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    top = argparse.ArgumentParser(
        prog="tablescore",
        description="Hands-free scorekeeper for card and dice tables.",
    )
    top.add_argument("--version", action="version", version=f"tablescore {__version__}")
    commands = top.add_subparsers(title="commands", metavar="COMMAND", required=True)
    score_command.add_parser(commands)
    recognize_command.add_parser(commands)
    run_command.add_parser(commands)
    history_command.add_parser(commands)
    demo_command.add_parser(commands)
    club_command.add_parser(commands)
    return top


INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells give."""
CLOSED = 141
"""The exit status when the reader of the output went away (128 + SIGPIPE: ``tablescore ... | head``)."""
FULL = (errno.ENOSPC, errno.EDQUOT)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. Ctrl-C, a closed pipe and a full disk end any command
    with its exit status and at most one line, never a traceback."""
    args = parser().parse_args(argv)
    try:
        status: int = args.handler(args)
        sys.stdout.flush()  # here, where a closed pipe or a full disk can still be told
    except KeyboardInterrupt:
        print(file=sys.stderr)  # past the ^C the terminal echoed
        return INTERRUPTED
    except BrokenPipeError:
        # Nothing more can be written: point standard output at nothing, so that Python's own flush at exit
        # does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED
    except OSError as error:
        if error.errno not in FULL:
            raise
        where = f" writing {error.filename}" if error.filename else ""
        print(f"tablescore: the disk is full{where}: make room and try again", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
