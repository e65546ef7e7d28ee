"""The `propctl` command: one entry point, one module per subcommand.

Exit codes: 0 success, 1 the work found problems (bad cards, failed deploy),
2 the command line itself was wrong.
"""
import argparse
import importlib
import sys

from propctl import __version__

# Each module propctl.NAME provides register(subparsers): it adds its parser and
# sets `func` on it; func(args) returns the exit code. Listed in --help order.
SUBCOMMAND_MODULES = [
    "cards.cli",
    "play",
    "sim",
    "web",
    "deploy",
    "monitor",
    "ports",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="propctl",
        description="Desktop tools for the game-prop firmware: check and pack card decks, "
                    "run props on a virtual board, deploy to and monitor a real board, "
                    "and play the table games with a terminal game master.",
        epilog="Run `propctl COMMAND --help` for the details of one command.")
    parser.add_argument("--version", action="version", version="propctl " + __version__)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module("propctl." + name).register(subparsers)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
