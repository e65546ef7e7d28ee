"""`propctl monitor`: the board's events, readable, with the rules core's reading of scores.

Says hello first (and refuses a board whose link protocol propctl does not
speak), optionally sends commands, then prints every line the board sends:
events with their time and sequence number (described for the prop the hello
names, propctl.describe), replies, console text (tracebacks, prints), lost
lines (a gap in the sequence numbers) and resets. A board that goes away
(unplugged, re-enumerated after a reset) ends it with one line saying so.
"""
import json
import sys
import time

from propctl.argtypes import Seconds
from propctl.describe import describe_event
from propctl.invocation import propctl_command
from propctl.serial_link.linkclient import LinkClient, LinkFailure, ProtocolMismatch
from propctl.serial_link.ports import PortError, add_port_option, open_failure, resolve_port
from propctl.shared.link import protocol
from propctl.termsafe import printable


class Printer:
    """Formats Lines for the terminal (or raw JSON with as_json)."""

    def __init__(self, out=None, as_json: bool = False, prop=None) -> None:
        self.out = out or sys.stdout
        self.as_json = as_json
        self.prop = prop  # from the board's hello: which describer reads its events
        self.started = time.monotonic()

    def _emit(self, text: str) -> None:
        # a board's lines are data: an ESC in a message, or in raw output, is shown, not obeyed
        self.out.write("[%7.2fs] %s\n" % (time.monotonic() - self.started, printable(text, newlines=False)))
        self.out.flush()

    def __call__(self, line) -> None:
        if line.restarted:
            self._emit("-- the board was reset (sequence restarted) --")
        if line.lost:
            self._emit("!! %d line(s) from the board were lost" % line.lost)
        if line.message is None:
            if line.text.strip():
                self._emit("   | " + line.text)
            return
        message = line.message
        if self.as_json:
            self._emit(json.dumps(message, sort_keys=True))
            return
        seq = "#%d" % message["seq"]
        if "ev" in message:
            if message["ev"] in ("boot", "hello") and isinstance(message.get("data"), dict):
                self.prop = message["data"].get("prop", self.prop)
            self._emit("%s %s" % (seq, describe_event(self.prop, message["ev"], message.get("data"))))
        elif "err" in message:
            self._emit("%s reply to %s: refused (%s) %s" % (seq, message.get("re"), message["err"],
                                                         message.get("msg")))
        else:
            self._emit("%s reply to %s: %s" % (seq, message.get("re"), json.dumps(message.get("ok"),
                                                                                   sort_keys=True)))


def _not_json(word: str):
    raise ValueError("%s is not a JSON number" % word)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("%s is too large for a JSON number" % text)
    return value


def parse_send(item: str) -> tuple:
    """'start_round' or 'start_round={"seed": 3}' -> (cmd, args); ValueError says what is wrong.

    Whatever the board would refuse as a line (not JSON to MicroPython, longer than
    link.protocol.MAX_LINE) is refused here, before anything is sent."""
    cmd, sep, text = item.partition("=")
    if not cmd.strip():
        raise ValueError("give a command, e.g. --send state or --send start_round='{\"seed\": 3}'")
    args = None
    if sep:
        try:
            args = json.loads(text, parse_constant=_not_json, parse_float=_finite)
        except RecursionError:
            raise ValueError("the arguments are nested too deeply") from None
        except ValueError as exc:
            raise ValueError("the arguments are not JSON (%s)" % exc) from None
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object, e.g. report='{\"on_clock\": [1, 2]}'")
    size = len(protocol.encode(protocol.request(cmd, args, 10 ** 6))) - 1
    if size > protocol.MAX_LINE:
        raise ValueError("the request would be a line of %d bytes; the board reads at most %d"
                         % (size, protocol.MAX_LINE))
    return cmd, args


def _no_hello(port: str, exc) -> str:
    """What to do when the board does not answer hello (a fresh board has no prop firmware)."""
    return ("%s: no prop firmware answered on %s. A freshly flashed board (MicroPython only, no "
            "main.py) needs a deploy first: %s deploy --port %s --prop clock --board pico; "
            "a board in the middle of a reset: run monitor again" % (exc, port, propctl_command(), port))


