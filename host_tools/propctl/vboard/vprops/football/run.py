"""The Finger Football box on the virtual board, as a demo game or played by a person (MicroPython side).

    MICROPYPATH=<vboard>:firmware/lib micropython vprops/football/run.py [options]

The firmware (props.football) runs on the virtual board with a fake SSD1306.
Without --keys two simulated players press its buttons and send the link
reports the buttons cannot give, in virtual time (the firmware's runtime.Runtime,
its waits moving the board's clock); their flicks succeed at
random (from their own seeded Rng, not the box's); the box's dice, count and
scoreboard are the real thing. With --keys a person plays in real time.

Options (the seed is a setting: football.seed in --overrides, the box's dice and coin and
the players' own Rng; 1 when it is not set):
    --overrides FILE  a JSON file: the board's settings over the defaults, shaped like
                      config.json, e.g. {"football": {"oled_height": 64}, "board": "esp32"}
                      (checked by settings.merge; a file as for vprops/clock/run.py)
    --max-steps N     stop the demo after N player actions (default 5000)
    --keys 1          a person plays: board time runs in real time (runtime.Runtime, as on a
                      board) and stdin lines drive the box (read from its first tick on: a
                      button down at power-up is no press to the firmware):
                        "down B"     button B (roll, kick, good, miss) goes down; up again after
                                     100 ms unless "hold B" follows
                        "hold B"     keep B down (pressing it again if the tap is over)
                        "up B"       let B go
                        "press B MS" B down for MS board ms, then up (a long press)
                        "report ACTION [VALUE]"  the link's report command: VALUE is the
                                     yards (a number) or the pick (a word); a refused one
                                     gives a "refused" line
                        "quit"       the run ends (exit status 0)
    --speed N         with --keys: board time runs N times faster than real time (default 1)

Output, one JSON object per line, "t" = board time in ms:
    {"type": "info", "seed": ..., "rows": ..., "errors": [...], "names": [..], "long_press_ms": ...}
    {"type": "player", "t": ..., "text": "Away presses ROLL"}                (demo)
    {"type": "event", "t": ..., "event": "roll", ...the event's fields}
    {"type": "screen", "t": ..., "lines": [...]}        the OLED's text whenever it changes
    {"type": "pwm", "t": ..., "pin": "15", "what": "freq" or "duty", "value": ...}   the piezo's PWM
    {"type": "state", "t": ..., "phase": ..., "hint": ..., "actor": ..., "actions": [...], "box": ...}
                      (--keys) what the game waits for, whenever it changes; actions are the
                      engine's (name, kind, options)
    {"type": "refused", "t": ..., "command": "report in_field 120", "error": ...}   (--keys)
    {"type": "time", "t": ...}                          (--keys) every 250 ms of board time
    {"type": "end", "t": ..., "score": [..], "phase": ..., "lines": [...], "steps": ...}
"""
import json
import sys

from runner_io import emit_event, report_piezo, runner_options
from runtime import Runtime, watchdog
from vboard import StdinLines, emit

from rules.rng import Rng
from vprops.football.bench import FootballBench

BUTTONS = ("roll", "kick", "good", "miss")
TIME_EVERY_MS = 250  # --keys: a "time" line this often, so the host's clock and sound move on


DEFAULTS = {"overrides": {}, "max_steps": 5000, "keys": 0, "speed": 1}


