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
import math
import os
import random
import sys
import threading
import time
from typing import Optional

from propctl.argtypes import TOPIC_LEVEL, Seconds
from propctl.termtext import cells, cut
from propctl.venue.broker import BrokerError, connect, parse_url, read_password

COLUMNS = 80
ROWS = 24
REDRAW_S = 0.25
SEND_TIMEOUT_S = 5.0
MAX_LINE = 512  # the link's longest request line (firmware link.protocol.MAX_LINE)
# a prop's longest message is its net buffer (net.mqtt out_size, 2 KB); anything far longer is no prop's
MAX_PAYLOAD = 16 * 1024
STATUS_MAX = 40  # "online" / "offline": a longer status is cut
# id, kind, status, doing, last event, scores: 80 columns, measured in terminal cells (an id in
# CJK letters takes two a letter)
WIDTHS = (14, 8, 7, 12, 14, 20)


# during an outage STATUS and DOING become one column: "last seen HH:MM:SS"
OUTAGE_WIDTHS = (WIDTHS[0], WIDTHS[1], WIDTHS[2] + 1 + WIDTHS[3]) + WIDTHS[4:]
# after a (re)connection the broker sends the retained statuses right after each SUBACK; a
# prop with none by then is one the broker does not know (it vanished while the broker was away)
ABSENT_AFTER_S = 3.0


def _row(*texts: str, widths: tuple = WIDTHS) -> str:
    """One line of the table: each text shown (_shown), cut and padded to its column's cells."""
    out = []
    for text, width in zip(texts, widths):
        text = cut(_shown(text), width)
        out.append(text + " " * (width - cells(text)))
    return " ".join(out).rstrip()


