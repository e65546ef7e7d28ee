"""`propctl sim football`: a demo game on the virtual Finger Football box, drawn in the terminal.

The real firmware (props.football with its drivers) runs inside the MicroPython
unix port on the virtual board (vboard/run_football.py); two simulated players
press its buttons. What the fake OLED shows (read off its pixels) is drawn
here with the players' presses and the box's events. Board time is paced to
real time times --speed at a terminal; without one, the log is printed at once.
"""
import json
import subprocess
import sys
import time

from propctl.build import FIRMWARE_DIR
from propctl.overrides import parse_sets
from propctl.sim.runner import (
    VBOARD_DIR,
    InPlace,
    SimError,
    check_settings,
    fields_text,
    records,
    runner_env,
    setup,
)

HEAP = "16M"
DEFAULT_NAMES = ("Home", "Away")  # the runner's info line names the teams


def runner_command(args, micropython: str) -> list:
    """The micropython command line that plays the demo game."""
    command = [micropython, "-X", "heapsize=" + HEAP, str(VBOARD_DIR / "run_football.py"),
               "--seed", str(args.seed if args.seed is not None else int(time.time()) % 100000)]
    overrides = parse_sets(args.set)
    if overrides:
        command += ["--overrides", json.dumps(overrides)]
    return command


def score_text(record: dict, names) -> str:
    """A score event as a sentence: who scored how much, and the score after it."""
    team = record["team"]
    return "%s +%d: %s %d, %s %d" % (names[team], record["points"], names[0], record["score"][0],
                                      names[1], record["score"][1])


def quarter_text(record: dict, names) -> str:
    """A quarter event: the next quarter, or the final whistle and the winner."""
    if record["over"]:
        winner = record.get("winner")
        return "over: the final whistle, %s" % ("%s wins" % names[winner] if winner is not None else "a tie")
    return "%d begins" % record["quarter"]


def describe(record: dict, names=DEFAULT_NAMES) -> str:
    """One event or player line for the log, or "" for events not worth a line."""
    t = record.get("t", 0) / 1000
    if record.get("type") == "player":
        return "%7.2f s  %s" % (t, record["text"])
    name = record.get("event")
    if name == "roll":
        text = "dice    %s / %s" % (record["zone"], record["lane"])
    elif name == "toss":
        text = "coin    %s wins the toss" % record["name"]
    elif name == "kick_count":
        words = {"go": "GO", "beep": "one thousand " + ("one", "two")[record["beat"] == 2],
                 "end": "one thousand three: over"}
        text = "count   %s (%d ms)" % (words[record["step"]], record["at_ms"])
    elif name == "kick_result":
        text = "kick    %s %s%s" % (record["kind"].replace("_", " "), "GOOD" if record["good"] else "no good",
                                    " (too late)" if record["late"] else "")
    elif name == "play":
        text = "referee %s" % record["message"]
    elif name == "refused":
        text = "refused %s: %s" % (record["button"], record["error"])
    elif name == "score":
        text = "score   %s" % score_text(record, names)
    elif name == "quarter":
        text = "quarter %s" % quarter_text(record, names)
    elif name == "fault":
        text = "FAULT   %s" % fields_text(record)
    else:
        return ""  # button, possession: the screen shows them
    return "%7.2f s  %s" % (t, text)


def oled_box(lines: list, rows: int) -> list:
    """The OLED text framed like a panel, 16 characters wide."""
    shown = (list(lines) + [""] * rows)[:rows]
    out = ["+" + "-" * 18 + "+"]
    out += ["| %-16s |" % line for line in shown]
    out.append("+" + "-" * 18 + "+")
    return out


class Screen:
    """The panel and the latest log lines, redrawn in place."""

    def __init__(self, out, rows: int) -> None:
        self.block = InPlace(out)
        self.rows = rows
        self.lines: list = []
        self.log: list = []

    def draw(self) -> None:
        self.block.show(oled_box(self.lines, self.rows) + [""] + (self.log[-10:] + [""] * 10)[:10])


def run(args) -> int:
    """Play and draw one demo game; 0 when the game reached its final whistle."""
    try:
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), "football")
        check_settings(parse_sets(args.set), {}, micropython, firmware_lib)
    except (SimError, ValueError) as exc:  # ValueError: a malformed --set
        print("propctl sim football: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 2)
    interactive = args.interactive
    speed = args.speed if args.speed is not None else (1 if interactive else 0)
    proc = subprocess.Popen(runner_command(args, micropython), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
    screen = None
    end = None
    names = DEFAULT_NAMES
    started = time.monotonic()
    try:
        assert proc.stdout is not None
        for record in records(proc.stdout, lambda line: print(line, file=sys.stderr)):
            kind = record.get("type")
            if speed > 0 and "t" in record:
                wait = started + record["t"] / 1000 / speed - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            if kind == "info":
                names = record.get("names", names)
                pace = "as fast as possible" if speed == 0 else "x%d" % speed
                print("Finger Football box on a virtual board (seed %s, %s display, speed %s)" % (
                    record["seed"], record["display"], pace), flush=True)
                for message in record["errors"]:
                    print("config: %s" % message, flush=True)
                if interactive:
                    screen = Screen(sys.stdout, max(record["rows"], 4))
            elif kind == "screen":
                if screen:
                    screen.lines = record["lines"]
                    screen.draw()
                else:
                    print("%7.2f s  [%s]" % (record["t"] / 1000, " | ".join(record["lines"])), flush=True)
            elif kind in ("player", "event"):
                line = describe(record, names)
                if not line:
                    continue
                if screen:
                    screen.log.append(line)
                    screen.draw()
                else:
                    print(line, flush=True)
            elif kind == "end":
                end = record
        code = proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if end is None:
        stderr = proc.stderr.read() if proc.stderr else ""
        print("propctl sim football: the virtual box failed: %s" % (stderr.strip() or "no end report"),
              file=sys.stderr)
        return 1
    names = end["names"]
    score = end["score"]
    print("done: %s %d, %s %d after %.1f s of board time (%d player actions); the box shows %r" % (
        names[0], score[0], names[1], score[1], end["t"] / 1000, end["steps"], end["lines"][0]), flush=True)
    return 0 if code == 0 and end["phase"] == "over" else 1
