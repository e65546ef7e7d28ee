"""`propctl sim clock`: the ghost-clock firmware on the virtual board, drawn in the terminal.

The real firmware (firmware/lib: props.clock and its drivers) runs inside the
MicroPython unix port on the fake `machine` of propctl/vboard; its JSON-lines
output (events and hand frames, see vboard/run_prop.py) is drawn here as a
clock face with the hand, plus the event log.
"""
import json
import math
import subprocess
import sys

from propctl.overrides import combine
from propctl.sim.runner import (
    VBOARD_DIR,
    InPlace,
    SimError,
    check_settings,
    fields_text,
    load_config,
    parse_sets,
    records,
    runner_env,
    setup,
)

HEAP = "16M"  # the recorder keeps every output change of a round


def add_arguments(parser) -> None:
    """The clock's own options of `propctl sim clock`."""
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds to play; the button is pressed again 2 s after each chime (1)")
    parser.add_argument("--frame-ms", type=int, default=100, help="board ms between hand frames (100)")


def runner_command(args, micropython: str) -> list:
    """The micropython command line that runs the prop on the virtual board."""
    command = [micropython, "-X", "heapsize=" + HEAP, str(VBOARD_DIR / "run_prop.py"), "clock",
               "--speed", str(args.speed), "--frame-ms", str(args.frame_ms),
               "--rounds", str(args.rounds)]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    overrides = combine(load_config(args.config), parse_sets(args.set))
    if overrides:
        command += ["--overrides", json.dumps(overrides)]
    return command


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


def describe(record: dict) -> str:
    """One event as a log line."""
    name = record.get("event", "?")
    t = record.get("t", 0) / 1000
    if name == "start":
        text = "start   round %d, seed %s, %d segments, %.1f s" % (
            record["round"], record["seed"], record["segments"], record["duration_ms"] / 1000)
    elif name == "reverse":
        text = "reverse now turning %s" % ("clockwise" if record["direction"] > 0 else "anticlockwise")
    elif name == "stop":
        text = "stop    after %.2f s (planned %.2f s%s)" % (
            record["at_ms"] / 1000, record["planned_ms"] / 1000, ", capped" if record["capped"] else "")
    elif name == "chime":
        text = "chime   the %s bell rings: round over" % record["kind"]
    elif name == "button":
        text = "button  %s" % record["kind"]
    elif name == "idle":
        text = "idle    %d round(s) played" % record["completed"]
    elif name == "battery_low":
        text = "battery low: %d mV, needs %d mV" % (record["mv"], record["min_mv"])
    else:
        text = "%-7s %s" % (name, fields_text(record))
    return "%7.2f s  %s" % (t, text)


class Screen:
    """The face, a status line and the latest events, redrawn in place."""

    def __init__(self, out) -> None:
        self.block = InPlace(out)
        self.events: list = []
        self.frame: dict = {"angle_mdeg": 0, "state": "idle", "direction": 0, "left_ms": 0, "round": 0,
                            "t": 0}

    def event(self, line: str) -> None:
        self.events.append(line)
        self.draw()

    def update(self, frame: dict) -> None:
        self.frame = frame
        self.draw()

    def draw(self) -> None:
        f = self.frame
        turning = {1: "turning clockwise", -1: "turning anticlockwise"}.get(f["direction"], "standing")
        lines = clock_face(f["angle_mdeg"] / 1000)
        lines.append("")
        lines.append("  %-9s round %d   %s   time left %4.1f s   board time %6.2f s" % (
            f["state"], f["round"], turning, f["left_ms"] / 1000, f["t"] / 1000))
        lines.append("")
        lines += (self.events[-8:] + [""] * 8)[:8]
        self.block.show(lines)


def info_lines(record: dict, args) -> list:
    """The runner's info record as the run's heading and its config messages."""
    lines = ["ghost clock on a virtual %s board: %s motor%s, %s chime (seed %s, speed %s)" % (
        record["board"], record["motor"],
        " (%s)" % record["bridge"] if record["motor"] == "dc" else "", record["chime"],
        "random" if args.seed is None else args.seed,
        "as fast as possible" if args.speed == 0 else "x%d" % args.speed)]
    return lines + ["config: %s" % message for message in record.get("errors", [])]


def run(args) -> int:
    """`propctl sim clock`: one or more rounds; 0 when every round ended with the chime."""
    try:
        micropython, firmware_lib = setup(args.firmware, "clock")
        check_settings(parse_sets(args.set), load_config(args.config), micropython, firmware_lib)
    except SimError as exc:
        print("propctl sim clock: %s" % exc, file=sys.stderr)
        return exc.code
    interactive = args.interactive
    if args.speed is None:
        args.speed = 1 if interactive else 0
    proc = subprocess.Popen(runner_command(args, micropython), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
    screen = Screen(sys.stdout) if interactive else None
    end = None
    error = None
    last_frame = None
    if screen:
        sys.stdout.write("\x1b[?25l")  # hide the cursor while the face is redrawn
    try:
        assert proc.stdout is not None
        for record in records(proc.stdout, lambda line: print(line, file=sys.stderr)):
            kind = record.get("type")
            if kind == "info":
                print("\n".join(info_lines(record, args)), flush=True)
            elif kind == "event":
                line = describe(record)
                if screen:
                    screen.event(line)
                else:
                    print(line, flush=True)
            elif kind == "frame":
                last_frame = record
                if screen:
                    screen.update(record)
            elif kind == "end":
                end = record
            elif kind == "error":
                error = record["error"]
        code = proc.wait()
    finally:
        if screen:
            sys.stdout.write("\x1b[?25h")
            sys.stdout.flush()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    if error or end is None:
        print("propctl sim clock: the virtual board failed: %s"
              % (error or stderr.strip() or "no end report"), file=sys.stderr)
        return 1
    angle = (last_frame["angle_mdeg"] / 1000) if last_frame else None
    print("done: %d round(s) at board time %.2f s%s; motor %s; %d forbidden bridge states, "
          "%d reversals without the dwell" % (
              end["completed"], end["t"] / 1000,
              "" if angle is None else ", hand at %.1f deg" % (angle % 360),
              "still energised!" if end["energised"] else "released",
              end["forbidden"], end["quick_reversals"]), flush=True)
    return 0 if code == 0 and end["completed"] >= args.rounds else 1
