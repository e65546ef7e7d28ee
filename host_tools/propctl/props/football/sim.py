"""`propctl sim football`: the Finger Football box on the virtual board, played at the terminal.

The real firmware (props.football with its drivers) runs inside the MicroPython
unix port on the virtual board (vboard/vprops/football/run.py). At a terminal a
person plays it in real time: the box's buttons are keys, and the reports the
referee's host sends over the link (kick or receive, where a kickoff stopped,
the announced play...) are number keys or a short prompt; the panel shows
what the fake OLED displays, which keys do what now, and the log. The piezo's
tones are played (propctl.sound). Without a terminal, or with --demo, two
simulated players press the buttons instead (a fixed demo game).
"""
import os
import queue
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Optional

from propctl import props
from propctl.build import FIRMWARE_DIR
from propctl.describe import describe_event
from propctl.keys import KeyDecoder
from propctl.overrides import combine, parse_sets
from propctl.props.football.screen import Keys, Screen
from propctl.sim.outputs import check_outputs
from propctl.sim.runner import (
    Run,
    SimError,
    check_settings,
    overrides_args,
    records,
    runner_env,
    setup,
)
from propctl.sound import Sound
from propctl.termsafe import escaped
from propctl.termtext import wrap

HEAP = "16M"
DEFAULT_NAMES = ("Home", "Away")  # the runner's info line names the teams


HELP = """playing at a terminal (board time runs in real time):
  r k g m   the box's buttons ROLL, KICK, GOOD, MISS; keep a key down to
            hold its button (auto-repeat), or type R K G M to hold it for
            the box's long_press_ms: holding ROLL after the final whistle
            starts a new game
  1-9       the reports the referee sends over the link (kick or receive,
            the goal, where a kickoff or punt stopped, the announced play,
            red footballs, flags...): the panel lists the ones the game
            takes now; a yard line is typed, then Enter
  Esc       back out of a prompt          q   quit
""" + ("With --demo, --speed 0 or no terminal, two simulated players play a demo game instead "
       "(the event log only with --non-interactive). --wav FILE writes the piezo's tones of any run.") + """

examples:
  propctl sim football                      play it at the terminal
  propctl sim football --demo --speed 10    watch a demo game, 10 times faster
  propctl sim football --seed 7 --non-interactive   a demo game's event log"""

# `propctl sim football` in the sim's parser (propctl.sim.command)
SUMMARY = "the Finger Football box: play it from the keyboard, or a demo"
DESCRIPTION = ("The Finger Football box firmware on the virtual board. At a terminal you play it:\n"
               "its buttons and the referee's reports are keys. Without one, or with --demo, two "
               "simulated\nplayers play a demo game. The panel shows the box's display and the events.")
EPILOG = HELP
COMMON = {"seed_help": "seed for the box's coin and dice (and the demo players; default: from the clock)",
          "speed": True, "config": False}


def add_arguments(parser) -> None:
    """The football box's own options of `propctl sim football`."""
    parser.add_argument("--demo", action="store_true",
                        help="watch two simulated players instead of playing (the default without a "
                             "terminal)")
    parser.add_argument("--mute", action="store_true", help="no sound (default: the piezo's tones are "
                        "played through aplay/paplay/afplay/ffplay, else the terminal bell)")
    parser.add_argument("--wav", metavar="FILE", help="write the piezo's tones of the run to a WAV file")


def runner_command(args, micropython: str, folder: Path, keys: bool = False) -> list:
    """The micropython command line that runs the box (its --set written to `folder`): a demo
    game, or with `keys` the box in real time for a person (vprops/football/run.py --keys)."""
    command = [micropython, "-X", "heapsize=" + HEAP, str(props.runner("football"))]
    if keys:
        command += ["--keys", "1", "--speed", str(max(1, getattr(args, "speed", None) or 1))]
    # --seed N is --set football.seed=N: it travels as a setting (a fresh one when not given)
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    return command + overrides_args(combine(parse_sets(args.set), {"football": {"seed": seed}}), folder)


# --- words ---------------------------------------------------------------------

