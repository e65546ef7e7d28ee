"""`propctl venue`: every prop on the broker as a live table, one command to one prop, or JSON lines.

    propctl venue --broker mqtt://venue@192.168.1.20        the live table (80x24), Ctrl-C ends it
    propctl venue --broker mqtt://localhost --json          one JSON line per status, state and event
    propctl venue --broker mqtt://localhost --send clock1 start_round '{"seed": 7}'

The table is built from what the props publish (docs/venue.md): the retained
PREFIX/ID/status ("online"/"offline", the will) and PREFIX/ID/state, and the
live PREFIX/ID/event; a prop the broker knows shows up the moment this
subscribes. --send publishes one request on PREFIX/ID/cmd and waits for its
reply on PREFIX/ID/reply (exit 0 on an ok reply, 1 on an error reply or
none in time, 2 for a bad command line).
"""
import json
import os
import random
import sys
import threading
import time
from typing import Optional

from propctl.argtypes import Seconds
from propctl.venue.broker import BrokerError, connect, parse_url, read_password

COLUMNS = 80
ROWS = 24
REDRAW_S = 0.25
SEND_TIMEOUT_S = 5.0
ROW = "%-14s %-8s %-7s %-12s %-14s %s"  # id, kind, status, doing, last event, scores: 80 columns
WIDTHS = (14, 8, 7, 12, 14, 80)


