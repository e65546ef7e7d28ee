"""The `propctl` command: one entry point, one module per subcommand.

Exit codes: 0 success, 1 the work found problems (bad cards, failed deploy),
2 the command line itself was wrong; 130 Ctrl-C, and a sim ended by SIGTERM or SIGHUP
(after its clean-up) 143 or 129, as a shell counts them.
"""
import argparse
import os
import sys

from propctl import __version__, deploy, plan, play, web, wokwi
from propctl.board import monitor, ports, repl, selftest
from propctl.board.ports import PortError, not_a_port, resolve_port
from propctl.cards import cli as cards_cli
from propctl.display import Shown
from propctl.helpformat import Parser, use_everywhere
from propctl.image import command as image_command
from propctl.sim import command as sim_command
from propctl.sim.runner import Stopped
from propctl.termtext import wrap
from propctl.venue import view as venue_view

# Each module provides register(subparsers): it adds its parser and sets `func`
# on it; func(args) returns the exit code. Listed in --help order.
SUBCOMMAND_MODULES = [cards_cli, play, sim_command, plan, web, deploy, image_command, monitor, repl, ports,
                      selftest, wokwi, venue_view]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="propctl",
        description="Desktop tools for the game-prop firmware: check and pack card decks, "
                    "run props on a virtual board, deploy to and monitor a real board, "
                    "and play the table games with a terminal game master.",
        epilog="Run `propctl COMMAND --help` for the details of one command.")
    parser.add_argument("--version", action="version", version="propctl " + __version__)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in SUBCOMMAND_MODULES:
        module.register(subparsers)
    use_everywhere(parser)
    return parser


def main(argv=None) -> int:
    # every message names what was typed (a path, a port, a value): shown, never obeyed
    stderr, sys.stderr = sys.stderr, Shown(sys.stderr)
    try:
        return _run(argv)
    finally:
        sys.stderr = stderr


def _run(argv) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    usage_problem = getattr(args, "usage_problem", None)
    problem = usage_problem(args) if usage_problem else ""
    if problem:  # a command line that cannot work is exit 2, before a board is looked for
        print(problem, file=sys.stderr)
        return 2
    port = getattr(args, "port", None)
    if isinstance(port, str):  # a board command's serial port (web's --port is a number)
        # every board command takes --port auto, found here once (README: selftest --port auto);
        # a file, folder or FIFO is refused before an open (a FIFO's would wait for a writer)
        try:
            args.port = resolve_port(port)
            problem = not_a_port(args.port)
        except PortError as exc:
            problem = str(exc)
        if problem:
            print("\n".join(wrap("propctl: %s" % problem, 79, "  ")), file=sys.stderr)
            return 1
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Stopped as exc:  # the terminal may be gone (SIGHUP): nothing more to say
        return exc.code
    except BrokenPipeError:
        # Whoever read the output stopped (`| head`): end quietly, as command-line tools do.
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush finds no broken pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