@escaped
def describe(record: dict, names=DEFAULT_NAMES) -> str:
    """One event or player line for the log, or "" for events not worth a line; events read by
    propctl.describe (as `propctl monitor` prints them), teams by their names."""
    t = record.get("t", 0) / 1000
    kind = record.get("type")
    if kind == "player":
        return "%7.2f s  %s" % (t, record["text"])
    if kind == "refused":
        return "%7.2f s  refused %s: %s" % (t, record["command"], record["error"])
    name = str(record.get("event"))
    if name in ("button", "possession"):
        return ""  # the screen shows them
    fields = {key: value for key, value in record.items() if key not in ("type", "event", "t")}
    if name in ("score", "quarter"):
        fields["names"] = list(names)  # the board says team 0/1; the host knows their names
    return "%7.2f s  %-7s %s" % (t, name.replace("_", " "), describe_event("football", name, fields))


class Tones(Sound):
    """The piezo's tones (propctl.sound.Sound), each from its start: every tone of the box is
    a melody of its own (no pause needed to end one). Board time moves on at least every 250 ms
    (the runner's time line): a stream starts with 300 ms of silence."""

    PAUSE_MS = 0

    def __init__(self, args, bell) -> None:
        super().__init__(args, bell, lead_ms=300)


def start_reader(stream, speed: int, paced: bool) -> "queue.Queue":
    """A thread that puts the runner's records on a queue (paced to board time for a demo);
    None after the last."""
    lines: queue.Queue = queue.Queue()

    def read():
        started = time.monotonic()
        for record in records(stream, lambda line: lines.put({"type": "junk", "line": line})):
            if paced and speed > 0 and "t" in record:
                wait = started + record["t"] / 1000 / speed - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            lines.put(record)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def run(args) -> int:
    """`propctl sim football`: play the box at a terminal, or a demo game; 0 when a person quit
    or the demo game reached its final whistle."""
    try:
        check_outputs(args, "wav")
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), "football")
        check_settings(parse_sets(args.set), {}, firmware_lib)
    except (SimError, ValueError) as exc:  # ValueError: a malformed --set
        print("propctl sim football: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 2)
    interactive = args.interactive
    speed = args.speed if args.speed is not None else (1 if interactive else 0)
    play = interactive and not getattr(args, "demo", False) and sys.stdin.isatty() and speed > 0
    with Run() as run:
        proc = run.proc = subprocess.Popen(
            runner_command(args, micropython, run.folder, keys=play),
            stdin=subprocess.PIPE if play else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
        # sound: played when a person watches in real time; --wav in any mode
        sound = run.sound = Tones(SimpleNamespace(mute=getattr(args, "mute", False) or not interactive
                                                  or speed == 0, wav=getattr(args, "wav", None)),
                                  bell=lambda: (sys.stdout.write("\a"), sys.stdout.flush()))
        if interactive and sys.stdin.isatty():
            run.cbreak()
        if interactive:
            end = watch(proc, args, speed, play, sound, run)
        else:
            end = print_log(proc, sound)
        code = proc.wait()
    if run.sound.wav_problem:
        print("propctl sim football: %s" % run.sound.wav_problem, file=sys.stderr)
        return 1
    if end is not None and end.get("type") == "quit":
        print("stopped: the demo was quit", flush=True)
        return 0
    if end is None or end.get("type") == "error":
        stderr = proc.stderr.read() if proc.stderr else ""
        print("propctl sim football: the virtual box failed: %s" % (
            (end or {}).get("error") or stderr.strip() or "no end report"), file=sys.stderr)
        return 1
    names = end["names"]
    score = end["score"]
    done = "done: %s %d, %s %d after %.1f s of board time (%d %s); the box shows %r" % (
        names[0], score[0], names[1], score[1], end["t"] / 1000, end["steps"],
        "key presses and reports" if play else "player actions", end["lines"][0] if end["lines"] else "")
    if interactive:  # below the panel: as narrow as the panel
        done = "\n".join(wrap(done, 79, "      "))
    print(done, flush=True)
    if play:
        return 0 if code == 0 else 1
    return 0 if code == 0 and end["phase"] == "over" else 1


def print_log(proc, sound):
    """No terminal: the demo game's log, printed as it comes; the end record."""
    end = None
    names = DEFAULT_NAMES
    assert proc.stdout is not None
    for record in records(proc.stdout, lambda line: print(line, file=sys.stderr)):
        kind = record.get("type")
        if kind == "info":
            names = record.get("names", names)
            print("Finger Football box on a virtual board (seed %s, %s display, speed as fast as possible)"
                  % (record["seed"], record["display"]), flush=True)
            for message in record["errors"]:
                print("config: %s" % message, flush=True)
        elif kind == "screen":
            print("%7.2f s  [%s]" % (record["t"] / 1000, " | ".join(record["lines"])), flush=True)
        elif kind in ("player", "event", "refused"):
            line = describe(record, names)
            if line:
                print(line, flush=True)
        elif kind == "pwm":
            sound.change(record)
        elif kind in ("end", "error"):
            end = record
    return end


def watch(proc, args, speed: int, play: bool, sound, run: Run):
    """At a terminal: draw the box in place (its screen closed by `run`); with `play` the
    person's keys drive it, else the demo is paced to real time (q quits either). The end record."""
    session = Session(proc, play, sound, run)
    lines = start_reader(proc.stdout, speed, paced=not play)
    tty_in = sys.stdin.isatty()
    while True:
        changed = False
        if tty_in:
            changed = session.read_keys()
            if session.keys.quit and not session.quit_sent:
                session.quit_sent = True
                if not play:
                    proc.kill()
                    return {"type": "quit"}
                session.send("quit")
        try:
            record = lines.get(timeout=0 if tty_in else 0.1)
        except queue.Empty:
            record = False
        while record is not False:
            if record is None:  # the runner has ended
                return session.end
            session.take(record)
            changed = True
            try:
                record = lines.get_nowait()
            except queue.Empty:
                record = False
        if changed:
            session.draw()


class Session:
    """The runner's records on the screen and the person's keys to the runner (see watch)."""

    def __init__(self, proc, play: bool, sound, run: Run) -> None:
        self.proc = proc
        self.run = run
        self.play = play
        self.sound = sound
        self.keys = Keys(self.send, 1500)
        self.decoder = KeyDecoder()
        self.screen: Optional[Screen] = None
        self.names = DEFAULT_NAMES
        self.end: Optional[dict] = None
        self.quit_sent = False

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass  # the runner has gone: its end (or failure) is on its way

    def read_keys(self) -> bool:
        """Keys typed since the last call, handled; True if there were any."""
        fd = sys.stdin.fileno()
        ready = bool(select.select([fd], [], [], 0.02)[0])
        now = time.monotonic()
        keys = self.decoder.feed(os.read(fd, 64) or b"\x04", now) if ready else self.decoder.flush(now)
        for ch in keys:
            if self.play:
                self.keys.key(ch, now)
            elif ch in ("q", "Q", "\x03", "\x04"):
                self.keys.quit = True
        if self.play:
            self.keys.tick(now)
        return ready

    def take(self, record: dict) -> None:
        """One record of the runner."""
        kind = record.get("type")
        screen = self.screen
        if kind == "info":
            self.names = record.get("names", self.names)
            self.keys.long_press_ms = record.get("long_press_ms", self.keys.long_press_ms)
            heading = "Finger Football box, virtual %s (seed %s)%s" % (
                record.get("board", "pico"), record["seed"], "" if self.play else ", demo")
            self.screen = self.run.screen = Screen(sys.stdout, heading, max(record["rows"], 4))
            self.screen.log += ["config: %s" % message for message in record["errors"]]
        elif kind == "state":
            self.keys.new_state(record)
            if screen:
                actor = record["actor"]
                screen.status = "now: %s%s" % (record["hint"], "" if actor is None else " (%s)"
                                               % self.names[actor])
        elif kind == "pwm":
            self.sound.change(record)
        elif kind in ("end", "error"):
            self.end = record
        elif screen:
            if kind == "screen":
                screen.oled = record["lines"]
            elif kind in ("player", "event", "refused"):
                line = describe(record, self.names)
                if line:
                    screen.log.append(line)
                    del screen.log[:-200]
            elif kind == "junk":
                screen.log.append(record["line"])
        if "t" in record:
            if screen:
                screen.t = record["t"]
            self.sound.at(record["t"])

    def draw(self) -> None:
        screen = self.screen
        if screen is None:
            return
        if self.play:
            screen.keys = self.keys.lines()
            screen.notice = self.keys.prompt()
        else:
            screen.keys = ["demo: two simulated players", "press the buttons", "", "q  quit"]
        screen.draw()
