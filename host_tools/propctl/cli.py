"""The `propctl` command: one entry point, one module per subcommand.

Exit codes: 0 success, 1 the work found problems (bad cards, failed deploy),
2 the command line itself was wrong; 130 Ctrl-C, and a sim ended by SIGTERM or SIGHUP
(after its clean-up) 143 or 129, as a shell counts them.
"""
import argparse
import importlib
import os
import sys

from propctl import __version__
from propctl.helpformat import Parser, use_everywhere
from propctl.serial_link.ports import PortError, not_a_port, resolve_port
from propctl.termsafe import Shown
from propctl.termtext import wrap

# (name, module, help), in --help order. Each module provides register(subparsers): it adds its
# parser (with this help) and sets `func` on it; func(args) returns the exit code. A command line
# imports only the module of the command it names: `propctl --help` lists the others from here
# (tests/cli/test_cli_lazy.py checks each help is its module's own).
SUBCOMMANDS = [
    ("cards", "propctl.cards.cli", "check, pack, show and print card decks (CSV/JSON -> pack, PDF)"),
    ("play", "propctl.play", "run a terminal game master for a table game"),
    ("sim", "propctl.sim.command", "run a prop's firmware on the virtual board (no hardware needed)"),
    ("plan", "propctl.props.clock.plan", "the ghost clock's motion plan for a seed: a table and an SVG"),
    ("web", "propctl.web", "the props in a web browser: the real firmware on MicroPython WebAssembly"),
    ("deploy", "propctl.deploy", "compile and copy the firmware (or a card deck) to a board"),
    ("image", "propctl.image.command",
     "one file that puts a prop on a board with no tools: a .uf2 (Pico) or .bin (ESP32)"),
    ("monitor", "propctl.serial_link.monitor", "show a board's events live, and send it commands"),
    ("repl", "propctl.serial_link.repl",
     "open the REPL of a board whose prop is running (via a maintenance boot)"),
    ("ports", "propctl.serial_link.ports", "list serial ports that may be a prop board"),
    ("selftest", "propctl.serial_link.selftest", "test the prop's wiring on the board, one signal at a time"),
    ("wokwi", "propctl.wokwi", "write the Wokwi simulator diagrams from the board profiles"),
    ("venue", "propctl.venue.view", "every prop on an MQTT broker: a live table, one command, JSON lines"),
]


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The whole parser; given the command line `argv`, only the command it names is imported
    and built in full, the others are listed by name and help (a quick `propctl --help`)."""
    parser = Parser(
        prog="propctl",
        description="Desktop tools for the game-prop firmware: check and pack card decks, "
                    "run props on a virtual board, deploy to and monitor a real board, "
                    "and play the table games with a terminal game master.",
        epilog="Run `propctl COMMAND --help` for the details of one command.")
    parser.add_argument("--version", action="version", version="propctl " + __version__)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    named = _command_named(argv) if argv is not None else None
    for name, module, help_text in SUBCOMMANDS:
        if argv is None or name == named:
            importlib.import_module(module).register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text, add_help=False)
    use_everywhere(parser)
    return parser


def _command_named(argv) -> str:
    """The command a command line names (its first word that is no option), or ""."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return ""


def main(argv=None) -> int:
    # every message names what was typed (a path, a port, a value): shown, never obeyed
    stderr, sys.stderr = sys.stderr, Shown(sys.stderr)
    try:
        return _run(argv)
    finally:
        sys.stderr = stderr


def _run(argv) -> int:
    parser = build_parser(list(sys.argv[1:] if argv is None else argv))
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
    from propctl.sim.runner import Stopped
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
