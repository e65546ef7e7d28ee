"""`propctl sim clock`: the ghost-clock firmware on the virtual board, drawn in the terminal.

The real firmware (firmware/lib: props.clock and its drivers) runs inside the
MicroPython unix port on the fake `machine` of propctl/vboard; its JSON-lines
output (events and hand frames, see vboard/vprops/clock/run.py) is drawn as a clock
face with the hand, plus the event log (propctl.props.clock.screen draws them).
"""
import argparse
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

from propctl import props, sound
from propctl.argtypes import Whole
from propctl.build import FIRMWARE_DIR
from propctl.keys import KeyDecoder
from propctl.overrides import combine, parse_sets
from propctl.props.clock.screen import Screen, describe
from propctl.sim.outputs import check_outputs
from propctl.sim.runner import (
    Run,
    SimError,
    check_settings,
    load_config,
    overrides_args,
    records,
    runner_env,
    setup,
)
from propctl.termsafe import printable
from propctl.termtext import wrap

HEAP = "16M"  # the recorder keeps every output change of a round
LOG_WIDTH = 80  # the --non-interactive log fits an 80-column terminal
EVENT_INDENT = " " * 19  # an event's later lines start under its text ("   0.32 s  start   ")


def log_lines(text: str, indent: str = EVENT_INDENT) -> list:
    """One line of the log (an event by default) wrapped to LOG_WIDTH, later lines at `indent`."""
    out: list = []
    for line in text.split("\n"):
        out.extend(wrap(line, LOG_WIDTH, indent))
    return out

# `propctl sim clock` in the sim's parser (propctl.sim.command)
SUMMARY = "the ghost clock: one round, drawn as a clock face"
DESCRIPTION = ("The ghost-clock firmware on the virtual board. The start button is pressed for you; "
               "the run ends after the chime.")
EPILOG = ("examples:\n"
          "  propctl sim clock                  one round in real time\n"
          "  propctl sim clock --speed 5        five times faster\n"
          "  propctl sim clock --seed 42 --non-interactive   the event log only\n"
          "  propctl sim clock --set clock.motor=stepper     the stepper variant\n"
          "  propctl sim clock --picture round.svg   and an SVG plot of the round")
COMMON = {"seed_help": "seed for the round's motion plan (default: random)", "speed": True}


def add_arguments(parser) -> None:
    """The clock's own options of `propctl sim clock`."""
    parser.add_argument("--rounds", type=Whole(1, 1000), default=1,
                        help="rounds to play, 1..1000; the button is pressed again 2 s after each "
                             "chime (1)")
    parser.add_argument("--frame-ms", type=Whole(10, 1000), default=100,
                        help="board ms between hand frames, 10..1000 (100)")
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
    command = [micropython, "-X", "heapsize=" + HEAP, str(props.runner("clock")),
               "--speed", str(args.speed), "--frame-ms", str(args.frame_ms),
               "--rounds", str(args.rounds)]
    if args.seed is not None:  # --seed N is --set clock.seed=N: it travels as a setting
        overrides = combine(overrides, {"clock": {"seed": args.seed}})
    return command + overrides_args(overrides, folder)


def info_lines(record: dict, args) -> list:
    """The runner's info record as the run's heading and its config messages, each wrapped to
    LOG_WIDTH with its later lines indented."""
    heading = ("ghost clock on a virtual %s board: %s motor%s, %s chime (seed %s, speed %s)" % (
        record["board"], record["motor"],
        " (%s)" % record["bridge"] if record["motor"] == "dc" else "", record["chime"],
        "random" if args.seed is None else args.seed,
        "as fast as possible" if args.speed == 0 else "x%d" % args.speed))
    lines = log_lines(heading, "  ")
    for message in record.get("errors", []):
        lines += log_lines("config: %s" % message, "  ")
    return lines


