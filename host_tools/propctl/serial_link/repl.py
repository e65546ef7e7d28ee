"""`propctl repl`: reach the MicroPython REPL of a board whose prop is running.

While a prop runs, Ctrl-C on the link is an ordinary byte (line noise must never
stop a prop), so mpremote alone gets no REPL. This command asks the prop over
the link for a maintenance boot (the link's `maintenance` command, as deploy
does), waits for the board to say hello in maintenance mode, then runs
`mpremote connect PORT resume repl` (or prints that command with --print).
The maintenance flag outlives resets; the way back to the prop is printed.
"""
import os
import shutil
import sys
import time

from propctl.argtypes import Seconds
from propctl.serial_link import BoardError
from propctl.serial_link.ports import add_port_option
from propctl.serial_link.session import request_maintenance, wait_for_hello

# Modes in which the board gives the REPL to a Ctrl-C ("repl": nothing answers the link).
REPL_MODES = ("maintenance", "safe", "repl")
BACK_TO_THE_PROP = ("back to the prop: at the REPL `import safemode; safemode.end_maintenance()`, "
                    "then `import machine; machine.reset()` (or deploy again)")


def mpremote_command(port: str) -> list:
    """The mpremote command line that opens the REPL without resetting the board."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpremote")
    program = beside if os.path.exists(beside) else (shutil.which("mpremote") or "mpremote")
    return [program, "connect", port, "resume", "repl"]


def reach_maintenance(port: str, timeout: float = 20.0, say=print) -> str:
    """Bring the board to a mode whose Ctrl-C gives the REPL; returns that mode."""
    mode = request_maintenance(port, say)
    if mode == "repl":
        return mode  # nothing answers the link: the REPL is already free
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = wait_for_hello(port, timeout=max(0.5, deadline - time.monotonic()))
        found = info.get("mode") if isinstance(info, dict) else None
        if found in REPL_MODES:
            return found
        time.sleep(0.2)
    raise BoardError("the board did not come back in maintenance mode within %.0f s" % timeout)


def register(subparsers) -> None:
    import argparse
    parser = subparsers.add_parser(
        "repl", help="open the REPL of a board whose prop is running (via a maintenance boot)",
        description="While a prop runs, Ctrl-C on the serial link is data, so the REPL is out of "
                    "reach. This asks the running prop for a maintenance boot (no prop, no "
                    "watchdog), waits for the board's hello in maintenance mode and then runs "
                    "`mpremote connect PORT resume repl`. A board in safe mode or at the REPL "
                    "already is left as it is. The maintenance flag outlives resets: "
                    + BACK_TO_THE_PROP + ".",
        epilog="Examples:\n"
               "  propctl repl --port /dev/ttyACM0\n"
               "  propctl repl --port /dev/ttyACM0 --print   # then run the mpremote command",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_port_option(parser)
    parser.add_argument("--print", action="store_true", dest="print_only",
                        help="print the mpremote command instead of running it")
    parser.add_argument("--timeout", type=Seconds(0, 3600), default=20.0,
                        help="seconds to wait for the maintenance boot (default 20)")
    parser.set_defaults(func=run)


def run(args) -> int:
    if not args.print_only and not sys.stdin.isatty():
        # mpremote's REPL reads keys from a terminal (else a termios traceback, after the board
        # was already sent to maintenance): say so before touching the board
        print("propctl repl: the REPL needs a terminal, and input is not one; --print gives the "
              "mpremote command to run where there is one", file=sys.stderr)
        return 2
    try:
        mode = reach_maintenance(args.port, args.timeout)
    except BoardError as exc:
        print("propctl repl: %s" % exc, file=sys.stderr)
        return 1
    command = mpremote_command(args.port)
    print("board mode: %s; Ctrl-C gives the REPL" % mode)
    print(BACK_TO_THE_PROP)
    if args.print_only:
        print(" ".join(command))
        return 0
    sys.stdout.flush()
    os.execvp(command[0], command)
    return 0  # not reached: exec replaced this process
