"""The ``tablescore`` command.

>>> parser().prog
'tablescore'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from device import __version__, history_command, recognize_command, run_command, score_command
from device.demo import command as demo_command


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
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parser().parse_args(argv)
    status: int = args.handler(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