class KeyReader(threading.Thread):
    """Keys from the terminal (cbreak mode) to the runner's stdin lines (vprops/clock/run.py --keys).

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
        check_outputs(args, "wav", "picture")
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
    with Run() as run:
        command = (runner_command(args, micropython, combine(config, sets), run.folder)
                   + (["--keys", "1"] if keys else []))
        proc = run.proc = subprocess.Popen(command, stdin=subprocess.PIPE if keys else subprocess.DEVNULL,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           env=runner_env(firmware_lib), text=True)
        # the event log (no terminal, CI) plays nothing: a bell there would land in the log
        run.sound = sound.Sound(argparse.Namespace(mute=args.mute or not interactive, wav=args.wav),
                          bell=lambda: (sys.stdout.write("\a"), sys.stdout.flush()),
                          lead_ms=args.frame_ms // max(1, args.speed) + 50)
        view = RunView(args, run, keys)
        if keys:
            _start_keys(run, proc, args, view)
        assert proc.stdout is not None
        for record in records(proc.stdout, lambda line: print(line, file=sys.stderr)):
            view.take(record)
        code = proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    if run.sound.wav_problem:
        print("propctl sim clock: %s" % run.sound.wav_problem, file=sys.stderr)
        return 1
    if view.error or view.end is None:
        print("propctl sim clock: the virtual board failed: %s"
              % (view.error or stderr.strip() or "no end report"), file=sys.stderr)
        return 1
    if not view.finish():
        return 1
    if keys:
        return 0 if code == 0 else 1
    return 0 if code == 0 and view.end["completed"] >= args.rounds else 1


def _start_keys(run, proc, args, view) -> None:
    """The terminal's keys to the runner's stdin (cbreak mode, a reader thread)."""
    run.cbreak()

    def send(line):
        assert proc.stdin is not None
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def new_speed(speed):
        if view.screen:
            view.screen.speed = speed
    reader = KeyReader(send, args.speed, new_speed)
    run.first.append(reader.stopped.set)
    reader.start()


class RunView:
    """What a run's records become: the face on the screen (or the event log), the sound, the
    summary at the end (see vboard/vprops/clock/run.py for the records)."""

    def __init__(self, args, run, keys: bool) -> None:
        self.args = args
        self.run = run
        self.keys = keys
        self.screen: Optional[Screen] = None  # at a terminal, once the info record came
        self.end: Optional[dict] = None        # the end record
        self.error: Optional[str] = None       # the firmware's error, if it failed
        self.frames: list = []
        self.events: list = []

    def take(self, record) -> None:
        kind = record.get("type")
        if kind == "info":
            self._info(record)
        elif kind == "event":
            self.events.append(record)
            line = describe(record, self.args.show_plan or not self.args.interactive)
            if self.screen:
                self.screen.event(line)
            else:
                print("\n".join(log_lines(line)), flush=True)
        elif kind == "frame":
            self.frames.append(record)
            if self.screen:
                self.screen.update(record)
            self.run.sound.at(record["t"])
        elif kind == "pwm":
            self.run.sound.change(record)
        elif kind == "end":
            self.end = record
        elif kind == "error":
            self.error = record["error"]

    def _info(self, record) -> None:
        args = self.args
        if not args.interactive:
            print("\n".join(info_lines(record, args)), flush=True)
            return
        heading = "ghost clock, virtual %s: %s motor, %s chime" % (
            record["board"], record["motor"], record["chime"])
        for message in record.get("errors", []):
            heading += "  config: %s" % message
        screen = self.screen = self.run.screen = Screen(sys.stdout, heading, args.show_plan)
        screen.speed = args.speed
        if not self.keys:
            screen.note = "the start button is pressed for you (no keyboard here)"
        screen.draw()

    def finish(self) -> bool:
        """The picture (--picture) and the summary line of a run that ended; False when the
        picture could not be written (said on stderr)."""
        end, frames = self.end, self.frames
        assert end is not None
        if self.args.picture:
            from propctl.atomic import write_atomic
            from propctl.props.clock.plan import round_svg
            try:
                write_atomic(self.args.picture, round_svg(frames, self.events).encode("utf-8"))
            except OSError as exc:
                print("propctl sim clock: cannot write the picture %s: %s" % (
                    printable(self.args.picture), exc.strerror or exc), file=sys.stderr)
                return False
            print("picture of the round: %s" % printable(self.args.picture))
        angle = (frames[-1]["angle_mdeg"] / 1000) if frames else None
        print("\n".join(log_lines(
            "done: %d round(s) at board time %.2f s%s; motor %s;\n      %d forbidden bridge states, "
            "%d reversals without the dwell" % (
                end["completed"], end["t"] / 1000,
                "" if angle is None else ", hand at %.1f deg" % (angle % 360),
                "still energised!" if end["energised"] else "released",
                end["forbidden"], end["quick_reversals"]), "      ")), flush=True)
        hum = end.get("hum_ms", 0)
        if hum >= 500:  # more than the ramps' first moments: speeds too slow to start the motor
            print("      the motor hummed %.1f s, not turning: speeds below about 270 per mille\n"
                  "      do not start a geared N20 (clock.limits speed_min)" % (hum / 1000), flush=True)
        return True
