"""Play a demo game of Finger Football on the virtual box and print JSON lines (MicroPython side).

    MICROPYPATH=<this folder>:firmware/lib micropython run_football.py [options]

The firmware (props.football) runs on the virtual board with a fake SSD1306;
two simulated players press its buttons and send the link reports the
buttons cannot give. Their flicks succeed at random (from their own seeded
Rng, not the box's); the box's dice, count and scoreboard are the real thing.

Options:
    --seed N          the box's seed (dice and coin) and the players' (default 1)
    --overrides JSON  the board's settings over the defaults, shaped like config.json, e.g.
                      '{"football": {"oled_height": 64}, "board": "esp32"}' (checked by settings.merge)
    --max-steps N     stop after N player actions (default 5000)

Output, one JSON object per line, "t" = board time in ms:
    {"type": "info", "seed": ..., "rows": ..., "errors": [...]}
    {"type": "player", "t": ..., "text": "Away presses ROLL"}
    {"type": "event", "t": ..., "event": "roll", ...the event's fields}
    {"type": "screen", "t": ..., "lines": [...]}        the OLED's text whenever it changes
    {"type": "end", "t": ..., "score": [..], "phase": ..., "lines": [...]}
"""
import json
import sys

from football_bench import FootballBench

from rules.rng import Rng


def emit(obj) -> None:
    sys.stdout.write(json.dumps(obj))
    sys.stdout.write("\n")


def parse_args(argv) -> dict:
    opts = {"seed": 1, "overrides": {}, "max_steps": 5000}
    i = 0
    while i < len(argv):
        if i + 1 >= len(argv):
            raise SystemExit("run_football: %s needs a value" % argv[i])
        arg, value = argv[i], argv[i + 1]
        i += 2
        if arg == "--seed":
            opts["seed"] = int(value)
        elif arg == "--overrides":
            opts["overrides"] = json.loads(value)
        elif arg == "--max-steps":
            opts["max_steps"] = int(value)
        else:
            raise SystemExit("run_football: unknown option %s" % arg)
    return opts


def box_config(opts) -> dict:
    """The --overrides object with the seed in its football section."""
    config = opts["overrides"] if type(opts["overrides"]) is dict else {}
    football = config.get("football")
    if type(football) is not dict:
        football = config["football"] = {}
    football["seed"] = opts["seed"]
    return config


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


def main() -> None:
    opts = parse_args(sys.argv[1:])
    config = box_config(opts)

    def echo(record):
        line = {"type": "event"}
        for key in record:
            line[key] = record[key]
        emit(line)

    bench = FootballBench(config, echo=echo, capacity=20000)
    app = bench.app
    emit({"type": "info", "seed": opts["seed"], "rows": len(bench.screen()),
          "display": bench.settings["football"].get("display", "oled"), "errors": app.config_errors,
          "names": app.game.settings["names"]})
    players = Players(bench, opts["seed"])
    players.show()
    steps = 0
    while app.game.state["phase"] != "over" and steps < opts["max_steps"]:
        players.step()
        players.show()
        steps += 1
    emit({"type": "end", "t": bench.board.clock.elapsed, "score": app.game.state["score"],
          "phase": app.game.state["phase"], "lines": bench.screen(), "steps": steps,
          "names": app.game.settings["names"]})
    sys.exit(0 if app.game.state["phase"] == "over" else 1)


main()