def _shown(text: str) -> str:
    """Text from the broker as the table shows it: control characters (an escape sequence a
    hostile client published) become "?", so nothing it sends can move or recolour the screen."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


class Prop:
    """What the venue knows of one prop."""

    def __init__(self, prop_id: str) -> None:
        self.id = prop_id
        self.kind = "?"
        self.status = "?"
        self.state: dict = {}
        self.last_event = ""
        self.first_seen = time.monotonic()

    def doing(self) -> str:
        st = self.state
        for key in ("phase", "state", "box"):
            value = st.get(key)
            if isinstance(value, str):
                return value
        return "?" if not st else "-"

    def scores(self) -> str:
        st = self.state
        game = st.get("game")
        for source in (st, game if isinstance(game, dict) else {}):
            for key in ("score", "scores", "banked"):
                value = source.get(key)
                if isinstance(value, list):
                    return " ".join(str(v) for v in value)
                if isinstance(value, dict):
                    return " ".join("%s:%s" % (k, value[k]) for k in value)
        return ""


class Venue:
    """The model: props by id, fed by the broker's messages (from paho's thread)."""

    def __init__(self, prefix: str, out=None) -> None:
        self.prefix = prefix
        self.props: dict = {}
        self.lock = threading.Lock()
        self.changed = threading.Event()
        self.out = out  # a JSON-lines writer, or None
        self.replies: dict = {}

    def topics(self) -> tuple:
        return tuple("%s/+/%s" % (self.prefix, leaf) for leaf in ("status", "state", "event", "reply"))

    def on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix:
            return
        prop_id, leaf = parts[1], parts[2]
        text = bytes(message.payload).decode("utf-8", "replace")
        data: object = text
        if leaf != "status":
            try:
                data = json.loads(text)
            except ValueError:
                return
            if not isinstance(data, dict):
                return
        with self.lock:
            if isinstance(data, dict) and leaf == "reply":
                if isinstance(data.get("re"), int):
                    self.replies[(prop_id, data["re"])] = data
                self.changed.set()
                return
            prop = self.props.get(prop_id)
            if prop is None:
                prop = self.props[prop_id] = Prop(prop_id)
            if leaf == "status":
                prop.status = text
            elif isinstance(data, dict) and leaf == "state":
                prop.kind = str(data.get("prop", "?"))
                if not prop.last_event and isinstance(data.get("last_event"), str):
                    prop.last_event = data["last_event"]
                state = data.get("state")
                prop.state = state if isinstance(state, dict) else {}
            elif isinstance(data, dict) and leaf == "event":
                prop.last_event = str(data.get("ev", "?"))
                if prop.status == "?":
                    prop.status = "online"
            if self.out is not None:
                self.out({"id": prop_id, "topic": leaf, "data": data, "retained": bool(message.retain)})
        self.changed.set()

    def table(self, rows: int = ROWS, columns: int = COLUMNS) -> list:
        """The screen as lines of at most `columns` characters, at most `rows` lines."""
        with self.lock:
            props = sorted(self.props.values(), key=lambda p: p.id)
            online = sum(1 for p in props if p.status == "online")
            lines = ["venue: %d props, %d online" % (len(props), online),
                     ROW % ("ID", "KIND", "STATUS", "DOING", "LAST EVENT", "SCORES")]
            room = rows - len(lines) - 1
            for prop in props[:room if len(props) > room else len(props)]:
                cells = (prop.id, prop.kind, prop.status, prop.doing(), prop.last_event, prop.scores())
                lines.append(ROW % tuple(_shown(cell)[:width] for cell, width in zip(cells, WIDTHS)))
            if len(props) > room:
                lines.append("... and %d more (--json lists every prop)" % (len(props) - room))
        return [line[:columns] for line in lines]


def _screen_size() -> tuple:
    try:
        size = os.get_terminal_size()
        return max(size.lines, 5), max(size.columns, 40)
    except OSError:
        return ROWS, COLUMNS


def send(client, venue: Venue, prop_id: str, command: str, args, timeout: float) -> int:
    """One request, its reply printed; 0 on ok."""
    request_id = random.randrange(1, 1 << 30)
    body: dict = {"id": request_id, "cmd": command}
    if args:
        body["args"] = args
    time.sleep(0.2)  # the subscriptions and the retained status first
    with venue.lock:
        prop = venue.props.get(prop_id)
        status = prop.status if prop is not None else None
    if status == "offline":
        print("propctl venue: %s is offline (its last will); sending anyway" % prop_id, file=sys.stderr)
    client.publish("%s/%s/cmd" % (venue.prefix, prop_id), json.dumps(body), qos=1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with venue.lock:
            reply = venue.replies.get((prop_id, request_id))
        if reply is not None:
            print(json.dumps(reply))
            return 0 if "ok" in reply else 1
        venue.changed.wait(0.05)
        venue.changed.clear()
    known = "" if status else " (the broker knows no prop %s)" % prop_id
    print("propctl venue: no reply from %s within %g s%s" % (prop_id, timeout, known), file=sys.stderr)
    return 1


def run(args) -> int:
    try:
        broker = parse_url(args.broker)
        password = read_password(args.password_file)
    except BrokerError as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 2
    args_json = None
    if args.send:
        if len(args.send) > 3:
            print("propctl venue: --send takes ID COMMAND [JSON]", file=sys.stderr)
            return 2
        if len(args.send) == 3:
            try:
                args_json = json.loads(args.send[2])
            except ValueError as exc:
                print("propctl venue: the arguments must be a JSON object, e.g. '{\"seed\": 7}' (%s)" % exc,
                      file=sys.stderr)
                return 2
            if not isinstance(args_json, dict):
                print("propctl venue: the arguments must be a JSON object {...}", file=sys.stderr)
                return 2
        if len(args.send) < 2:
            print("propctl venue: --send takes ID COMMAND [JSON]", file=sys.stderr)
            return 2
    lock = threading.Lock()

    def write_json(record: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()

    venue = Venue(args.prefix, write_json if args.json and not args.send else None)
    try:
        client = connect(broker, password, "propctl-venue-%d" % random.randrange(1 << 30),
                         on_message=venue.on_message, subscribe=venue.topics())
    except BrokerError as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 1
    try:
        if args.send:
            timeout = args.seconds if args.seconds is not None else SEND_TIMEOUT_S
            return send(client, venue, args.send[0], args.send[1], args_json, timeout)
        return watch(venue, args)
    finally:
        client.loop_stop()
        client.disconnect()


def watch(venue: Venue, args) -> int:
    end: Optional[float] = time.monotonic() + args.seconds if args.seconds is not None else None
    live = not args.json and sys.stdout.isatty()
    try:
        while end is None or time.monotonic() < end:
            if live:
                rows, columns = _screen_size()
                screen = venue.table(min(rows, ROWS), min(columns, COLUMNS))
                sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(screen))
                sys.stdout.flush()
            wait = REDRAW_S if end is None else max(0.0, min(REDRAW_S, end - time.monotonic()))
            venue.changed.wait(wait)
            venue.changed.clear()
    except KeyboardInterrupt:
        if not args.json:
            print()
        return 130
    if not args.json:
        if live:
            sys.stdout.write("\x1b[H\x1b[2J")
        print("\n".join(venue.table()))
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "venue", help="every prop on an MQTT broker: a live table, one command, JSON lines",
        description="Watch and command the props of a venue through their MQTT broker "
                    "(docs/venue.md). Shows each prop's id, kind, online or offline, what it "
                    "is doing, its last event and scores.",
        epilog="examples:\n"
               "  propctl venue --broker mqtt://venue@192.168.1.20\n"
               "  propctl venue --broker mqtt://localhost:1883 --json --seconds 10\n"
               "  propctl venue --broker mqtt://pi --send clock1 start_round '{\"seed\": 7}'\n"
               "The broker password: --password-file FILE or $PROPCTL_MQTT_PASSWORD (never\n"
               "in the URL, where the process list would show it).")
    parser.add_argument("--broker", required=True, metavar="URL", help="mqtt://[USER@]HOST[:PORT]")
    parser.add_argument("--password-file", metavar="FILE", help="the broker password: first line of FILE")
    parser.add_argument("--prefix", default="props", help="the props' topic prefix, net.prefix "
                                                          "(default %(default)s)")
    parser.add_argument("--send", nargs="+", metavar="ARG",
                        help="ID COMMAND [JSON]: send one command, print its reply, exit 0 when ok")
    parser.add_argument("--json", action="store_true", help="one JSON line per status, state and event")
    parser.add_argument("--seconds", type=Seconds(0, 7 * 24 * 3600), metavar="N",
                        help="stop after N seconds, up to a week (with --send: wait N s for the "
                             "reply, default 5)")
    parser.set_defaults(func=run)
