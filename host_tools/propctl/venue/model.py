"""What `propctl venue` knows of the props on a broker: the model fed by paho's thread, and the
table it draws (80x24). Anything on the broker may be hostile: every message is taken or
counted as bad here, never raised (docs/venue.md). The command line is propctl.venue.view.
"""
import json
import math
import sys
import threading
import time
from typing import Optional

from propctl.termtext import cells, cut

COLUMNS = 80
ROWS = 24
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
        self.back_at: Optional[float] = None  # the last reconnection (monotonic), until tick()
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


