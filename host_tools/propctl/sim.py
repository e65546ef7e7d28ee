"""`propctl sim clock`: the ghost-clock firmware on the virtual board, drawn in the terminal.

The real firmware (firmware/lib: props.clock and its drivers) runs inside the
MicroPython unix port on the fake `machine` of propctl/vboard; its JSON-lines
output (events and hand frames, see vboard/run_prop.py) is drawn here as a
clock face with the hand, plus the event log. `--serve` instead offers the
virtual board on a serial port (propctl.serve).
"""
import argparse
import importlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

from propctl.build import PROPS
from propctl.overrides import combine, parse_sets

VBOARD_DIR = Path(__file__).resolve().parent / "vboard"
REPO_FIRMWARE_LIB = Path(__file__).resolve().parents[2] / "firmware" / "lib"
HEAP = "16M"  # the recorder keeps every output change of a round


def find_micropython() -> str:
    """$MICROPYTHON, else `micropython` next to this Python, else on PATH."""
    import shutil
    explicit = os.environ.get("MICROPYTHON")
    if explicit:
        return explicit
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if found:
        return found
    raise FileNotFoundError("no MicroPython unix port found: run `make setup`, or set MICROPYTHON=/path")


def runner_command(args, micropython: str) -> list:
    """The micropython command line that runs the prop on the virtual board."""
    command = [micropython, "-X", "heapsize=" + HEAP, str(VBOARD_DIR / "run_prop.py"), args.prop,
               "--speed", str(args.speed), "--frame-ms", str(args.frame_ms),
               "--rounds", str(args.rounds)]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    overrides = json.loads(Path(args.config).read_text(encoding="utf-8")) if args.config else {}
    overrides = combine(overrides, parse_sets(args.set))
    if overrides:
        command += ["--overrides", json.dumps(overrides)]
    return command


def runner_env(firmware_lib: Path) -> dict:
    """MICROPYPATH: the fake machine first (it must shadow the built-in), then the firmware."""
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(VBOARD_DIR), str(firmware_lib), ".frozen"])
    return env


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
        rest = {k: v for k, v in record.items() if k not in ("type", "event", "t")}
        text = "%-7s %s" % (name, json.dumps(rest, sort_keys=True))
    return "%7.2f s  %s" % (t, text)


class Screen:
    """Redraws face, status and the latest events in place with ANSI codes."""

    def __init__(self, out) -> None:
        self.out = out
        self.events: list = []
        self.drawn = 0
        self.frame = {"angle_mdeg": 0, "state": "idle", "direction": 0, "left_ms": 0, "round": 0, "t": 0}

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
        text = ""
        if self.drawn:
            text += "\x1b[%dA" % self.drawn
        text += "".join("\r\x1b[2K" + line + "\n" for line in lines)
        self.out.write(text)
        self.out.flush()
        self.drawn = len(lines)