def _lost(port: str, exc) -> str:
    return ("lost the board on %s (%s: %s): it was unplugged or reset. Plug it in again and run the "
            "same monitor (`propctl ports` lists the ports)" % (port, type(exc).__name__,
                                                                   str(exc).strip() or "gone"))


def monitor(port: str, sends=(), until=None, timeout=None, as_json: bool = False, out=None) -> int:
    """The monitor loop; returns the exit code."""
    try:
        port = resolve_port(port)
    except PortError as exc:
        print("propctl monitor: %s" % exc, file=sys.stderr)
        return 1
    show = Printer(out, as_json)
    try:
        client = LinkClient.open(port, wait_s=5)
    except OSError as exc:
        print("propctl monitor: %s" % open_failure(port, exc), file=sys.stderr)
        return 1
    try:
        with client:
            return _watch(client, port, show, sends, until, timeout)
    except OSError as exc:  # pyserial's SerialException too: the port went away
        print("propctl monitor: %s" % _lost(port, exc), file=sys.stderr)
        return 1


def _watch(client, port: str, show, sends, until, timeout) -> int:
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        info = client.hello(timeout=5, on_line=show)
    except ProtocolMismatch as exc:
        print("propctl monitor: %s" % exc, file=sys.stderr)
        return 1
    except LinkFailure as exc:
        print("propctl monitor: %s" % _no_hello(port, exc), file=sys.stderr)
        return 1
    show.prop = info.get("prop")
    show._emit("connected: " + describe_event(show.prop, "hello", info))
    for message in info.get("config_errors") or []:
        show._emit("config problem: %s" % message)
    if info.get("mode") == "safe":
        show._emit("SAFE MODE: the prop is not running; `--send why` says why, a deploy fixes it")
    seen = []

    def watch(line):
        show(line)
        if until is not None and line.event == until:
            seen.append(line)
    for cmd, args in sends:
        try:
            result = client.request(cmd, args, timeout=5, on_line=watch)
            show._emit("%s: %s" % (cmd, json.dumps(result, sort_keys=True)))
        except LinkFailure as exc:
            show._emit("%s: %s" % (cmd, exc))
            return 1
    while not seen:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        line = client.read_line(0.5 if left is None else min(0.5, left))
        if line is not None:
            watch(line)
    if until is not None and not seen:
        print("propctl monitor: no %s event within %s s" % (until, timeout), file=sys.stderr)
        return 1
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "monitor", help="show a board's events live, and send it commands",
        description="Connect to a prop over its USB serial link, check the protocol version, and show "
                    "what it reports: button presses, the hand starting, reversing and stopping, the "
                    "chime, scores (read with the rules core), faults, safe mode. Lost lines and "
                    "board resets are flagged.",
        epilog="Examples:\n"
               "  propctl monitor --port /dev/ttyACM0\n"
               "  propctl monitor --port /dev/ttyACM0 --send new_game='{\"players\": 3}'\n"
               "  propctl monitor --port PORT --send start_round --until chime --timeout 90\n"
               "Commands of the clock: start_round [seed], stop, state, new_game players, "
               "report on_clock unused; `--send help` lists them with their arguments.",
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    add_port_option(parser)
    parser.add_argument("--send", action="append", default=[], metavar="CMD[=JSON]",
                        help="send a command after connecting (repeatable, in order)")
    parser.add_argument("--until", metavar="EVENT",
                        help="stop when this event arrives (exit 1 if it does not)")
    parser.add_argument("--timeout", type=Seconds(0, 7 * 24 * 3600),
                        help="stop after this many seconds, up to a week (default: run until Ctrl-C)")
    parser.add_argument("--json", action="store_true", help="print the raw link messages")
    parser.set_defaults(func=run)


def run(args) -> int:
    sends = []
    for item in args.send:
        try:
            sends.append(parse_send(item))
        except ValueError as exc:
            shown = item if len(item) <= 40 else item[:37] + "..."
            print("propctl monitor: bad --send %r: %s" % (shown, exc), file=sys.stderr)
            return 2
    return monitor(args.port, sends, args.until, args.timeout, args.json)
