"""Finger Football referee: the whole game as a state machine driven by reported events.

The players flick and kick; the engine is told what happened and keeps the
score, the downs, the line of scrimmage, the play counter and the quarters.

    game = FingerFootball(seed=7)
    for name, kind, options in game.actions():   # what may happen now
        ...
    game.act("toss")            # coin from the engine's seeded Rng ...
    game.act("kick")            # ... the toss winner kicks off
    game.act("goal", "north")   # the loser picks the goal it defends
    game.act("end_zone")        # kickoff into the end zone: receiver's 20
    game.act("roll")            # dice from the Rng, or act("roll", ["2-run", "left"])
    game.snapshot()             # plain dict: save it, show it, restore from it

act() returns the events the action caused, in this order (plain dicts with
"event" and its fields): "play" (action, message: what happened in words),
"score" (score, team, points) when a team scored, "quarter" (quarter, over,
winner) when a quarter or the game ended, "possession" (team, down, line)
when the ball moved or changed hands.

Spots are integer yards from the goal line that the team with the ball
defends (see rules.fingerfootball_field). A reported spot (`yards` actions:
where a kickoff or punt stopped, where the slider touched a red football) is
counted from the goal line of the team that gets the ball, e.g. a kickoff out
of bounds puts the ball on "the receiver's 40", which is 40.

Each action is (name, kind, options): kind "none" takes no argument, "pick"
one of the option strings, "yards" an int in options (lo, hi), "dice" either
nothing (the engine rolls) or [zone face, lane face] read off physical dice,
"team" either nothing (the engine tosses) or the winning team 0 or 1.
"""
from . import fingerfootball_field as field
from .rng import Rng

VERSION = 1
POINTS_TD = 6
POINTS_FG = 3
POINTS_KICK = 1
POINTS_TWO = 2
PENALTY_YARDS = 15
KICKOFF_TOUCHBACK = 20   # kickoff or punt reaching the end zone: receiver's 20
KICKOFF_OUT = 40         # kickoff out of bounds: receiver's 40
TOUCHBACK = 20           # touchdown try through the end zone: defence's 20
TWO_POINT_FROM = 30      # two-point try from the own 30
ONSIDE_SPOT = 70         # onside kick made: the opponent's 30
ONSIDE_MISS = 40         # onside kick missed: the defence's own 40
# The defence's "go, one thousand one, two, three": a kick after it is no good.
# The engine only hears good/no_good; a box times the count with this.
KICK_COUNT_MS = 3000

DEFAULT_SETTINGS: dict = {
    "plays_per_quarter": 20,
    "quarters": 4,
    "rows": list(field.DEFAULT_ROWS),
    "lane_die": list(field.DEFAULT_LANE_DIE),
    "names": ["Home", "Away"],
}

_GOOD_NOGOOD = (("good", "none", None), ("no_good", "none", None))
_KICK_RECEIVE = (("kick", "none", None), ("receive", "none", None))


def make_settings(overrides=None) -> dict:
    """Default settings with `overrides` applied, checked; ValueError if unusable."""
    settings: dict = {}
    for key in DEFAULT_SETTINGS:
        value = DEFAULT_SETTINGS[key]
        settings[key] = list(value) if isinstance(value, list) else value
    if overrides is not None and not isinstance(overrides, dict):
        raise ValueError("settings must be a dict")
    given: dict = overrides or {}
    for key in given:
        if not isinstance(key, str) or key not in DEFAULT_SETTINGS:
            raise ValueError("unknown setting %r" % (key,))
        value = given[key]
        if isinstance(value, (list, tuple)):
            value = list(value)
        elif not _is_int(value, 0, 1 << 30):
            raise ValueError("setting %r must be a whole number or a list" % key)
        settings[key] = value
    if not _is_int(settings["plays_per_quarter"], 1, 1000):
        raise ValueError("plays_per_quarter must be 1 to 1000")
    quarters = settings["quarters"]
    if not _is_int(quarters, 2, 100) or quarters % 2:
        raise ValueError("quarters must be an even number, 2 to 100")
    for key in ("rows", "lane_die", "names"):
        if not isinstance(settings[key], list):
            raise ValueError("setting %r must be a list" % key)
    field.check_rows(settings["rows"])
    field.check_lane_die(settings["lane_die"])
    names = settings["names"]
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names) or names[0] == names[1]:
        raise ValueError("two different team names are needed")
    return settings