class Players:
    """Two simulated players: what they press and report, decided by their own Rng."""

    def __init__(self, bench, seed: int) -> None:
        self.bench = bench
        self.app = bench.app
        self.rng = Rng(seed ^ 0x5A5A)
        self.screen: list = []

    def say(self, text: str) -> None:
        emit({"type": "player", "t": self.bench.board.clock.elapsed, "text": text})

    def who(self, team) -> str:
        return self.app.game.name(team)

    def press(self, button: str, team, wait_ms: int = 250) -> None:
        self.say("%s presses %s" % (self.who(team), button.upper()))
        self.bench.click(button, wait_ms)

    def report(self, team, action: str, yards=None, pick=None) -> None:
        words = action if yards is None and pick is None else "%s %s" % (
            action, yards if yards is not None else pick)
        self.say("%s reports %s" % (self.who(team), words))
        try:
            self.app.report(action, yards=yards, pick=pick)
        except ValueError as exc:  # the box refuses what the rules do not allow
            self.say("the box refuses: %s" % exc)
        self.bench.run(200)

    def kick(self, team) -> None:
        """KICK, then GOOD before the final tone (most of the time) or too late, or MISS."""
        self.press("kick", team, 100)
        roll = self.rng.below(10)
        if roll < 6:
            self.bench.run(600 + self.rng.below(2000))
            self.press("good", team, 200)
        elif roll < 8:
            self.bench.run(800 + self.rng.below(1500))
            self.press("miss", team, 200)
        else:
            self.bench.run(3600)  # never reported in time: no good
        self.bench.run(300)

    def step(self) -> None:
        s = self.app.game.state
        phase = s["phase"]
        offense = s["offense"]
        rng = self.rng
        if phase == "toss":
            self.press("roll", 1 - offense)
        elif phase in ("toss_choice", "half_choice", "goal_choice"):
            team = self.app.game.actor()
            if phase == "goal_choice":
                self.report(team, "goal", pick=("north", "south")[rng.below(2)])
            else:
                self.report(team, ("kick", "receive")[rng.below(2)])
        elif phase == "kickoff":
            if s["onside_ok"] and rng.below(8) == 0:
                self.report(offense, "onside")
            elif rng.below(3) == 0:
                self.report(offense, "end_zone")
            else:
                self.report(offense, "in_field", yards=10 + rng.below(30))
        elif phase == "onside":
            self.press("good" if rng.below(4) == 0 else "miss", offense)
        elif phase == "scrimmage":
            names = self.app.game.action_names()
            if "field_goal" in names and s["ball"] >= 65 and rng.below(3) == 0:
                self.kick(offense)
            elif "roll" in names:
                if s["down"] == 4 and s["ball"] < 40 and rng.below(2) == 0:
                    self.report(offense, "punt")
                else:
                    self.press("roll", 1 - offense)
            else:
                self.report(offense, "go_for_td")
        elif phase == "choose":
            options = s["options"]
            self.report(offense, "target", pick=options[rng.below(len(options))])
        elif phase == "attempt":
            roll = rng.below(100)
            if roll < (25 if s["target"] == "touchdown" else 50):
                self.press("good", offense)
            elif roll < 92:
                self.press("miss", offense)
            elif roll < 96:
                self.report(offense, "fumble", yards=max(1, min(99, 100 - s["ball"] - 5)))
            else:
                self.report(offense, "flag")
        elif phase == "penalty":
            self.report(1 - offense, ("accept", "refuse")[rng.below(2)])
        elif phase == "punt":
            self.report(offense, "in_field", yards=15 + rng.below(30))
        elif phase == "conversion":
            if rng.below(3) == 0:
                self.report(offense, "two_point")
            else:
                self.kick(offense)
        elif phase == "two_point":
            self.press("good" if rng.below(2) == 0 else "miss", offense)
        elif phase in ("field_goal", "extra_point"):
            self.kick(offense)

    def show(self) -> None:
        lines = self.bench.screen()
        if lines != self.screen:
            self.screen = lines
            emit({"type": "screen", "t": self.bench.board.clock.elapsed, "lines": lines})


class Person:
    """A person at the box: the --keys lines from stdin, polled without blocking between ticks."""

    TAP_MS = 100  # board ms a "down" without "hold" keeps the button down

    def __init__(self, bench) -> None:
        self.bench = bench
        self.board = bench.board
        self.app = bench.app
        self.stdin = StdinLines()
        # per button: [board ms it went down (-1: up), held, heard, up at (-1: on "up")]
        self.buttons = {}
        for name in BUTTONS:
            self.buttons[name] = [-1, False, False, -1]
        self.steps = 0
        self.quit = False

    def heard(self, record) -> None:
        """The bench's events: a button the firmware saw pressed may be let go."""
        if record["event"] == "button" and record["kind"] == "pressed":
            button = self.buttons.get(record["button"])
            if button is not None and button[0] >= 0:
                button[2] = True

    def read(self, now: int) -> None:
        for line in self.stdin.ready():
            if not self.quit:
                self.command(line.split(), now)
        if self.stdin.closed:
            self.quit = True  # the host went away
        for name in BUTTONS:
            b = self.buttons[name]
            if b[0] < 0 or not b[2]:
                continue  # up, or not seen by the firmware yet (a loaded host can stall)
            if b[3] >= 0:
                if now - b[3] >= 0:
                    self.release(name)
            elif not b[1] and now - b[0] >= self.TAP_MS:
                self.release(name)

    def command(self, words: list, now: int) -> None:
        if not words:
            return
        word = words[0]
        if word == "quit":
            self.quit = True
        elif word == "report" and len(words) >= 2:
            self.steps += 1
            self.report(words[1], words[2] if len(words) > 2 else None, " ".join(words))
        elif word in ("down", "hold", "up", "press") and len(words) >= 2 and words[1] in self.buttons:
            name = words[1]
            b = self.buttons[name]
            hold_ms = int(words[2]) if word == "press" and len(words) > 2 and words[2].isdigit() else 0
            if b[0] < 0 and word != "up":
                # down now (a terminal's key repeat starts late: a tap may be over by "hold",
                # so "hold" presses again); a button already down stays down, and heard
                self.board.set_input(self.bench.pins["btn_" + name], 0)
                b[0], b[2] = now, False
                self.steps += 1
            b[1] = word == "hold" or word == "press"   # "up": let go once the tap is over
            b[3] = now + hold_ms if word == "press" else -1
        else:
            emit({"type": "refused", "t": self.board.clock.elapsed, "command": " ".join(words),
                  "error": "not a command of vprops/football/run.py --keys"})

    def report(self, action: str, value, line: str) -> None:
        """The link's report command, as the referee's host sends it."""
        yards = pick = None
        if value is not None:
            if value.isdigit():
                yards = int(value)
            else:
                pick = value.replace("_", " ")  # picks travel as one word: "opp2_run_left"
        try:
            self.app.report(action, yards=yards, pick=pick)
        except ValueError as exc:  # what the box refuses, the link answers "refused"
            emit({"type": "refused", "t": self.board.clock.elapsed, "command": line, "error": str(exc)})

    def release(self, name: str) -> None:
        self.board.clear_input(self.bench.pins["btn_" + name])
        b = self.buttons[name]
        b[0], b[1], b[2], b[3] = -1, False, False, -1


