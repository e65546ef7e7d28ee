"""The ghost clock's sim on a terminal: the face drawn as text, the event log beside it, the events
as log lines (see propctl.props.clock.sim, which runs the firmware and feeds these)."""
import math
from typing import Optional

from propctl.describe import describe_event
from propctl.termsafe import escaped
from propctl.termtext import cut, terminal_size, wrap

# --- drawing ---------------------------------------------------------------

def clock_face(angle_deg: float, radius: int = 7) -> list:
    """Lines of a clock face with the hand at angle_deg (0 = twelve o'clock, clockwise)."""
    width = radius * 4 + 5
    height = radius * 2 + 3
    cx, cy = width // 2, height // 2
    grid = [[" "] * width for _ in range(height)]

    def put(x, y, ch):
        if 0 <= y < height and 0 <= x < width:
            grid[y][x] = ch

    # rim: terminal cells are about twice as tall as wide, so x is stretched
    for step in range(120):
        a = step * math.pi / 60
        put(round(cx + 2 * (radius + 1) * math.sin(a)), round(cy - (radius + 1) * math.cos(a)), ".")
    for hour in range(1, 13):
        a = hour * math.pi / 6
        label = str(hour)
        x = round(cx + 2 * radius * math.sin(a)) - (len(label) - 1) // 2
        y = round(cy - radius * math.cos(a))
        for i, ch in enumerate(label):
            put(x + i, y, ch)
    a = math.radians(angle_deg)
    sx, sy = math.sin(a), -math.cos(a)
    # the character that best follows the hand's slope on screen
    slope = math.degrees(math.atan2(-sy, 2 * sx)) % 180
    ch = "-" if slope < 22.5 or slope >= 157.5 else "/" if slope < 67.5 else "|" if slope < 112.5 else "\\"
    r = 1.0
    while r < radius - 1.2:
        put(round(cx + 2 * r * sx), round(cy + r * sy), ch)
        r += 0.25
    put(round(cx + 2 * (radius - 1) * sx), round(cy + (radius - 1) * sy), "@")
    put(cx, cy, "O")
    return ["".join(row).rstrip() for row in grid]


@escaped
def describe(record: dict, show_plan: bool = True) -> str:
    """One event as a log line: board time, the event, and the sentence `propctl monitor` prints
    for it (propctl.describe); without show_plan the round's length stays secret."""
    name = record.get("event", "?")
    hidden: tuple = ("type", "event", "t") if show_plan else ("type", "event", "t", "segments", "duration_ms")
    if name == "reverse":
        hidden += ("at_ms",)  # the time into the round: a second clock on a line that has one
    fields = {key: value for key, value in record.items() if key not in hidden}
    return "%7.2f s  %-7s %s" % (record.get("t", 0) / 1000, str(name).replace("_", " "),
                                 describe_event("clock", name, fields))


SIDE_LOG = 46  # columns the log takes beside the face (most events fit in one line)


def face_radius(rows: int, cols: int) -> int:
    """The largest face that fits `rows` lines and `cols` columns (at least 2, at most 10)."""
    radius = min((rows - 3) // 2, (cols - 5) // 4)
    return max(2, min(radius, 10))


class Screen:
    """The face, a status line and the latest events, drawn from the top of the terminal in place:
    never taller or wider than the terminal (measured at every draw: a resized terminal is drawn
    anew), so nothing scrolls. Where there is room the log stands beside the face."""

    def __init__(self, out, heading: str, show_plan: bool, size=terminal_size) -> None:
        self.out = out
        self.heading = heading
        self.show_plan = show_plan
        self.speed = 1
        self.size = size
        self.drawn_size: Optional[tuple] = None
        self.events: list = []
        self.frame: dict = {"angle_mdeg": 0, "state": "idle", "direction": 0, "left_ms": 0, "round": 0,
                            "t": 0}
        self.note = "space: start button (hold: emergency stop)   +/-: speed   q: quit"
        out.write("\x1b[2J\x1b[?25l")  # clear once; hide the cursor while the face is redrawn

    def event(self, line: str) -> None:
        self.events.append(line)
        del self.events[:-200]
        self.draw()

    def update(self, frame: dict) -> None:
        self.frame = frame
        self.draw()

    def lines(self, cols: int, rows: int) -> list:
        width = max(1, cols - 1)  # the last column stays empty: some terminals wrap there
        f = self.frame
        turning = {1: "turning clockwise", -1: "turning anticlockwise"}.get(f["direction"], "standing")
        left = "   time left %4.1f s" % (f["left_ms"] / 1000) if self.show_plan else ""
        status = wrap("  %s, round %d, %s%s   board time %.1f s   speed x%d" % (
            f["state"], f["round"], turning, left, f["t"] / 1000, self.speed), width, "    ")
        status += wrap("  " + self.note, width, "    ")
        usable = rows - 1  # the last row stays empty: writing there could scroll
        top = [cut(self.heading, width)]
        room = usable - 1 - len(status)  # rows for the face (and the log, below or beside it)
        radius = min(face_radius(room, width), (width - 2 - SIDE_LOG - 5) // 4)
        beside = radius >= 5  # a face this big with the log beside it, else the log goes below
        if not beside:
            radius = face_radius(room - 3, width)  # at least 3 lines of log below
        face = clock_face(f["angle_mdeg"] / 1000, radius)
        if beside:
            column = face_width(radius) + 2
            log = self.log_lines(width - column, len(face))
            log = [""] * (len(face) - len(log)) + log
            body = [(line.ljust(column) + entry).rstrip() for line, entry in zip(face, log)]
            lines = top + body + status
        else:
            lines = top + face + status
            room = usable - len(lines)
            lines += self.log_lines(width, room)
        lines = lines[:usable]
        return [cut(line, width) for line in lines] + [""] * (usable - len(lines))

    def log_lines(self, width: int, room: int) -> list:
        """The latest events that fit in `room` lines of `width`, a long one wrapped under its text."""
        out: list = []
        for entry in reversed(self.events):
            pieces = wrap(entry, width, " " * min(LOG_INDENT, width // 3))
            if len(out) + len(pieces) > room:
                if not out:
                    out = pieces[-room:] if room > 0 else []
                break
            out[:0] = pieces
        return out

    def draw(self) -> None:
        size = self.size()
        cols, rows = size.columns, size.lines
        if (cols, rows) != self.drawn_size:  # a new size: what was drawn may lie outside the new layout
            self.drawn_size = (cols, rows)
            self.out.write("\x1b[2J")
        self.out.write("\x1b[H" + "\r\n".join(line + "\x1b[K" for line in self.lines(cols, rows)))
        self.out.flush()

    def close(self) -> None:
        self.out.write("\x1b[?25h\r\n")
        self.out.flush()


def face_width(radius: int) -> int:
    """The columns clock_face(angle, radius) takes."""
    return radius * 4 + 5


LOG_INDENT = len("%7.2f s  " % 0)  # a wrapped event goes on after the time column (describe)