def _shown(text: str) -> str:
    """Text from the broker as the table shows it: control characters (an escape sequence a
    hostile client published) become "?", so nothing it sends can move or recolour the screen."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _finite(text: str):
    """A JSON number as a float, or its own text where no finite float holds it (1e999)."""
    value = float(text)
    return value if math.isfinite(value) else text


def _constant(name: str) -> str:
    return name  # NaN, Infinity, -Infinity: not JSON (RFC 8259), kept as the text the prop sent


def loads_strict(text: str):
    """JSON as RFC 8259 has it: NaN and Infinity (which Python's json takes) and numbers
    no float holds come back as their text, so --json never writes what strict parsers refuse."""
    return json.loads(text, parse_constant=_constant, parse_float=_finite)


def dumps_strict(record) -> str:
    """One --json line; ValueError for anything that is not strict JSON (it never is: loads_strict)."""
    return json.dumps(record, allow_nan=False)


class Prop:
    """What the venue knows of one prop."""

    def __init__(self, prop_id: str) -> None:
        self.id = prop_id
        self.kind = "?"
        self.status = "?"
        self.state: dict = {}
        self.last_event = ""
        self.first_seen = time.monotonic()
        self.seen = time.time()  # wall clock: the last moment it was known to be on the broker

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
        self.lost = False  # the connection to the broker is down
        self.bad = 0       # messages the view could not take (bad_message)
        self.last_bad = ""
        self.closed = False  # stdout was closed (| head): the view ends
        self.back_at = None  # monotonic time of the last reconnection, until tick() settles it
        self.back_wall = 0.0
        self.lost_at = 0.0

    def connection(self, up: bool) -> None:
        """The broker connection went down or came back (broker.connect's on_connection).

        Lost: each prop online until now was last seen now; nothing on the table is current.
        Back: the broker may have restarted and lost every retained status and will, and a
        prop may have died meanwhile with no will published: every prop is "unknown" until
        the broker sends its retained status again, and "absent" (the broker holds none) if
        none came within ABSENT_AFTER_S."""
        now = time.time()
        with self.lock:
            self.lost = not up
            if up:
                self.back_at = time.monotonic()
                self.back_wall = now
                for prop in self.props.values():
                    prop.status = "unknown"
                unknown = sorted(self.props)
            else:
                self.lost_at = now
                for prop in self.props.values():
                    if prop.status == "online":
                        prop.seen = now
        stamp = time.strftime("%H:%M:%S", time.localtime(now))
        if up:
            self._emit({"broker": "up", "at": stamp, "unknown": unknown})
        else:
            self._emit({"broker": "lost", "at": stamp})
        if self.out is not None:  # --json: the records say it on stdout; a person reads stderr
            print("propctl venue: back on the broker; every prop unknown until its status comes again"
                  if up else "propctl venue: lost the broker; trying again", file=sys.stderr)
        self.changed.set()

    def tick(self, now=None) -> None:
        """Props still "unknown" ABSENT_AFTER_S after a reconnection become "absent"
        (the watch loop calls this on every redraw)."""
        now = time.monotonic() if now is None else now
        with self.lock:
            if self.back_at is None or self.lost or now - self.back_at < ABSENT_AFTER_S:
                return
            gone = sorted(p.id for p in self.props.values() if p.status == "unknown")
            for prop_id in gone:
                self.props[prop_id].status = "absent"
            self.back_at = None
        if gone:
            self._emit({"broker": "absent", "ids": gone,
                        "why": "no status on the broker %g s after reconnecting" % ABSENT_AFTER_S})
            self.changed.set()

    def topics(self) -> tuple:
        return tuple("%s/+/%s" % (self.prefix, leaf) for leaf in ("status", "state", "event", "reply"))

    def on_message(self, client, userdata, message) -> None:
        """paho's on_message: whatever a message holds (anything on the broker may be hostile,
        retained ones included), it is taken or counted as bad here, never raised into paho's
        network thread, whose death would freeze the view."""
        try:
            self._take(message)
        except Exception as exc:  # RecursionError from "[" * 100000, a topic not UTF-8, ...
            try:
                topic = str(message.topic)
            except Exception:
                topic = "?"
            self.bad_message(topic, "%s: %s" % (type(exc).__name__, str(exc)[:80]))

    def bad_message(self, topic: str, why: str) -> None:
        """One message the view could not take: counted, shown in the table and --json."""
        with self.lock:
            self.bad += 1
            self.last_bad = "%s (%s)" % (topic[:60], why)
            count = self.bad
        self._emit({"broker": "bad_message", "topic": topic[:200], "why": why, "count": count})
        self.changed.set()

    def _emit(self, record: dict) -> None:
        if self.out is not None:
            self.out(record)

    def _take(self, message) -> None:
        topic = message.topic
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix:
            return
        prop_id, leaf = parts[1], parts[2]
        payload = bytes(message.payload)
        if len(payload) > MAX_PAYLOAD:
            self.bad_message(topic, "%d bytes, more than a prop sends" % len(payload))
            return
        text = payload.decode("utf-8", "replace")
        data: object = text
        if leaf != "status":
            try:
                data = loads_strict(text)
            except (ValueError, RecursionError) as exc:
                self.bad_message(topic, "not JSON (%s)" % str(exc)[:60] if isinstance(exc, ValueError)
                                 else "nested too deep")
                return
            if not isinstance(data, dict):
                self.bad_message(topic, "not a JSON object")
                return
        elif len(text) > STATUS_MAX:
            text = data = text[:STATUS_MAX]
        record = None
        with self.lock:
            if isinstance(data, dict) and leaf == "reply":
                if isinstance(data.get("re"), int):
                    self.replies[(prop_id, data["re"])] = data
                self.changed.set()
                return
            prop = self.props.get(prop_id)
            if prop is None:
                prop = self.props[prop_id] = Prop(prop_id)
            prop.seen = time.time()
            if leaf == "status":
                prop.status = text
            elif isinstance(data, dict) and leaf == "state":
                kind = data.get("prop")
                prop.kind = kind if isinstance(kind, str) else "?"
                if not prop.last_event and isinstance(data.get("last_event"), str):
                    prop.last_event = data["last_event"]
                state = data.get("state")
                prop.state = state if isinstance(state, dict) else {}
            elif isinstance(data, dict) and leaf == "event":
                event = data.get("ev")
                prop.last_event = event if isinstance(event, str) else "?"
                if prop.status in ("?", "unknown", "absent") and not message.retain:
                    prop.status = "online"  # a prop publishes events only while it is on the broker
            if self.out is not None:
                record = {"id": prop_id, "topic": leaf, "data": data, "retained": bool(message.retain)}
        if record is not None:
            self._emit(record)
        self.changed.set()

    def table(self, rows: int = ROWS, columns: int = COLUMNS) -> list:
        """The screen as lines of at most `columns` characters, at most `rows` lines."""
        with self.lock:
            props = sorted(self.props.values(), key=lambda p: p.id)
            online = sum(1 for p in props if p.status == "online")
            unknown = sum(1 for p in props if p.status == "unknown")
            head = "venue: %d props, %d online" % (len(props), online)
            if unknown:
                head += ", %d unknown (broker back at %s)" % (
                    unknown, time.strftime("%H:%M:%S", time.localtime(self.back_wall)))
            if self.lost:  # what the table shows stopped changing when the broker went
                head = "venue: lost the broker at %s, trying again; %d props as last seen" % (
                    time.strftime("%H:%M:%S", time.localtime(self.lost_at)), len(props))
                lines = [head, _row("ID", "KIND", "LAST SEEN", "LAST EVENT", "SCORES", widths=OUTAGE_WIDTHS)]
            else:
                lines = [head, _row("ID", "KIND", "STATUS", "DOING", "LAST EVENT", "SCORES")]
            foot = []
            if self.bad:  # what a hostile or broken client published: counted, never fatal
                foot.append(_shown("%d bad message%s ignored, the last: %s"
                                   % (self.bad, "" if self.bad == 1 else "s", self.last_bad)))
            room = rows - len(lines) - 1 - len(foot)
            for prop in props[:room if len(props) > room else len(props)]:
                if self.lost:  # no bare "online" while nothing can be known
                    where = prop.status
                    if prop.status == "online":
                        where = "last seen " + time.strftime("%H:%M:%S", time.localtime(prop.seen))
                    lines.append(_row(prop.id, prop.kind, where, prop.last_event, prop.scores(),
                                      widths=OUTAGE_WIDTHS))
                    continue
                row = (prop.id, prop.kind, prop.status, prop.doing(), prop.last_event, prop.scores())
                lines.append(_row(*row))
            if len(props) > room:
                lines.append("... and %d more (--json lists every prop)" % (len(props) - room))
            lines.extend(foot)
        return [cut(line, columns) for line in lines]


def _screen_size() -> tuple:
    try:
        size = os.get_terminal_size()
        return max(size.lines, 5), max(size.columns, 40)
    except OSError:
        return ROWS, COLUMNS


def _request(command: str, args, request_id: int = (1 << 30) - 1) -> dict:
    body: dict = {"id": request_id, "cmd": command}
    if args:
        body["args"] = args
    return body


def _request_problem(command: str, args):
    """Why the request cannot go (a prop drops a line longer than the link's), or None."""
    size = len(json.dumps(_request(command, args)).encode())
    if size > MAX_LINE:
        return "the request is %d bytes; a prop takes at most %d" % (size, MAX_LINE)
    return None


def send(client, venue: Venue, prop_id: str, command: str, args, timeout: float) -> int:
    """One request, its reply printed; 0 on ok."""
    request_id = random.randrange(1, 1 << 30)
    body = _request(command, args, request_id)
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
            print(dumps_strict(reply))
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
        problem = TOPIC_LEVEL.problem(args.send[0]) or _request_problem(args.send[1], args_json)
        if problem:
            print("propctl venue: --send ID COMMAND: %s" % problem, file=sys.stderr)
            return 2
    if args.forget:
        if args.send or args.json:
            print("propctl venue: --forget goes alone (not with --send or --json)", file=sys.stderr)
            return 2
        return forget(broker, password, args.prefix, args.forget, args.discovery_prefix, args.ca_file)
    lock = threading.Lock()
    venue = Venue(args.prefix)

    def write_json(record: dict) -> None:
        with lock:
            if venue.closed:
                return
            try:
                sys.stdout.write(dumps_strict(record) + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError, OSError):  # | head -1 has what it wanted
                stdout_closed(venue)

    if args.json and not args.send:
        venue.out = write_json
    try:
        client = connect(broker, password, "propctl-venue-%d" % random.randrange(1 << 30),
                         on_message=venue.on_message, subscribe=venue.topics(),
                         on_connection=venue.connection, ca_file=args.ca_file)
    except BrokerError as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 1
    try:
        if args.send:
            timeout = args.seconds if args.seconds is not None else SEND_TIMEOUT_S
            return send(client, venue, args.send[0], args.send[1], args_json, timeout)
        return watch(venue, args)
    except BrokenPipeError:  # the table's last print into a closed pipe
        stdout_closed(venue)
        return 0
    finally:
        client.loop_stop()
        client.disconnect()


def stdout_closed(venue: Venue) -> None:
    """The reader of stdout went away (`| head -1`): the view ends, quietly. stdout points at
    /dev/null from here, so Python's own flush at exit has nowhere to fail."""
    venue.closed = True
    venue.changed.set()
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


FORGET_WAIT_S = 1.0  # the broker sends retained messages right after SUBACK: well within this


def _retained(broker, password: str, topics: tuple, client_id: str, ca_file=None) -> dict:
    """topic -> payload of the retained messages on `topics` (what a new subscriber gets)."""
    found: dict = {}
    lock = threading.Lock()

    def on_message(client, userdata, message) -> None:
        try:
            if message.retain:
                with lock:
                    found[message.topic] = bytes(message.payload)
        except Exception:  # guarded as every callback: a topic not UTF-8 is simply not ours
            pass

    client = connect(broker, password, client_id, on_message=on_message, subscribe=topics, ca_file=ca_file)
    try:
        time.sleep(FORGET_WAIT_S)
    finally:
        client.loop_stop()
        client.disconnect()
    with lock:
        return {t: p for t, p in found.items() if p}


def forget(broker, password: str, prefix: str, prop_id: str, discovery_prefix: str, ca_file=None) -> int:
    """`--forget ID`: remove a prop that is gone or renamed: its retained status and state and
    its Home Assistant discovery configs (an empty retained message each; Home Assistant
    removes the entities), the configs of earlier firmware (node ID alone) too."""
    topics = ("%s/%s/status" % (prefix, prop_id), "%s/%s/state" % (prefix, prop_id),
              "%s/+/%s_%s/+/config" % (discovery_prefix, prefix, prop_id),
              "%s/+/%s/+/config" % (discovery_prefix, prop_id))
    tag = random.randrange(1 << 30)
    try:
        found = _retained(broker, password, topics, "propctl-forget-%d" % tag, ca_file)
        if found.get(topics[0]) == b"online":
            print("propctl venue: %s is online: stop it (or set its net.discovery false) first, or it "
                  "announces itself again at its next connect" % prop_id, file=sys.stderr)
            return 1
        if not found:
            print("propctl venue: the broker holds nothing retained for %s (status, state, Home "
                  "Assistant configs under %s/)" % (prop_id, discovery_prefix))
            return 0
        client = connect(broker, password, "propctl-forget-%d-w" % tag, ca_file=ca_file)
        try:
            for topic in sorted(found):
                client.publish(topic, b"", qos=1, retain=True).wait_for_publish(5)
        finally:
            client.loop_stop()
            client.disconnect()
        left = _retained(broker, password, topics, "propctl-forget-%d-c" % tag, ca_file)
    except (BrokerError, RuntimeError, ValueError) as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 1
    for topic in sorted(found):
        print("removed %s%s" % (_shown(topic), "" if topic not in left else ": NOT REMOVED"))
    if left:
        print("propctl venue: the broker kept %d of them: may this user write them? (the ACL in "
              "docs/venue.md gives user venue those writes)" % len(left), file=sys.stderr)
        return 1
    return 0


def watch(venue: Venue, args) -> int:
    end: Optional[float] = time.monotonic() + args.seconds if args.seconds is not None else None
    live = not args.json and sys.stdout.isatty()
    try:
        while end is None or time.monotonic() < end:
            if venue.closed:
                return 0
            venue.tick()
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
               "  propctl venue --broker mqtt://venue@pi --forget oldclock\n"
               "The broker password: --password-file FILE or $PROPCTL_MQTT_PASSWORD (never\n"
               "in the URL, where the process list would show it).")
    parser.add_argument("--broker", required=True, metavar="URL",
                        help="mqtt://[USER@]HOST[:PORT], or mqtts://... for TLS (port 8883)")
    parser.add_argument("--ca-file", metavar="FILE",
                        help="with mqtts://: the CA certificate (PEM) that signed the broker's "
                             "(default: the system's CAs)")
    parser.add_argument("--password-file", metavar="FILE", help="the broker password: first line of FILE")
    parser.add_argument("--prefix", default="props", type=TOPIC_LEVEL,
                        help="the props' topic prefix, net.prefix (default %(default)s)")
    parser.add_argument("--send", nargs="+", metavar="ARG",
                        help="ID COMMAND [JSON]: send one command, print its reply, exit 0 when ok")
    parser.add_argument("--forget", metavar="ID", type=TOPIC_LEVEL,
                        help="remove a prop that is gone or renamed: its retained status and state "
                             "and its Home Assistant entities (refused while it is online)")
    parser.add_argument("--discovery-prefix", default="homeassistant", type=TOPIC_LEVEL,
                        help="with --forget: Home Assistant's discovery prefix, net.discovery_prefix "
                             "(default %(default)s)")
    parser.add_argument("--json", action="store_true", help="one JSON line per status, state and event")
    parser.add_argument("--seconds", type=Seconds(0, 7 * 24 * 3600), metavar="N",
                        help="stop after N seconds, up to a week (with --send: wait N s for the "
                             "reply, default 5)")
    parser.set_defaults(func=run)
