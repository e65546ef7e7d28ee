"""`propctl monitor`: the board's events, readable, with the rules core's reading of scores.

Says hello first (and refuses a board whose link protocol propctl does not
speak), optionally sends commands, then prints every line the board sends:
events with their time and sequence number, replies, console text
(tracebacks, prints), lost lines (a gap in the sequence numbers) and resets.
"""
import json
import sys
import time

from propctl.linkclient import LinkClient, LinkFailure, ProtocolMismatch


def _seconds(ms) -> str:
    return "%d.%d s" % (ms // 1000, ms % 1000 // 100) if isinstance(ms, int) else "?"


def _seats(seats) -> str:
    return ", ".join("seat %d" % s for s in seats) if seats else "nobody"


def describe_score(data: dict) -> str:
    """A scored event read with the rules core: who won, who banked what, who is close."""
    from rules.geisteruhr import WINS_TO_END
    banked = data.get("banked") or []
    before = data.get("before") or [0] * len(banked)
    gains = ["seat %d +%d" % (seat, banked[seat] - before[seat])
             for seat in range(len(banked)) if seat < len(before) and banked[seat] != before[seat]]
    text = "round won by %s; ghost spaces %s" % (_seats(data.get("round_winners")),
                                                 "-".join(str(b) for b in banked))
    if gains:
        text += " (%s)" % ", ".join(gains)
    if data.get("over"):
        text += "; GAME OVER: %s won" % _seats(data.get("winners"))
    else:
        close = [seat for seat in range(len(banked)) if banked[seat] == WINS_TO_END - 1]
        if close:
            text += "; one more round win ends the game for %s" % _seats(close)
    return text


def describe_event(name: str, data) -> str:
    """One event as a person reads it."""
    d = data if isinstance(data, dict) else {}
    if name in ("boot", "hello"):
        return "board up: %s prop on %s, firmware %s, link protocol %s, mode %s" % (
            d.get("prop"), d.get("board"), d.get("firmware"), d.get("protocol"), d.get("mode"))
    if name == "start":
        return "hand starts: round %s, seed %s, %s segments, %s planned" % (
            d.get("round"), d.get("seed"), d.get("segments"), _seconds(d.get("duration_ms")))
    if name == "reverse":
        ways: dict = {1: "clockwise", -1: "anticlockwise"}
        way = ways.get(d.get("direction"), "?")
        return "hand reverses, now %s, at %s" % (way, _seconds(d.get("at_ms")))
    if name == "stop":
        return "hand stops at %s%s" % (_seconds(d.get("at_ms")), " (capped by the safety limit)"
                                       if d.get("capped") else "")
    if name == "chime":
        return "CHIME: round %s is over, count the ghosts" % d.get("round")
    if name == "estop":
        return "emergency stop (round %s)" % d.get("round")
    if name == "scored":
        return "score: " + describe_score(d)
    if name == "safe_mode":
        return "SAFE MODE: %s. %s" % (d.get("why"), d.get("fix"))
    if name == "maintenance":
        return "maintenance boot: %s" % d.get("why")
    if name == "config_error":
        return "config problem: %s" % d.get("msg")
    if name == "fault":
        return "FAULT: %s" % (d.get("error") or d)
    if name == "button":
        return "button %s" % (d.get("kind") or d)
    fields = " ".join("%s=%s" % (k, json.dumps(d[k])) for k in sorted(d))
    return ("%s %s" % (name, fields)).strip()


class Printer:
    """Formats Lines for the terminal (or raw JSON with as_json)."""

    def __init__(self, out=None, as_json: bool = False) -> None:
        self.out = out or sys.stdout
        self.as_json = as_json
        self.started = time.monotonic()

    def _emit(self, text: str) -> None:
        self.out.write("[%7.2fs] %s\n" % (time.monotonic() - self.started, text))
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
            self._emit("%s %s" % (seq, describe_event(message["ev"], message.get("data"))))
        elif "err" in message:
            self._emit("%s reply to %s: refused (%s) %s" % (seq, message.get("re"), message["err"],
                                                         message.get("msg")))
        else:
            self._emit("%s reply to %s: %s" % (seq, message.get("re"), json.dumps(message.get("ok"),
                                                                                   sort_keys=True)))


def parse_send(item: str) -> tuple:
    """'start_round' or 'start_round={"seed": 3}' -> (cmd, args)."""
    cmd, sep, text = item.partition("=")
    if not sep:
        return cmd, None
    args = json.loads(text)
    if not isinstance(args, dict):
        raise ValueError("arguments must be a JSON object, e.g. report='{\"on_clock\": [1, 2]}'")
    return cmd, args


def monitor(port: str, sends=(), until=None, timeout=None, as_json: bool = False, out=None) -> int:
    """The monitor loop; returns the exit code."""
    show = Printer(out, as_json)
    try:
        client = LinkClient.open(port, wait_s=5)
    except OSError as exc:
        print("propctl monitor: cannot open %s: %s (see `propctl ports`)" % (port, exc), file=sys.stderr)
        return 1
    deadline = None if timeout is None else time.monotonic() + timeout
    with client:
        try:
            info = client.hello(timeout=5, on_line=show)
        except ProtocolMismatch as exc:
            print("propctl monitor: %s" % exc, file=sys.stderr)
            return 1
        except LinkFailure as exc:
            print("propctl monitor: %s" % exc, file=sys.stderr)
            return 1
        show._emit("connected: " + describe_event("hello", info))
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
               "  propctl monitor --port /dev/ttyACM0 --send new_game='{\"players\": 3}' --send start_round\n"
               "  propctl monitor --port PORT --send start_round --until chime --timeout 90\n"
               "Commands of the clock: start_round [seed], stop, state, new_game players, "
               "report on_clock unused; `--send help` lists them with their arguments.",
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    parser.add_argument("--port", required=True, help="serial port of the board (see `propctl ports`)")
    parser.add_argument("--send", action="append", default=[], metavar="CMD[=JSON]",
                        help="send a command after connecting (repeatable, in order)")
    parser.add_argument("--until", metavar="EVENT",
                        help="stop when this event arrives (exit 1 if it does not)")
    parser.add_argument("--timeout", type=float,
                        help="stop after this many seconds (default: run until Ctrl-C)")
    parser.add_argument("--json", action="store_true", help="print the raw link messages")
    parser.set_defaults(func=run)


def run(args) -> int:
    try:
        sends = [parse_send(item) for item in args.send]
    except ValueError as exc:
        print("propctl monitor: bad --send: %s" % exc, file=sys.stderr)
        return 2
    return monitor(args.port, sends, args.until, args.timeout, args.json)
