"""`propctl sim clock`: the ghost-clock firmware on the virtual board, drawn in the terminal.

The real firmware (firmware/lib: props.clock and its drivers) runs inside the
MicroPython unix port on the fake `machine` of propctl/vboard; its JSON-lines
output (events and hand frames, see vboard/run_prop.py) is drawn here as a
clock face with the hand, plus the event log.
"""
import argparse
import math
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

from propctl import sound
from propctl.build import FIRMWARE_DIR
from propctl.describe import describe_event
from propctl.keys import KeyDecoder
from propctl.overrides import combine, parse_sets
from propctl.sim.runner import (
    VBOARD_DIR,
    Run,
    SimError,
    check_settings,
    load_config,
    overrides_args,
    records,
    runner_env,
    setup,
)
from propctl.termtext import cut, terminal_size, wrap

HEAP = "16M"  # the recorder keeps every output change of a round


def add_arguments(parser) -> None:
    """The clock's own options of `propctl sim clock`."""
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds to play; the button is pressed again 2 s after each chime (1)")
    parser.add_argument("--frame-ms", type=int, default=100, help="board ms between hand frames (100)")
    parser.add_argument("--show-plan", action="store_true",
                        help="show the round's remaining time (hidden: at a table it would spoil the game)")
    parser.add_argument("--mute", action="store_true", help="no sound (default: the piezo's tones are played "
                        "through aplay/paplay/afplay/ffplay, else the terminal bell)")
    parser.add_argument("--wav", metavar="FILE", help="write the piezo's tones of the run to a WAV file")
    parser.add_argument("--picture", metavar="FILE",
                        help="write an SVG of the round just played: speed and hand angle over time")


def runner_command(args, micropython: str, overrides: dict, folder: Path) -> list:
    """The micropython command line that runs the prop on the virtual board with the settings
    `overrides` (--config with every --set laid over it; written to a file in `folder`)."""
    command = [micropython, "-X", "heapsize=" + HEAP, str(VBOARD_DIR / "run_prop.py"), "clock",
               "--speed", str(args.speed), "--frame-ms", str(args.frame_ms),
               "--rounds", str(args.rounds)]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    return command + overrides_args(overrides, folder)


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


def info_lines(record: dict, args) -> list:
    """The runner's info record as the run's heading and its config messages."""
    lines = ["ghost clock on a virtual %s board: %s motor%s, %s chime (seed %s, speed %s)" % (
        record["board"], record["motor"],
        " (%s)" % record["bridge"] if record["motor"] == "dc" else "", record["chime"],
        "random" if args.seed is None else args.seed,
        "as fast as possible" if args.speed == 0 else "x%d" % args.speed)]
    return lines + ["config: %s" % message for message in record.get("errors", [])]