def game_state(bench) -> dict:
    """What the game waits for now, for the host's keys."""
    app = bench.app
    game = app.game
    s = game.state
    return {"type": "state", "t": bench.board.clock.elapsed, "phase": s["phase"],
            "hint": game.waiting_for()[0], "actor": game.actor(), "offense": s["offense"],
            "actions": game.actions(), "box": app.state, "score": s["score"],
            "message": s["message"]}


class FootballRun:
    """One run of the box on the virtual board: a demo game, or a person's (see above)."""

    def __init__(self, opts) -> None:
        self.opts = opts
        self.person = None  # Person with --keys: hears the box's events
        config = opts["overrides"] if type(opts["overrides"]) is dict else {}
        self.bench = bench = FootballBench(config, echo=self.echo, capacity=20000)
        self.board = bench.board
        self.app = app = bench.app
        seed = app.cfg["seed"]
        self.seed = seed if seed is not None else 1
        report_piezo(self.board, str(bench.pins["piezo"]))
        emit({"type": "info", "seed": self.seed, "rows": len(bench.screen()),
              "display": bench.settings["football"].get("display", "oled"), "errors": app.config_errors,
              "names": app.game.settings["names"], "board": bench.settings["board"],
              "long_press_ms": app.cfg["long_press_ms"]})
        # what the person's screen shows, sent again only when it changes (--keys)
        self.frames = -1
        self.lines = None
        self.state_key = None
        self.time_shown = 0
        self.ticked = False

    def echo(self, record) -> None:
        emit_event(record)
        if self.person is not None:
            self.person.heard(record)

    def run(self) -> int:
        """The demo game or the person's session; the exit status."""
        app = self.app
        if self.opts["keys"]:
            self.person = Person(self.bench)
            self.bench.events = _Forgetful()  # hours of play: the host keeps the log, not the bench
            code = self.run_keys()
            steps = self.person.steps
        else:
            players = Players(self.bench, self.seed)
            players.show()
            steps = 0
            while app.game.state["phase"] != "over" and steps < self.opts["max_steps"]:
                players.step()
                players.show()
                steps += 1
            code = 0 if app.game.state["phase"] == "over" else 1
        emit({"type": "end", "t": self.board.clock.elapsed, "score": app.game.state["score"],
              "phase": app.game.state["phase"], "lines": self.bench.screen(), "steps": steps,
              "names": app.game.settings["names"]})
        return code

    def run_keys(self) -> int:
        """A person plays in real time until "quit"; 0 unless the firmware failed."""
        board = self.board
        speed = max(1, self.opts["speed"])
        board.clock.run_real(speed)
        # The loop main.py runs on a board, sleeping 1/speed of each wait.
        runtime = Runtime(self.app, clock=board.clock.now, wdt=watchdog(self.bench.settings, "football"),
                          speed=speed)
        try:
            runtime.run(self.until)
        except Exception as exc:  # the runtime made the outputs safe; the app said "fault"
            emit({"type": "error", "t": board.clock.elapsed, "error": repr(exc)})
            return 1
        return 0

    def until(self) -> bool:
        """After every runtime pass: the person's keys, the watchdog, what changed on screen."""
        if self.ticked:
            self.person.read(self.board.clock.elapsed)  # type: ignore[union-attr]
        # not before the first tick: the firmware takes a button down at power-up for no press
        self.ticked = True
        self.board.check_watchdog()
        self.show()
        return self.person.quit  # type: ignore[union-attr]

    def show(self) -> None:
        bench, now = self.bench, self.board.clock.elapsed
        oled = bench.oled
        if oled is not None and oled.frames != self.frames:  # redrawn: read it off the pixels
            self.frames = oled.frames
            lines = bench.screen()
            if lines != self.lines:
                self.lines = lines
                emit({"type": "screen", "t": now, "lines": lines})
        state = game_state(bench)
        key = json.dumps([state["phase"], state["actions"], state["box"], state["actor"], state["score"]])
        if key != self.state_key:
            self.state_key = key
            emit(state)
        if now - self.time_shown >= TIME_EVERY_MS:
            self.time_shown = now
            emit({"type": "time", "t": now})


class _Forgetful(list):
    """An event list that keeps nothing (the bench appends every event to it)."""

    def append(self, item) -> None:
        pass


sys.exit(FootballRun(runner_options(sys.argv[1:], DEFAULTS, "vprops/football/run.py")).run())
