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
        state = self.state
        phase = state["phase"]
        if phase == "toss":
            return [("toss", "team", (0, 1))]
        if phase in ("toss_choice", "half_choice"):
            return list(_KICK_RECEIVE)
        if phase == "goal_choice":
            return [("goal", "pick", ["north", "south"])]
        if phase == "kickoff":
            out = [("in_field", "yards", (1, 99)), ("end_zone", "none", None),
                   ("out_of_bounds", "none", None)]
            if state["onside_ok"]:
                out.append(("onside", "none", None))
            return out
        if phase in ("onside", "field_goal", "extra_point", "two_point"):
            return list(_GOOD_NOGOOD)
        if phase == "conversion":
            return [("extra_point", "none", None), ("two_point", "none", None)]
        if phase == "scrimmage":
            return self._scrimmage_actions()
        if phase == "choose":
            return [("target", "pick", list(state["options"]))]
        forward = (1, min(99, 100 - state["ball"]))
        if phase == "attempt":
            if state["target"] == field.TOUCHDOWN:
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
        state = self.state
        zone = self.zone()
        out: list = []
        if zone == field.OPP3:
            out.append(("go_for_td", "none", None))
        else:
            out.append(("roll", "dice", (field.ZONE_FACES, tuple(self.settings["lane_die"]))))
            out.append(("punt", "none", None))
        if state["reached50"]:
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
        state = self.state
        row = _phase_row(state["phase"])
        if state["phase"] == "scrimmage" and self.zone() == field.OPP3:
            if state["reached50"]:
                return "in the opponent's Zone 3: go for a touchdown or kick a field goal", "TD OR FIELD GOAL"
            return "in the opponent's Zone 3: go for a touchdown", "GO FOR TD"
        return row[1], row[2]

    def actor(self):
        """The team (0 or 1) whose decision or report is awaited, None at the toss or the end."""
        state = self.state
        phase = state["phase"]
        if phase in ("toss", "over"):
            return None
        if phase == "toss_choice":
            return state["toss_winner"]
        if phase in ("goal_choice", "half_choice"):
            return 1 - state["toss_winner"]
        if phase == "penalty":
            return 1 - state["offense"]
        return state["offense"]

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
        state = self.state
        phase = state["phase"]
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

    # Handlers change `work`, a copy of the state (act() makes it the state when the handler
    # returns; a ValueError leaves the game as it was), and return a message.

    def _do_toss(self, work, name, arg) -> str:
        if arg is None:
            rng = Rng.from_state(work["rng"])
            arg = rng.below(2)
            work["rng"] = rng.state
        work["toss_winner"] = arg
        work["phase"] = "toss_choice"
        return "%s wins the toss: kick off or receive?" % self.name(arg)

    def _do_toss_choice(self, work, name, arg) -> str:
        winner = work["toss_winner"]
        kicker = winner if name == "kick" else 1 - winner
        words = "%s chooses to %s." % (self.name(winner), name)
        if work["ends"] is None:
            work["offense"] = kicker
            work["phase"] = "goal_choice"
            return words + " %s picks the goal to defend." % self.name(1 - winner)
        return words + " " + self._kickoff(work, kicker, False)

    def _do_goal_choice(self, work, name, arg) -> str:
        chooser = 1 - work["toss_winner"]
        other = "south" if arg == "north" else "north"
        work["ends"] = [arg, other] if chooser == 0 else [other, arg]
        return "%s defends the %s goal. %s" % (
            self.name(chooser), arg, self._kickoff(work, work["offense"], False))

    def _do_half_choice(self, work, name, arg) -> str:
        chooser = 1 - work["toss_winner"]
        kicker = chooser if name == "kick" else 1 - chooser
        return "%s chooses to %s. %s" % (self.name(chooser), name, self._kickoff(work, kicker, False))

    def _kickoff(self, work, kicker, onside_ok) -> str:
        work["phase"] = "kickoff"
        work["offense"] = kicker
        work["ball"] = 0
        work["down"] = 1
        work["reached50"] = False
        work["onside_ok"] = onside_ok
        work["dice"] = None
        work["target"] = None
        work["options"] = None
        return "%s kicks off." % self.name(kicker)

    def _give(self, work, team, yards) -> str:
        work["offense"] = team
        work["ball"] = yards
        work["down"] = 1
        work["reached50"] = yards >= 50
        work["phase"] = "scrimmage"
        work["onside_ok"] = False
        work["dice"] = None
        work["target"] = None
        work["options"] = None
        return "%s ball, 1st down on the %s." % (self.name(team), field.yard_text(yards))

    def _do_kickoff(self, work, name, arg) -> str:
        receiver = 1 - work["offense"]
        if name == "onside":
            work["phase"] = "onside"
            return "%s tries an onside kick: the run circles on the opponent's 30." % (
                self.name(work["offense"]))
        if name == "in_field":
            return "Kickoff stops on the field. " + self._give(work, receiver, arg)
        if name == "end_zone":
            return "Kickoff reaches the goal line or end zone. " + self._give(
                work, receiver, KICKOFF_TOUCHBACK)
        return "Kickoff out of bounds: penalty on the kicker. " + self._give(work, receiver, KICKOFF_OUT)

    def _do_onside(self, work, name, arg) -> str:
        kicker = work["offense"]
        if name == "good":
            return "Onside kick recovered! " + self._give(work, kicker, ONSIDE_SPOT)
        return "Onside kick fails. " + self._give(work, 1 - kicker, ONSIDE_MISS)

    def _do_scrimmage(self, work, name, arg) -> str:
        work["plays"] += 1
        if name == "punt":
            work["phase"] = "punt"
            return "%s punts." % self.name(work["offense"])
        if name == "field_goal":
            work["phase"] = "field_goal"
            return "%s tries a field goal: ready, go, one thousand one..." % self.name(work["offense"])
        if name == "go_for_td":
            work["target"] = field.TOUCHDOWN
            work["phase"] = "attempt"
            return "%s goes for a touchdown." % self.name(work["offense"])
        if arg is None:
            rng = Rng.from_state(work["rng"])
            arg = [field.ZONE_FACES[rng.below(6)], self.settings["lane_die"][rng.below(6)]]
            work["rng"] = rng.state
        work["dice"] = list(arg)
        zone = field.zone_of(work["ball"], self.settings["rows"])
        targets = field.targets_for_roll(zone, arg[0], arg[1])
        words = "%s (the defence) rolls %s / %s: " % (self.name(1 - work["offense"]), arg[0], arg[1])
        if len(targets) == 1:
            work["target"] = targets[0]
            work["phase"] = "attempt"
            return words + "%s must go for %s." % (self.name(work["offense"]), self._target_text(
                work, targets[0]))
        work["options"] = targets
        work["phase"] = "choose"
        return words + "%s announces the play." % self.name(work["offense"])

    def _target_text(self, work, target) -> str:
        if target == field.TOUCHDOWN:
            return "a touchdown"
        spot = field.row_yards(field.target_zone(target), self.settings["rows"])
        return "%s (the %s)" % (target, field.yard_text(spot))

    def _do_choose(self, work, name, arg) -> str:
        work["target"] = arg
        work["options"] = None
        work["phase"] = "attempt"
        return "%s announces %s." % (self.name(work["offense"]), self._target_text(work, arg))

    def _do_attempt(self, work, name, arg) -> str:
        offense = work["offense"]
        if name == "made":
            spot = field.row_yards(field.target_zone(work["target"]), self.settings["rows"])
            work["ball"] = spot
            work["down"] = 1
            work["reached50"] = work["reached50"] or spot >= 50
            work["phase"] = "scrimmage"
            work["target"] = None
            work["dice"] = None
            return "Made it: 1st down on the %s." % field.yard_text(spot)
        if name == "touchdown":
            return self._score(work, POINTS_TD, 0, "Touchdown %s!" % self.name(offense)) + (
                " Extra point kick or two-point try?")
        if name == "missed":
            return "No good: back to the line. " + self._lose_down(work)
        if name == "touchback":
            return "Through the end zone: touchback. " + self._give(work, 1 - offense, TOUCHBACK)
        if name == "fumble":
            return "Touches a red football: turnover! " + self._give(work, 1 - offense, arg)
        work["phase"] = "penalty"
        return "Touches a yellow flag: %s accepts or refuses the penalty." % self.name(1 - offense)

    def _lose_down(self, work) -> str:
        work["target"] = None
        work["dice"] = None
        if work["down"] >= 4:
            return "Turnover on downs. " + self._give(work, 1 - work["offense"], 100 - work["ball"])
        work["down"] += 1
        work["phase"] = "scrimmage"
        return "%s down on the %s." % (_ordinal(work["down"]), field.yard_text(work["ball"]))

    def _do_penalty(self, work, name, arg) -> str:
        if name == "refuse":
            return "Penalty refused. " + self._lose_down(work)
        back = min(PENALTY_YARDS, work["ball"] // 2)
        work["ball"] -= back
        return "Penalty: %d yards back and loss of down. %s" % (back, self._lose_down(work))

    def _do_punt(self, work, name, arg) -> str:
        receiver = 1 - work["offense"]
        if name == "end_zone":
            return "Punt reaches the goal line or end zone. " + self._give(work, receiver, KICKOFF_TOUCHBACK)
        if name == "out_of_bounds":
            return "Punt out of bounds. " + self._give(work, receiver, arg)
        return "Punt stops on the field. " + self._give(work, receiver, arg)

    def _do_field_goal(self, work, name, arg) -> str:
        offense = work["offense"]
        if name == "good":
            words = self._score(work, POINTS_FG, 1, "Field goal %s is good!" % self.name(offense))
            return words + " " + self._kickoff(work, offense, False)
        return "Field goal no good. " + self._give(work, 1 - offense, 100 - work["ball"])

    def _do_conversion(self, work, name, arg) -> str:
        work["phase"] = name
        if name == "two_point":
            return "Two-point try from the own %d." % TWO_POINT_FROM
        return "Extra point kick: ready, go, one thousand one..."

    def _do_extra_point(self, work, name, arg) -> str:
        return self._after_try(work, name == "good", POINTS_KICK, 2, "Extra point")

    def _do_two_point(self, work, name, arg) -> str:
        return self._after_try(work, name == "good", POINTS_TWO, 3, "Two-point try")

    def _after_try(self, work, good, points, stat, what) -> str:
        scorer = work["offense"]
        if good:
            words = self._score(work, points, stat, what + " is good.")
        else:
            words = what + " no good."
        return words + " " + self._kickoff(work, scorer, True) + " (Onside kick allowed.)"

    def _score(self, work, points, stat, words) -> str:
        team = work["offense"]
        work["score"][team] += points
        work["stats"][team][stat] += 1
        work["target"] = None
        work["dice"] = None
        if points == POINTS_TD:
            work["phase"] = "conversion"
        return "%s %d-%d" % (words, work["score"][0], work["score"][1])

    def _settle(self, work) -> str:
        """End the quarter once its plays are used and the ball is dead."""
        if work["phase"] not in ("scrimmage", "kickoff"):
            return ""
        if work["plays"] < self.settings["plays_per_quarter"]:
            return ""
        quarter = work["quarter"]
        quarters = self.settings["quarters"]
        words = " End of %s: change ends." % _quarter_text(quarter, quarters)
        if quarter >= quarters and work["score"][0] != work["score"][1]:
            winner = 0 if work["score"][0] > work["score"][1] else 1
            work["winner"] = winner
            work["phase"] = "over"
            return " End of %s. Final: %s wins %d-%d." % (
                _quarter_text(quarter, quarters), self.name(winner), work["score"][0], work["score"][1])
        work["plays"] = 0
        work["ends"] = [work["ends"][1], work["ends"][0]]
        if quarter < quarters:
            work["quarter"] = quarter + 1
            if quarter * 2 == quarters:
                work["phase"] = "half_choice"
                work["onside_ok"] = False
                return words + " Half time: %s picks kick off or receive." % self.name(
                    1 - work["toss_winner"])
            return words
        work["quarter"] = quarter + 1
        work["phase"] = "toss"
        work["onside_ok"] = False
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


def _check_saved(saved: dict, settings: dict) -> None:
    """Raise ValueError unless a restored state is one the engine could have made."""
    phase = saved["phase"]
    _phase_row(phase)  # ValueError for a phase the engine does not have
    broken = None
    if not _is_int(saved["rng"], 1, 0xFFFFFFFF):
        broken = "dice state"
    elif not (_is_int(saved["quarter"], 1, 10000)
              and _is_int(saved["plays"], 0, settings["plays_per_quarter"])):
        broken = "quarter or play counter"
    elif not (_is_int(saved["ball"], 0, 100) and _is_int(saved["down"], 1, 4)
              and _is_int(saved["offense"], 0, 1)):
        broken = "ball, down or possession"
    elif not (isinstance(saved["score"], list) and len(saved["score"]) == 2
              and _is_int(saved["score"][0], 0, 1 << 30) and _is_int(saved["score"][1], 0, 1 << 30)):
        broken = "score"
    elif not (isinstance(saved["stats"], list) and len(saved["stats"]) == 2 and all(
            isinstance(row, list) and len(row) == 4 and all(_is_int(n, 0, 1 << 30) for n in row)
            for row in saved["stats"])):
        broken = "scoring record"
    elif not _score_matches_record(saved["score"], saved["stats"]):
        broken = "score (it is not what the scoring record adds up to)"
    elif saved["toss_winner"] not in ((None, 0, 1) if phase == "toss" else (0, 1)):
        broken = "coin toss"
    elif saved["ends"] is None and phase not in ("toss", "toss_choice", "goal_choice"):
        broken = "choice of goals"
    elif saved["ends"] is not None and saved["ends"] not in (["north", "south"], ["south", "north"]):
        broken = "choice of goals"
    elif saved["reached50"] not in (True, False) or saved["onside_ok"] not in (True, False):
        broken = "field goal or onside flag"
    elif saved["winner"] not in ((0, 1) if phase == "over" else (None,)):
        broken = "winner"
    elif saved["dice"] is not None and not (isinstance(saved["dice"], list) and len(saved["dice"]) == 2
                                        and saved["dice"][0] in field.ZONE_FACES
                                        and saved["dice"][1] in field.LANE_SYMBOLS):
        broken = "dice"
    elif (saved["target"] is not None or phase == "attempt") and not field.is_target(saved["target"]):
        broken = "announced play"
    elif (saved["options"] is not None or phase == "choose") and not (
            isinstance(saved["options"], list) and saved["options"]
            and all(field.is_target(t) for t in saved["options"])):
        broken = "list of plays"
    elif not isinstance(saved["message"], str):
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