class KeyReader(threading.Thread):
    """Keys from the terminal (cbreak mode) to the runner's stdin lines (run_prop.py --keys).

    A terminal reports key presses, not releases: a held space repeats, so the first space is
    "down", its repeats "hold", and "up" follows when they stop."""

    FIRST_REPEAT_S = 0.7   # longer than any terminal's delay before a key repeats
    NEXT_REPEAT_S = 0.2    # longer than its repeat interval

    def __init__(self, send, speed: int, on_speed) -> None:
        super().__init__(daemon=True)
        self.send = send
        self.speed = max(1, speed)
        self.on_speed = on_speed
        self.stopped = threading.Event()

    def run(self) -> None:
        fd = sys.stdin.fileno()
        decoder = KeyDecoder()  # escape sequences and bytes that are not UTF-8 press nothing
        last_space = None
        repeating = False
        while not self.stopped.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            now = time.monotonic()
            if not ready:
                decoder.flush(now)
                if last_space is not None and now - last_space > (
                        self.NEXT_REPEAT_S if repeating else self.FIRST_REPEAT_S):
                    self.send("up")
                    last_space, repeating = None, False
                continue
            data = os.read(fd, 64)
            if not data:  # the terminal is gone
                self.send("quit")
                return
            for key in decoder.feed(data, now):
                if key == " ":
                    if last_space is None:
                        self.send("down")
                    else:
                        self.send("hold")
                        repeating = True
                    last_space = now
                elif key in ("+", "=", "-"):
                    self.speed = min(64, self.speed * 2) if key in "+=" else max(1, self.speed // 2)
                    self.send("speed %d" % self.speed)
                    self.on_speed(self.speed)
                elif key in ("q", "Q", "\x03", "\x04"):  # Ctrl-C is a key here (Run.cbreak)
                    self.send("quit")
                    return


def run(args) -> int:
    """`propctl sim clock`: one or more rounds; 0 when every round ended with the chime
    (with keys: 0 when the player quit)."""
    try:
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), "clock")
        config = load_config(args.config)
        sets = parse_sets(args.set)
        check_settings(sets, config, firmware_lib, args.config)
    except (SimError, ValueError) as exc:  # ValueError: a malformed --set
        print("propctl sim clock: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 2)
    interactive = args.interactive
    if args.speed is None:
        args.speed = 1 if interactive else 0
    keys = interactive and sys.stdin.isatty() and args.speed > 0
    screen = None
    end = None
    error = None
    frames: list = []
    events: list = []
    with Run() as run:
        command = (runner_command(args, micropython, combine(config, sets), run.folder)
                   + (["--keys", "1"] if keys else []))
        proc = run.proc = subprocess.Popen(command, stdin=subprocess.PIPE if keys else subprocess.DEVNULL,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           env=runner_env(firmware_lib), text=True)
        # the event log (no terminal, CI) plays nothing: a bell there would land in the log
        sound = run.sound = Sound(argparse.Namespace(mute=args.mute or not interactive, wav=args.wav),
                                  bell=lambda: (sys.stdout.write("\a"), sys.stdout.flush()),
                                  lead_ms=args.frame_ms // max(1, args.speed) + 50)
        if keys:
            run.cbreak()

            def send(line):
                assert proc.stdin is not None
                try:
                    proc.stdin.write(line + "\n")
                    proc.stdin.flush()
                except (BrokenPipeError, ValueError):
                    pass

            def new_speed(speed):
                if screen:
                    screen.speed = speed
            reader = KeyReader(send, args.speed, new_speed)
            run.first.append(reader.stopped.set)
            reader.start()
        assert proc.stdout is not None
        for record in records(proc.stdout, lambda line: print(line, file=sys.stderr)):
            kind = record.get("type")
            if kind == "info":
                if interactive:
                    heading = "ghost clock, virtual %s: %s motor, %s chime" % (
                        record["board"], record["motor"], record["chime"])
                    for message in record.get("errors", []):
                        heading += "  config: %s" % message
                    screen = run.screen = Screen(sys.stdout, heading, args.show_plan)
                    screen.speed = args.speed
                    if not keys:
                        screen.note = "the start button is pressed for you (no keyboard here)"
                    screen.draw()
                else:
                    print("\n".join(info_lines(record, args)), flush=True)
            elif kind == "event":
                events.append(record)
                line = describe(record, args.show_plan or not interactive)
                if screen:
                    screen.event(line)
                else:
                    print(line, flush=True)
            elif kind == "frame":
                frames.append(record)
                if screen:
                    screen.update(record)
                sound.at(record["t"])
            elif kind == "pwm":
                sound.change(record)
            elif kind == "end":
                end = record
            elif kind == "error":
                error = record["error"]
        code = proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    if error or end is None:
        print("propctl sim clock: the virtual board failed: %s"
              % (error or stderr.strip() or "no end report"), file=sys.stderr)
        return 1
    if args.picture:
        from propctl.plan import round_svg
        Path(args.picture).write_text(round_svg(frames, events), encoding="utf-8")
        print("picture of the round: %s" % args.picture)
    last_frame = frames[-1] if frames else None
    angle = (last_frame["angle_mdeg"] / 1000) if last_frame else None
    print("done: %d round(s) at board time %.2f s%s; motor %s;\n      %d forbidden bridge states, "
          "%d reversals without the dwell" % (
              end["completed"], end["t"] / 1000,
              "" if angle is None else ", hand at %.1f deg" % (angle % 360),
              "still energised!" if end["energised"] else "released",
              end["forbidden"], end["quick_reversals"]), flush=True)
    if keys:
        return 0 if code == 0 else 1
    return 0 if code == 0 and end["completed"] >= args.rounds else 1


class Sound(sound.Piezo):
    """The clock's piezo (propctl.sound.Piezo): each melody heard from its first note, unless
    --mute; all of them written to --wav FILE at the end. 500 ms of silence end a melody."""

    PAUSE_MS = 500  # longer than any rest inside a melody

    def __init__(self, args, bell, lead_ms: int = 150) -> None:
        super().__init__(args.mute, args.wav, bell, self.PAUSE_MS, lead_ms)