def _copy_state(state: dict) -> dict:
    # Values are ints, strings, None or (nested) lists; settings are never mutated.
    out = {}
    for key in state:
        value = state[key]
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        out[key] = value
    return out


class FingerFootball:
    """One game of Finger Football: list the legal actions, apply one, show the state."""

    def __init__(self, seed: int = 0, settings=None) -> None:
        self.settings = make_settings(settings)
        self.state: dict = {
            "version": VERSION,
            "rng": Rng(seed).state,
            "phase": "toss",
            "quarter": 1,
            "plays": 0,
            "score": [0, 0],
            "stats": [[0, 0, 0, 0], [0, 0, 0, 0]],
            "toss_winner": None,
            "ends": None,
            "offense": 0,
            "ball": 0,
            "down": 1,
            "reached50": False,
            "dice": None,
            "target": None,
            "options": None,
            "onside_ok": False,
            "winner": None,
            "message": "Coin toss to start the game.",
        }

    # ----------------------------------------------------------- reading

    def actions(self) -> list:
        """The legal actions now, as (name, kind, options) tuples (see module doc)."""
        s = self.state
        phase = s["phase"]
        if phase == "toss":
            return [("toss", "team", (0, 1))]
        if phase in ("toss_choice", "half_choice"):
            return list(_KICK_RECEIVE)
        if phase == "goal_choice":
            return [("goal", "pick", ["north", "south"])]
        if phase == "kickoff":
            out = [("in_field", "yards", (1, 99)), ("end_zone", "none", None),
                   ("out_of_bounds", "none", None)]
            if s["onside_ok"]:
                out.append(("onside", "none", None))
            return out
        if phase in ("onside", "field_goal", "extra_point", "two_point"):
            return list(_GOOD_NOGOOD)
        if phase == "conversion":
            return [("extra_point", "none", None), ("two_point", "none", None)]
        if phase == "scrimmage":
            return self._scrimmage_actions()
        if phase == "choose":
            return [("target", "pick", list(s["options"]))]
        forward = (1, min(99, 100 - s["ball"]))
        if phase == "attempt":
            if s["target"] == field.TOUCHDOWN:
                out = [("touchdown", "none", None), ("missed", "none", None),
                       ("touchback", "none", None)]
            else:
                out = [("made", "none", None), ("missed", "none", None)]
            return out + [("fumble", "yards", forward), ("flag", "none", None)]
        if phase == "penalty":
            return [("accept", "none", None), ("refuse", "none", None)]
        if phase == "punt":
            return [("in_field", "yards", forward), ("end_zone", "none", None),
                    ("out_of_bounds", "yards", forward)]
        return []

    def _scrimmage_actions(self) -> list:
        s = self.state
        zone = self.zone()
        out: list = []
        if zone == field.OPP3:
            out.append(("go_for_td", "none", None))
        else:
            out.append(("roll", "dice", (field.ZONE_FACES, tuple(self.settings["lane_die"]))))
            out.append(("punt", "none", None))
        if s["reached50"]:
            out.append(("field_goal", "none", None))
        return out

    def action_names(self) -> list:
        """Just the names of the legal actions."""
        return [a[0] for a in self.actions()]

    def zone(self) -> int:
        """Zone index 0..5 of the line of scrimmage, seen from the offence."""
        return field.zone_of(self.state["ball"], self.settings["rows"])

    def waiting_for(self) -> tuple:
        """(hint, scoreboard word): what the game waits for now. The phase's (PHASES), except
        in the opponent's Zone 3, where no dice are rolled: the offence goes for a touchdown
        or kicks a field goal (the box must not ask for ROLL there)."""
        s = self.state
        row = _phase_row(s["phase"])
        if s["phase"] == "scrimmage" and self.zone() == field.OPP3:
            if s["reached50"]:
                return "in the opponent's Zone 3: go for a touchdown or kick a field goal", "TD OR FIELD GOAL"
            return "in the opponent's Zone 3: go for a touchdown", "GO FOR TD"
        return row[1], row[2]

    def actor(self):
        """The team (0 or 1) whose decision or report is awaited, None at the toss or the end."""
        s = self.state
        phase = s["phase"]
        if phase in ("toss", "over"):
            return None
        if phase == "toss_choice":
            return s["toss_winner"]
        if phase in ("goal_choice", "half_choice"):
            return 1 - s["toss_winner"]
        if phase == "penalty":
            return 1 - s["offense"]
        return s["offense"]

    def snapshot(self) -> dict:
        """The whole state as plain values, plus derived display fields.

        Restore with FingerFootball.restore(snapshot); the derived keys
        ("settings" included) are recomputed, not trusted, on restore.
        """
        out = _copy_state(self.state)
        out["settings"] = _copy_state(self.settings)
        out["actor"] = self.actor()
        out["defense"] = 1 - self.state["offense"]
        out["actions"] = self.action_names()
        out["zone"] = field.ZONE_NAMES[self.zone()]
        out["line"] = field.yard_text(self.state["ball"])
        return out

    @classmethod
    def restore(cls, saved: dict) -> "FingerFootball":
        """A game from a snapshot(); ValueError if the dict is not a saved game."""
        if not isinstance(saved, dict) or saved.get("version") != VERSION:
            raise ValueError("this is not a saved Finger Football game (version %d)" % VERSION)
        game = cls(0, saved.get("settings"))
        for key in game.state:
            if key not in saved:
                raise ValueError("the saved game lacks %r" % (key,))
        state = _copy_state(saved)
        for key in list(state):
            if key not in game.state:
                del state[key]
        _check_saved(state, game.settings)
        game.state = state
        return game

    def name(self, team: int) -> str:
        """A team's display name."""
        return self.settings["names"][team]

    # ----------------------------------------------------------- acting

    def act(self, name: str, arg=None) -> list:
        """Apply one action; returns the events it caused (see the module doc).

        Raises ValueError (state unchanged) if the action is not legal now or
        its argument is wrong. The words are also in state["message"].
        """
        legal = None
        for action in self.actions():
            if action[0] == name:
                legal = action
        if legal is None:
            raise ValueError(self._why_not(name))
        arg = _check_arg(legal, arg)
        work = _copy_state(self.state)
        message = getattr(self, "_do_" + self.state["phase"])(work, name, arg)
        message += self._settle(work)
        work["message"] = message
        before = self.state
        self.state = work
        return _events(name, before, work)

    def _why_not(self, name: str) -> str:
        s = self.state
        phase = s["phase"]
        names = self.action_names()
        if phase == "over":
            return "the game is over"
        if name == "field_goal" and phase == "scrimmage":
            return "no field goal yet: the offence must first touch or cross the 50"
        if name == "roll" and phase == "scrimmage":
            return "no dice in the opponent's Zone 3: go for a touchdown or kick a field goal"
        if name == "roll":
            return "no roll is due now (%s)" % phase_hint(phase)
        if name == "punt" and phase == "scrimmage":
            return "no punt from the opponent's Zone 3: go for a touchdown or kick a field goal"
        if name == "punt" and phase in ("attempt", "choose"):
            return "a punt must be announced before the dice are rolled"
        if phase == "scrimmage" and name in ("in_field", "end_zone", "out_of_bounds"):
            return "a punt must be announced first (action 'punt')"
        if name == "onside" and phase == "kickoff":
            return "an onside kick is only for the team that just scored a touchdown"
        if name == "go_for_td" and phase == "scrimmage":
            return "a touchdown try without dice is only allowed in the opponent's Zone 3"
        return "'%s' is not possible now (%s); possible: %s" % (
            name, phase_hint(phase), ", ".join(names))

    # Handlers work on a copy of the state and return a message.

    def _do_toss(self, s, name, arg) -> str:
        if arg is None:
            rng = Rng.from_state(s["rng"])
            arg = rng.below(2)
            s["rng"] = rng.state
        s["toss_winner"] = arg
        s["phase"] = "toss_choice"
        return "%s wins the toss: kick off or receive?" % self.name(arg)

    def _do_toss_choice(self, s, name, arg) -> str:
        winner = s["toss_winner"]
        kicker = winner if name == "kick" else 1 - winner
        words = "%s chooses to %s." % (self.name(winner), name)
        if s["ends"] is None:
            s["offense"] = kicker
            s["phase"] = "goal_choice"
            return words + " %s picks the goal to defend." % self.name(1 - winner)
        return words + " " + self._kickoff(s, kicker, False)

    def _do_goal_choice(self, s, name, arg) -> str:
        chooser = 1 - s["toss_winner"]
        other = "south" if arg == "north" else "north"
        s["ends"] = [arg, other] if chooser == 0 else [other, arg]
        return "%s defends the %s goal. %s" % (
            self.name(chooser), arg, self._kickoff(s, s["offense"], False))

    def _do_half_choice(self, s, name, arg) -> str:
        chooser = 1 - s["toss_winner"]
        kicker = chooser if name == "kick" else 1 - chooser
        return "%s chooses to %s. %s" % (self.name(chooser), name, self._kickoff(s, kicker, False))

    def _kickoff(self, s, kicker, onside_ok) -> str:
        s["phase"] = "kickoff"
        s["offense"] = kicker
        s["ball"] = 0
        s["down"] = 1
        s["reached50"] = False
        s["onside_ok"] = onside_ok
        s["dice"] = None
        s["target"] = None
        s["options"] = None
        return "%s kicks off." % self.name(kicker)

    def _give(self, s, team, yards) -> str:
        s["offense"] = team
        s["ball"] = yards
        s["down"] = 1
        s["reached50"] = yards >= 50
        s["phase"] = "scrimmage"
        s["onside_ok"] = False
        s["dice"] = None
        s["target"] = None
        s["options"] = None
        return "%s ball, 1st down on the %s." % (self.name(team), field.yard_text(yards))

    def _do_kickoff(self, s, name, arg) -> str:
        receiver = 1 - s["offense"]
        if name == "onside":
            s["phase"] = "onside"
            return "%s tries an onside kick: the run circles on the opponent's 30." % (
                self.name(s["offense"]))
        if name == "in_field":
            return "Kickoff stops on the field. " + self._give(s, receiver, arg)
        if name == "end_zone":
            return "Kickoff reaches the goal line or end zone. " + self._give(
                s, receiver, KICKOFF_TOUCHBACK)
        return "Kickoff out of bounds: penalty on the kicker. " + self._give(s, receiver, KICKOFF_OUT)

    def _do_onside(self, s, name, arg) -> str:
        kicker = s["offense"]
        if name == "good":
            return "Onside kick recovered! " + self._give(s, kicker, ONSIDE_SPOT)
        return "Onside kick fails. " + self._give(s, 1 - kicker, ONSIDE_MISS)

    def _do_scrimmage(self, s, name, arg) -> str:
        s["plays"] += 1
        if name == "punt":
            s["phase"] = "punt"
            return "%s punts." % self.name(s["offense"])
        if name == "field_goal":
            s["phase"] = "field_goal"
            return "%s tries a field goal: ready, go, one thousand one..." % self.name(s["offense"])
        if name == "go_for_td":
            s["target"] = field.TOUCHDOWN
            s["phase"] = "attempt"
            return "%s goes for a touchdown." % self.name(s["offense"])
        if arg is None:
            rng = Rng.from_state(s["rng"])
            arg = [field.ZONE_FACES[rng.below(6)], self.settings["lane_die"][rng.below(6)]]
            s["rng"] = rng.state
        s["dice"] = list(arg)
        zone = field.zone_of(s["ball"], self.settings["rows"])
        targets = field.targets_for_roll(zone, arg[0], arg[1])
        words = "%s (the defence) rolls %s / %s: " % (self.name(1 - s["offense"]), arg[0], arg[1])
        if len(targets) == 1:
            s["target"] = targets[0]
            s["phase"] = "attempt"
            return words + "%s must go for %s." % (self.name(s["offense"]), self._target_text(
                s, targets[0]))
        s["options"] = targets
        s["phase"] = "choose"
        return words + "%s announces the play." % self.name(s["offense"])

    def _target_text(self, s, target) -> str:
        if target == field.TOUCHDOWN:
            return "a touchdown"
        spot = field.row_yards(field.target_zone(target), self.settings["rows"])
        return "%s (the %s)" % (target, field.yard_text(spot))

    def _do_choose(self, s, name, arg) -> str:
        s["target"] = arg
        s["options"] = None
        s["phase"] = "attempt"
        return "%s announces %s." % (self.name(s["offense"]), self._target_text(s, arg))

    def _do_attempt(self, s, name, arg) -> str:
        offense = s["offense"]
        if name == "made":
            spot = field.row_yards(field.target_zone(s["target"]), self.settings["rows"])
            s["ball"] = spot
            s["down"] = 1
            s["reached50"] = s["reached50"] or spot >= 50
            s["phase"] = "scrimmage"
            s["target"] = None
            s["dice"] = None
            return "Made it: 1st down on the %s." % field.yard_text(spot)
        if name == "touchdown":
            return self._score(s, POINTS_TD, 0, "Touchdown %s!" % self.name(offense)) + (
                " Extra point kick or two-point try?")
        if name == "missed":
            return "No good: back to the line. " + self._lose_down(s)
        if name == "touchback":
            return "Through the end zone: touchback. " + self._give(s, 1 - offense, TOUCHBACK)
        if name == "fumble":
            return "Touches a red football: turnover! " + self._give(s, 1 - offense, arg)
        s["phase"] = "penalty"
        return "Touches a yellow flag: %s accepts or refuses the penalty." % self.name(1 - offense)

    def _lose_down(self, s) -> str:
        s["target"] = None
        s["dice"] = None
        if s["down"] >= 4:
            return "Turnover on downs. " + self._give(s, 1 - s["offense"], 100 - s["ball"])
        s["down"] += 1
        s["phase"] = "scrimmage"
        return "%s down on the %s." % (_ordinal(s["down"]), field.yard_text(s["ball"]))

    def _do_penalty(self, s, name, arg) -> str:
        if name == "refuse":
            return "Penalty refused. " + self._lose_down(s)
        back = min(PENALTY_YARDS, s["ball"] // 2)
        s["ball"] -= back
        return "Penalty: %d yards back and loss of down. %s" % (back, self._lose_down(s))

    def _do_punt(self, s, name, arg) -> str:
        receiver = 1 - s["offense"]
        if name == "end_zone":
            return "Punt reaches the goal line or end zone. " + self._give(s, receiver, KICKOFF_TOUCHBACK)
        if name == "out_of_bounds":
            return "Punt out of bounds. " + self._give(s, receiver, arg)
        return "Punt stops on the field. " + self._give(s, receiver, arg)

    def _do_field_goal(self, s, name, arg) -> str:
        offense = s["offense"]
        if name == "good":
            words = self._score(s, POINTS_FG, 1, "Field goal %s is good!" % self.name(offense))
            return words + " " + self._kickoff(s, offense, False)
        return "Field goal no good. " + self._give(s, 1 - offense, 100 - s["ball"])

    def _do_conversion(self, s, name, arg) -> str:
        s["phase"] = name
        if name == "two_point":
            return "Two-point try from the own %d." % TWO_POINT_FROM
        return "Extra point kick: ready, go, one thousand one..."

    def _do_extra_point(self, s, name, arg) -> str:
        return self._after_try(s, name == "good", POINTS_KICK, 2, "Extra point")

    def _do_two_point(self, s, name, arg) -> str:
        return self._after_try(s, name == "good", POINTS_TWO, 3, "Two-point try")

    def _after_try(self, s, good, points, stat, what) -> str:
        scorer = s["offense"]
        if good:
            words = self._score(s, points, stat, what + " is good.")
        else:
            words = what + " no good."
        return words + " " + self._kickoff(s, scorer, True) + " (Onside kick allowed.)"

    def _score(self, s, points, stat, words) -> str:
        team = s["offense"]
        s["score"][team] += points
        s["stats"][team][stat] += 1
        s["target"] = None
        s["dice"] = None
        if points == POINTS_TD:
            s["phase"] = "conversion"
        return "%s %d-%d" % (words, s["score"][0], s["score"][1])

    def _settle(self, s) -> str:
        """End the quarter once its plays are used and the ball is dead."""
        if s["phase"] not in ("scrimmage", "kickoff"):
            return ""
        if s["plays"] < self.settings["plays_per_quarter"]:
            return ""
        quarter = s["quarter"]
        quarters = self.settings["quarters"]
        words = " End of %s: change ends." % _quarter_text(quarter, quarters)
        if quarter >= quarters and s["score"][0] != s["score"][1]:
            winner = 0 if s["score"][0] > s["score"][1] else 1
            s["winner"] = winner
            s["phase"] = "over"
            return " End of %s. Final: %s wins %d-%d." % (
                _quarter_text(quarter, quarters), self.name(winner), s["score"][0], s["score"][1])
        s["plays"] = 0
        s["ends"] = [s["ends"][1], s["ends"][0]]
        if quarter < quarters:
            s["quarter"] = quarter + 1
            if quarter * 2 == quarters:
                s["phase"] = "half_choice"
                s["onside_ok"] = False
                return words + " Half time: %s picks kick off or receive." % self.name(
                    1 - s["toss_winner"])
            return words
        s["quarter"] = quarter + 1
        s["phase"] = "toss"
        s["onside_ok"] = False
        return words + " Tied: overtime quarter, new coin toss."


def _events(name: str, before: dict, after: dict) -> list:
    """The events of one action that turned state `before` into `after`."""
    events = [{"event": "play", "action": name, "message": after["message"]}]
    if after["score"] != before["score"]:
        team = 0 if after["score"][0] != before["score"][0] else 1
        events.append({"event": "score", "score": list(after["score"]), "team": team,
                       "points": after["score"][team] - before["score"][team]})
    ended = after["phase"] == "over" and before["phase"] != "over"
    if after["quarter"] != before["quarter"] or ended:
        events.append({"event": "quarter", "quarter": after["quarter"], "over": after["phase"] == "over",
                       "winner": after["winner"]})
    if after["offense"] != before["offense"] or after["ball"] != before["ball"]:
        possession = {"event": "possession", "team": after["offense"], "down": after["down"],
                      "line": field.yard_text(after["ball"])}
        if after["phase"] in ("goal_choice", "kickoff", "onside"):  # no down yet
            possession["kickoff"] = True  # the team is to kick off
        events.append(possession)
    return events


# Every phase of the game once: (name, hint: what the game waits for, status: the
# scoreboard's short word). Refusals quote the hint; the box shows the status.
PHASES = (
    ("toss", "the coin toss comes first", "COIN TOSS"),
    ("toss_choice", "the toss winner picks kick or receive", "KICK/RECEIVE?"),
    ("goal_choice", "the toss loser picks a goal", "PICK A GOAL"),
    ("half_choice", "half time: the toss loser picks kick or receive", "HALF TIME"),
    ("kickoff", "waiting for the kickoff", "KICKOFF"),
    ("onside", "waiting for the onside kick", "ONSIDE KICK"),
    ("scrimmage", "before the play: roll, punt or field goal", "ROLL"),
    ("choose", "the offence must announce its play", "CHOOSE PLAY"),
    ("attempt", "waiting for where the slider stopped", "FLICK"),
    ("penalty", "the defence accepts or refuses the penalty", "FLAG!"),
    ("punt", "waiting for where the punt stopped", "PUNT"),
    ("field_goal", "waiting for the field goal kick", "FIELD GOAL"),
    ("conversion", "after a touchdown: extra point or two-point try", "PAT OR 2 PT?"),
    ("extra_point", "waiting for the extra point kick", "EXTRA POINT"),
    ("two_point", "waiting for the two-point try", "TWO POINT TRY"),
    ("over", "the game is over", "FINAL"),
)


def _phase_row(phase: str) -> tuple:
    for row in PHASES:
        if row[0] == phase:
            return row
    raise ValueError("the saved game has an unknown phase %r" % (phase,))


def phase_hint(phase: str) -> str:
    """What the game waits for in `phase`, in words."""
    return _phase_row(phase)[1]


def phase_status(phase: str) -> str:
    """The scoreboard's short word for `phase`."""
    return _phase_row(phase)[2]


def _is_int(value, low, high) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_saved(s: dict, settings: dict) -> None:
    """Raise ValueError unless a restored state is one the engine could have made."""
    phase = s["phase"]
    _phase_row(phase)  # ValueError for a phase the engine does not have
    broken = None
    if not _is_int(s["rng"], 1, 0xFFFFFFFF):
        broken = "dice state"
    elif not (_is_int(s["quarter"], 1, 10000) and _is_int(s["plays"], 0, settings["plays_per_quarter"])):
        broken = "quarter or play counter"
    elif not (_is_int(s["ball"], 0, 100) and _is_int(s["down"], 1, 4) and _is_int(s["offense"], 0, 1)):
        broken = "ball, down or possession"
    elif not (isinstance(s["score"], list) and len(s["score"]) == 2
              and _is_int(s["score"][0], 0, 1 << 30) and _is_int(s["score"][1], 0, 1 << 30)):
        broken = "score"
    elif not (isinstance(s["stats"], list) and len(s["stats"]) == 2 and all(
            isinstance(row, list) and len(row) == 4 and all(_is_int(n, 0, 1 << 30) for n in row)
            for row in s["stats"])):
        broken = "scoring record"
    elif not _score_matches_record(s["score"], s["stats"]):
        broken = "score (it is not what the scoring record adds up to)"
    elif s["toss_winner"] not in ((None, 0, 1) if phase == "toss" else (0, 1)):
        broken = "coin toss"
    elif s["ends"] is None and phase not in ("toss", "toss_choice", "goal_choice"):
        broken = "choice of goals"
    elif s["ends"] is not None and s["ends"] not in (["north", "south"], ["south", "north"]):
        broken = "choice of goals"
    elif s["reached50"] not in (True, False) or s["onside_ok"] not in (True, False):
        broken = "field goal or onside flag"
    elif s["winner"] not in ((0, 1) if phase == "over" else (None,)):
        broken = "winner"
    elif s["dice"] is not None and not (isinstance(s["dice"], list) and len(s["dice"]) == 2
                                        and s["dice"][0] in field.ZONE_FACES
                                        and s["dice"][1] in field.LANE_SYMBOLS):
        broken = "dice"
    elif (s["target"] is not None or phase == "attempt") and not field.is_target(s["target"]):
        broken = "announced play"
    elif (s["options"] is not None or phase == "choose") and not (
            isinstance(s["options"], list) and s["options"]
            and all(field.is_target(t) for t in s["options"])):
        broken = "list of plays"
    elif not isinstance(s["message"], str):
        broken = "message"
    if broken is not None:
        raise ValueError("the saved game has a broken %s" % broken)


def _score_matches_record(score: list, stats: list) -> bool:
    """Each side's score is its touchdowns, field goals, kicks and two-point plays added up,
    and a conversion (kick or two points) only ever follows a touchdown."""
    for team in (0, 1):
        td, fg, kick, two = stats[team]
        if kick + two > td:
            return False
        if score[team] != td * POINTS_TD + fg * POINTS_FG + kick * POINTS_KICK + two * POINTS_TWO:
            return False
    return True


def _ordinal(n: int) -> str:
    return ("1st", "2nd", "3rd", "4th")[n - 1]


def _quarter_text(quarter: int, quarters: int) -> str:
    if quarter > quarters:
        return "overtime %d" % (quarter - quarters)
    return "quarter %d" % quarter


def _check_arg(action, arg):
    """The argument for a legal action, checked; raises ValueError."""
    name, kind, options = action
    if kind == "none":
        if arg is not None:
            raise ValueError("'%s' takes no value" % name)
        return None
    if kind == "pick":
        if arg not in options:
            raise ValueError("'%s' needs one of: %s" % (name, ", ".join(options)))
        return arg
    if kind == "yards":
        if not isinstance(arg, int) or isinstance(arg, bool) or arg < options[0] or arg > options[1]:
            raise ValueError("'%s' needs a yard line %d..%d, counted from the goal of the team "
                             "that gets the ball" % (name, options[0], options[1]))
        return arg
    if kind == "team":
        if arg is not None and arg not in (0, 1):
            raise ValueError("the toss winner is team 0 or 1")
        return arg
    # dice: nothing (the engine rolls) or the two faces read off real dice
    if arg is None:
        return None
    if not isinstance(arg, (list, tuple)) or len(arg) != 2:
        raise ValueError("dice are two faces, e.g. ['2-run', 'left']")
    if arg[0] not in options[0]:
        raise ValueError("the first die shows one of: %s" % ", ".join(options[0]))
    if arg[1] not in options[1]:
        raise ValueError("the second die shows one of: %s" % ", ".join(sorted(set(options[1]))))
    return [arg[0], arg[1]]