def interactive_default() -> bool:
    """Draw in place only for a person at a terminal (not in CI, not with redirected input)."""
    if os.environ.get("CI"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(args) -> int:
    if args.serve:
        # imported here: propctl.serve itself imports this module
        return importlib.import_module("propctl.serve").main(args)
    if args.prop is None:
        print("propctl sim: name a prop to simulate (clock, fusebox, football), or use --serve",
              file=sys.stderr)
        return 2
    if args.prop == "football":
        return importlib.import_module("propctl.sim_football").run(args)
    if args.prop == "fusebox":
        return importlib.import_module("propctl.sim_fusebox").run(args)
    interactive = interactive_default() if args.non_interactive is None else not args.non_interactive
    if args.speed is None:
        args.speed = 1 if interactive else 0
    firmware_lib = Path(args.firmware) if args.firmware else REPO_FIRMWARE_LIB
    if not (firmware_lib / "props" / "clock.py").exists():
        print("propctl sim: no firmware at %s; run from a clone of the project or pass --firmware DIR"
              % firmware_lib, file=sys.stderr)
        return 1
    try:
        micropython = find_micropython()
    except FileNotFoundError as exc:
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 1
    try:
        command = runner_command(args, micropython)
    except (ValueError, OSError) as exc:  # a malformed --set, an unreadable or broken --config
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 2
    proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
    screen = Screen(sys.stdout) if interactive else None
    result = {"end": None, "error": None}
    if screen:
        sys.stdout.write("\x1b[?25l")  # hide the cursor while the face is redrawn
    try:
        for raw in proc.stdout:
            try:
                record = json.loads(raw)
            except ValueError:
                print(raw.rstrip(), file=sys.stderr)
                continue
            kind = record.get("type")
            if kind == "info":
                print("ghost clock on a virtual %s board: %s motor%s, %s chime (seed %s, speed %s)" % (
                    record["board"], record["motor"],
                    " (%s)" % record["bridge"] if record["motor"] == "dc" else "", record["chime"],
                    "random" if args.seed is None else args.seed,
                    "as fast as possible" if args.speed == 0 else "x%d" % args.speed), flush=True)
                for message in record.get("errors", []):
                    print("config: %s" % message, flush=True)
            elif kind == "event":
                line = describe(record)
                if screen:
                    screen.event(line)
                else:
                    print(line, flush=True)
            elif kind == "frame":
                result["last_frame"] = record
                if screen:
                    screen.update(record)
            elif kind == "end":
                result["end"] = record
            elif kind == "error":
                result["error"] = record["error"]
        code = proc.wait()
    finally:
        if screen:
            sys.stdout.write("\x1b[?25h")
            sys.stdout.flush()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    end = result["end"]
    if result["error"] or end is None:
        print("propctl sim: the virtual board failed: %s" % (result["error"] or stderr.strip()
                                                             or "no end report"), file=sys.stderr)
        return 1
    frame = result.get("last_frame")
    angle = (frame["angle_mdeg"] / 1000) if frame else None
    print("done: %d round(s) at board time %.2f s%s; motor %s; %d forbidden bridge states, "
          "%d reversals without the dwell" % (
              end["completed"], end["t"] / 1000,
              "" if angle is None else ", hand at %.1f deg" % (angle % 360),
              "still energised!" if end["energised"] else "released",
              end["forbidden"], end["quick_reversals"]), flush=True)
    return 0 if code == 0 and end["completed"] >= args.rounds else 1


def register(subparsers) -> None:
    """Add `propctl sim`."""
    parser = subparsers.add_parser(
        "sim", help="run a prop's firmware on the virtual board (no hardware needed)",
        description="Run the real prop firmware under the MicroPython unix port on a virtual board "
                    "(fake `machine`, motor and hand physics) and draw it in the terminal. "
                    "The start button is pressed for you; the run ends after the chime.",
        epilog="Examples:  propctl sim clock            watch one round in real time\n"
               "           propctl sim clock --speed 5  five times faster\n"
               "           propctl sim clock --seed 42 --non-interactive   the event log only (CI)\n"
               "           propctl sim clock --set clock.motor=stepper      the stepper variant",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prop", nargs="?", choices=list(PROPS),
                        help="the prop to run (clock; fusebox: keys 1-8 open windows, see sim_fusebox; "
                             "football: a demo game, football.KEY=VALUE settings)")
    parser.add_argument("--seed", type=int, help="seed for the round's motion plan (default: random)")
    parser.add_argument("--speed", type=int,
                        help="N times faster than real time; 0 = as fast as possible "
                             "(default: 1 at a terminal, 0 in non-interactive mode)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--non-interactive", dest="non_interactive", action="store_true", default=None,
                      help="print the event log only and exit 0 after the chime "
                           "(default when input is not a terminal or CI is set)")
    mode.add_argument("--interactive", dest="non_interactive", action="store_false",
                      help="draw the clock face even if not at a terminal")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds to play; the button is pressed again 2 s after each chime (1)")
    parser.add_argument("--frame-ms", type=int, default=100, help="board ms between hand frames (100)")
    parser.add_argument("--config", help="a config.json for the virtual board")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="one setting, e.g. clock.motor=stepper, clock.bridge=tb6612, board=esp32")
    parser.add_argument("--firmware", help="firmware/lib folder (default: the one in this clone)")
    parser.add_argument("--serve", action="store_true",
                        help="serve the virtual board on a pseudo-terminal for deploy and monitor")
    importlib.import_module("propctl.sim_fusebox").add_arguments(parser)
    importlib.import_module("propctl.serve").add_arguments(parser)
    parser.set_defaults(func=run)
