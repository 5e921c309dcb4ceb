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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parser().parse_args(argv)
    status: int = args.handler(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
