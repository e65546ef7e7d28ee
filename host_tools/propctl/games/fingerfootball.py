"""`propctl play fingerfootball`: the Finger Football scoreboard and referee in a terminal.

The players flick and kick on the real field and type what happened; the
referee (rules.fingerfootball, the same engine as the box) rolls or takes the
dice, counts downs and plays, keeps the score and the quarters, and saves the
game atomically so it can be resumed. Bad input never ends the game.
"""
import argparse
import re

from propctl.games.table import (
    SaveFile,
    Table,
    Unusable,
    add_common_options,
    checked_text,
    random_seed,
    refuse_unsavable,
)
from propctl.termtext import ask_wrapped, say_wrapped
from rules import fingerfootball_field as field
from rules.fingerfootball import FingerFootball, make_settings

DEFAULT_SAVE = "fingerfootball-save.json"
SAVE_FILE = SaveFile("propctl fingerfootball save", 1, "Finger Football")
SAVE_FORMAT = SAVE_FILE.format

EPILOG = """\
how a game goes:
  The referee says whose turn it is and lists what may happen next, e.g.
      Red: roll | punt | field_goal
  Type one of them (or its number). After a flick, report where the slider
  stopped: made (on or touching the circle), missed, fumble (touching a red
  football), flag (touching a yellow flag), touchdown, touchback.

what you type:
  roll                    the referee rolls both dice for the defence
  roll 2-run left         ... or type the faces of your real dice
  toss  /  toss Red       the referee tosses, or a real coin was won by Red
  target opp2 pass left   announce a play on CHOICE (or: target touchdown)
  in_field 35             a kick stopped on the receiver's 35 (or: opp 45, 50)
  fumble 40               the red football is on the 40 of the team that gets
                          the ball
  punt, field_goal, go_for_td, good, no_good, accept, refuse, extra_point, ...

at any prompt:
  help   this list of commands      board   the scoreboard again
  save   save now                   undo    take back the last entry
  quit   stop (asks whether to save); Ctrl-C asks as well; end of input saves.

the field as the referee sees it:
  Yard lines count from the goal line of the team with the ball (own 20 .. 50
  .. opp 20). Each half has Zone 3 (by the end zone), Zone 2 and Zone 1 (by
  midfield), with their row of symbols on the 20, 30 and 40 (see --rows). A
  made play moves the ball to the row of the circle it was aimed at.

examples:
  propctl play fingerfootball --names Red,Blue
  propctl play fingerfootball --names Ann,Bo --save ann-bo.json --autosave
  propctl play fingerfootball --resume ann-bo.json
  propctl play fingerfootball --lane-die left,middle,right,choice,td,td
Exit codes: 0 game finished, saved or stopped; 1 unusable save file, or the
last save failed; 2 bad command line (a --save file that cannot be written).
"""

HELP = ("commands: help, board, save, undo, quit. Otherwise type an action from the list "
        "(or its number), with its value if it takes one: roll 2-run left, in_field 35, "
        "target opp2 pass left, toss Red.")

# What each action means at the table, shown next to the list of choices.
ACTION_HINTS = {
    "toss": "toss the coin (or: toss NAME, the winner of a real coin)",
    "kick": "kick off",
    "receive": "receive the kickoff",
    "goal": "defend the north or south goal",
    "onside": "announce an onside kick (70 yards onto the opponent's 30 run circles)",
    "good": "it is good",
    "no_good": "it is not good",
    "roll": "the defence rolls the dice (or type your dice: roll 2-run left)",
    "punt": "announce a punt",
    "field_goal": "announce a field goal try",
    "go_for_td": "go for a touchdown",
    "target": "announce the play",
    "made": "the slider rests on or touching the circle",
    "missed": "it did not make it (back to the line, loss of down)",
    "touchdown": "the slider rests completely inside the end zone",
    "touchback": "it went through the end zone and off the field",
    "fumble": "touching a red football: give the yard line from the defence's goal",
    "flag": "touching a yellow penalty flag",
    "accept": "take the penalty: back 15 yards (or half the distance) and loss of down",
    "refuse": "refuse the penalty: back to the line, normal loss of down",
    "extra_point": "kick for 1 point",
    "two_point": "flick from the own 30 into the end zone for 2 points",
}


def register(subparsers) -> None:
    """Add `fingerfootball` under `propctl play`."""
    parser = subparsers.add_parser(
        "fingerfootball", help="scoreboard and referee for Finger Football (dice, downs, score)",
        description="A terminal scoreboard and referee for Finger Football: it tosses the coin, "
                    "rolls the two dice (or takes yours), counts downs, plays and quarters, keeps "
                    "the score, and saves the game so it can be resumed.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--names", metavar="A,B", default="Home,Away",
                        help="the two teams, comma-separated (default: Home,Away)")
    add_common_options(parser, DEFAULT_SAVE,
                       "seed the coin and dice, for a reproducible game (default: random)")
    parser.add_argument("--autosave", action="store_true",
                        help="save after every entry, not only on save/quit/Ctrl-C/end of input")
    parser.add_argument("--plays", type=int, default=20, metavar="N",
                        help="plays per quarter (default: 20)")
    parser.add_argument("--quarters", type=int, default=4, metavar="N",
                        help="quarters in regulation, an even number (default: 4)")
    parser.add_argument("--lane-die", metavar="FACES",
                        help="the six faces of the second die, comma-separated, from left, middle, "
                             "right, choice, td; all five must appear (default: %s)"
                             % ",".join(field.DEFAULT_LANE_DIE))
    parser.add_argument("--rows", metavar="Z3,Z2,Z1",
                        help="yard lines of the symbol rows of Zone 3, 2 and 1 in each half "
                             "(default: %s)" % ",".join(str(r) for r in field.DEFAULT_ROWS))
    parser.set_defaults(func=run)


def run(args, ask=ask_wrapped, say=say_wrapped) -> int:
    """Entry point for `propctl play fingerfootball`; ask/say are injectable for tests."""
    if args.resume:
        try:
            game = load(args.resume)
        except Unusable as exc:
            say("error: %s cannot be resumed: %s" % (args.resume, exc))
            return 1
        say("Resuming the game saved in %s." % args.resume)
        save_path = args.save or args.resume
    else:
        try:
            game = FingerFootball(random_seed(args.seed), settings_from_args(args))
        except ValueError as exc:
            say("error: %s" % exc)
            return 2
        save_path = args.save or DEFAULT_SAVE
    if refuse_unsavable(save_path, say):
        return 2
    return Referee(game, save_path, ask, say, autosave=args.autosave).play()


def settings_from_args(args) -> dict:
    """Engine settings from the command line; ValueError explains a bad value."""
    names = [checked_text(n.strip(), "--names") for n in args.names.split(",")]
    if len(names) != 2 or not all(names):
        raise ValueError("--names needs two team names separated by a comma, got %r" % args.names)
    if names[0].lower() == names[1].lower():
        raise ValueError("--names: the two teams need different names")
    settings = {"names": names, "plays_per_quarter": args.plays, "quarters": args.quarters}
    if args.lane_die:
        settings["lane_die"] = [f.strip().lower() for f in args.lane_die.split(",")]
    if args.rows:
        try:
            settings["rows"] = [int(r) for r in args.rows.split(",")]
        except ValueError:
            raise ValueError("--rows needs three whole yard lines, e.g. 20,30,40") from None
    return make_settings(settings)


def save(game, path) -> None:
    """Write the game to `path` atomically (old file or new file, never half)."""
    SAVE_FILE.write(path, {"game": game.snapshot()})


def load(path) -> FingerFootball:
    """A saved game; Unusable says why a file cannot be used."""
    data = SAVE_FILE.read(path)
    try:
        game = FingerFootball.restore(data["game"])
        for name in game.settings["names"]:
            checked_text(name, "a team name")
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise Unusable("the saved game is damaged (%s)" % exc) from None
    return game


class Referee(Table):
    """The terminal loop: shows the board, reads entries, applies them to the engine."""

    game_name = "fingerfootball"
    help_text = HELP

    def __init__(self, game, save_path, ask, say, autosave=False) -> None:
        super().__init__(ask, say, save_path, SAVE_FILE)
        self.game = game
        self.autosave = autosave
        self.history: list = []  # earlier snapshots, for undo
        self.changed = True  # show the board before the next prompt

    def play(self) -> int:
        """Run until the game ends or the table stops; returns the exit code."""
        self.say("Finger Football referee: %s v %s. Type `help` at any prompt."
                 % (self.game.name(0), self.game.name(1)))
        self.say(self.game.state["message"])
        return self.run_to_end()

    def over(self) -> bool:
        return self.game.state["phase"] == "over"

    def finish(self) -> None:
        self.show_board()

    def step(self) -> None:
        game = self.game
        if self.changed:
            self.show_board()
            self.changed = False
        actions = game.actions()
        actor = game.actor()
        who = game.name(actor) if actor is not None else "Referee"
        # A lone choice (goal, announced play) is answered directly, without its action name.
        lone = actions[0] if len(actions) == 1 and actions[0][1] == "pick" else None
        if lone is None:
            self.say("%s: %s" % (who, " | ".join("%d) %s" % (i + 1, spoken(a[0]))
                                                 for i, a in enumerate(actions))))
        elif len(lone[2]) <= 8:
            self.say("%s, %s: %s" % (who, spoken(lone[0]), " | ".join(
                "%d) %s" % (i + 1, o) for i, o in enumerate(lone[2]))))
        else:
            self.say("%s, announce the play: %s (e.g. opp2 pass left)" % (who, plays_text(lone[2])))
        text = self.ask("%s> " % who)
        if not text:
            return
        if lone is not None and text.split()[0].lower() != lone[0]:
            text = lone[0] + " " + text
        chosen = chosen_by_number(text, actions)
        if chosen is not None and chosen[1] in ("yards", "pick"):
            # the menu's number chose an action that takes a value: ask for it
            value = self.ask("%s: %s (Enter: back)> " % (spoken(chosen[0]), value_wanted(chosen)))
            if not value:
                return
            text = "%s %s" % (chosen[0], value)
        try:
            name, arg = parse_entry(text, actions, game)
            snapshot = game.snapshot()
            message = game.act(name, arg)[0]["message"]  # the "play" event: what happened
        except ValueError as exc:
            self.say("  %s" % exc)
            return
        self.history.append(snapshot)
        self.changed = True
        self.say(">> " + message)
        if self.autosave:
            self.save(quiet=True)

    def commands(self) -> dict:
        return {"board": self.show_board, "undo": self.undo}

    def show_help(self) -> None:
        self.say(HELP)
        self.show_hints()

    def undo(self) -> bool:
        """Take back the last entry; True: the choices changed, ask again from the top."""
        if not self.history:
            self.say("  nothing to undo")
            return True
        self.game = FingerFootball.restore(self.history.pop())
        self.say("  Undone. " + self.game.state["message"])
        self.changed = True
        return True

    def show_hints(self) -> None:
        for name in self.game.action_names():
            self.say("  %-13s %s" % (name, ACTION_HINTS.get(name, _result_hint(name, self.game))))

    def show_board(self) -> None:
        """The scoreboard: quarter, play counter, score, ball, down."""
        for line in board_lines(self.game):
            self.say(line)

    def save_body(self) -> dict:
        return {"game": self.game.snapshot()}


def _result_hint(name: str, game) -> str:
    phase = game.state["phase"]
    if name == "in_field":
        return "it stopped on the field: the receiver's yard line, e.g. in_field 35 or in_field opp 45"
    if name == "end_zone":
        return "it touched the goal line or went into or through the end zone: receiver's 20"
    if name == "out_of_bounds" and phase == "kickoff":
        return "it went out of bounds: penalty, receiver's 40"
    if name == "out_of_bounds":
        return "it crossed the sideline: the receiver's yard line there, e.g. out_of_bounds 30"
    return ""


def board_lines(game) -> list:
    """The scoreboard as a few lines of text."""
    snap = game.snapshot()
    settings = game.settings
    quarter = snap["quarter"]
    if quarter > settings["quarters"]:
        period = "OT%d" % (quarter - settings["quarters"])
    else:
        period = "Q%d" % quarter
    lines = ["", "==== %s  play %d/%d ====  %s %d : %d %s" % (
        period, snap["plays"], settings["plays_per_quarter"], game.name(0), snap["score"][0],
        snap["score"][1], game.name(1))]
    phase = snap["phase"]
    offense = game.name(snap["offense"])
    if phase == "over":
        lines.append("Game over: %s wins." % game.name(snap["winner"]))
        return lines
    if phase in ("scrimmage", "choose", "attempt", "penalty", "punt", "field_goal"):
        zone = snap["zone"]
        fg = "field goal allowed" if snap["reached50"] else "no field goal before the 50"
        lines.append("%s ball, %s down on the %s (%s Zone %s); %s." % (
            offense, ("1st", "2nd", "3rd", "4th")[snap["down"] - 1], snap["line"], zone[:3],
            zone[3], fg))
    if snap["dice"]:
        lines.append("Dice: %s / %s" % (snap["dice"][0], snap["dice"][1]))
    if snap["target"]:
        lines.append("Play: %s" % target_text(game, snap["target"]))
    if snap["ends"] and phase != "toss":
        lines.append("%s defends the %s goal, %s the %s goal." % (
            game.name(0), snap["ends"][0], game.name(1), snap["ends"][1]))
    return lines


def spoken(name: str) -> str:
    """An action as the table says it: in_field -> in field (typed either way)."""
    return name.replace("_", " ")


def chosen_by_number(text: str, actions):
    """The action a lone menu number chooses (its value still to come), else None."""
    words = text.split()
    if len(words) == 1 and words[0].isdigit() and words[0].isascii() and 1 <= int(words[0]) <= len(actions):
        return actions[int(words[0]) - 1]
    return None


def value_wanted(action) -> str:
    """What to type for an action's value, e.g. "the yard line 1..99 (own 1 to opp 1), e.g. 35"."""
    name, kind, options = action
    if kind == "yards":
        lo, hi = options
        return "the yard line %d..%d (%s to %s), e.g. %d or opp 45" % (
            lo, hi, field.yard_text(lo), field.yard_text(hi), max(lo, min(hi, 35)))
    if len(options) <= 8:
        return "one of %s" % ", ".join("%d) %s" % (i + 1, o) for i, o in enumerate(options))
    return "a play: %s" % plays_text(options)


def plays_text(options) -> str:
    """The plays that may be announced, grouped by zone: "opp1 run or pass, left, middle or right;
    opp2 run left, ...; touchdown"."""
    zones: dict = {}
    for option in options:
        parts = option.split(" ")
        if len(parts) > 1:
            zones.setdefault(parts[0], []).append(" ".join(parts[1:]))
    every = ["%s %s" % (kind, lane) for kind in ("run", "pass") for lane in ("left", "middle", "right")]
    groups = []
    for zone, plays in zones.items():
        if sorted(plays) == sorted(every):
            groups.append("%s run or pass, left, middle or right" % zone)
        else:
            groups.append(", ".join("%s %s" % (zone, play) for play in plays))
    if field.TOUCHDOWN in options:
        groups.append(field.TOUCHDOWN)
    return "; ".join(groups)


def target_text(game, target: str) -> str:
    """A target as words, with the yard line it leads to."""
    if target == field.TOUCHDOWN:
        return "touchdown (rest completely inside the end zone)"
    spot = field.row_yards(field.target_zone(target), game.settings["rows"])
    return "%s, to the %s" % (target, field.yard_text(spot))


MULTI_WORD = ("go_for_td", "out_of_bounds", "in_field", "end_zone", "no_good", "field_goal",
              "extra_point", "two_point")  # typed with spaces too: in field 35, no good


def parse_entry(text: str, actions, game):
    """(action name, engine argument) from a typed line; ValueError explains a mistake."""
    words = text.split()
    for name in MULTI_WORD:
        size = name.count("_") + 1
        if len(words) > size - 1 and "_".join(words[:size]).lower() == name:
            words = [name] + words[size:]
            break
    head = words[0].lower()
    rest = words[1:]
    if head.isdigit():
        number = int(head)
        if not 1 <= number <= len(actions):
            raise ValueError("choose 1 to %d" % len(actions))
        action = actions[number - 1]
    else:
        head = head.replace("-", "_")
        head = {"td": "go_for_td", "fg": "field_goal"}.get(head, head)
        matches = [a for a in actions if a[0] == head]
        if not matches:
            matches = [a for a in actions if a[0].startswith(head)]
        if len(matches) > 1:
            raise ValueError("'%s' could be: %s" % (head, ", ".join(a[0] for a in matches)))
        if not matches:
            # Not possible now: the engine says why (e.g. a field goal before the 50).
            return head, None
        action = matches[0]
    name, kind, options = action
    if kind == "none":
        if rest:
            raise ValueError("'%s' takes no value" % name)
        return name, None
    if kind == "yards":
        if not rest:
            raise ValueError(yards_wanted(name, options))
        return name, parse_yards(rest, name, options)
    if kind == "pick":
        return name, parse_pick(rest, options, name)
    if kind == "team":
        return name, parse_team(rest, game) if rest else None
    return name, parse_dice(rest) if rest else None


def yards_wanted(name: str, limits) -> str:
    """What `name` takes: its range of yard lines, as numbers and as players say them, and examples."""
    lo, hi = limits
    near, far = max(lo, min(hi, 35)), max(lo, min(hi, 55))
    return "'%s' needs a yard line %d..%d (%s to %s), e.g. %s %d or %s %s" % (
        name, lo, hi, field.yard_text(lo), field.yard_text(hi), name, near, name, field.yard_text(far))


def parse_yards(words, name: str = "in_field", limits=(1, 99)) -> int:
    """'35' -> 35, 'own 35' -> 35, 'opp 35' -> 65, '50' -> 50 (from the receiving team's goal);
    ValueError naming the range of `name` for anything else or a line outside `limits`."""
    text = " ".join(words).lower()
    found = re.fullmatch(r"(own|opp)?\s*(\d{1,3})", text)
    if not found:
        raise ValueError(yards_wanted(name, limits))
    yards = int(found.group(2))
    if found.group(1) == "opp":
        yards = 100 - yards
    if not limits[0] <= yards <= limits[1]:
        raise ValueError(yards_wanted(name, limits))
    return yards


def parse_pick(words, options, name) -> str:
    """One of `options`: by number, in full, or 'opp 2 run left' spaced differently."""
    text = " ".join(words).lower()
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1]
    if text in ("td", "touchdown"):
        text = field.TOUCHDOWN
    text = re.sub(r"\b(own|opp)\s+([123])\b", r"\1\2", text)
    if text in options:
        return text
    matches = [o for o in options if o.startswith(text)] if text else []
    if len(matches) == 1:
        return matches[0]
    if len(options) <= 6:
        raise ValueError("'%s' needs one of: %s" % (spoken(name), ", ".join(options)))
    raise ValueError("%s is not a play that can be announced now; the plays: %s"
                     % (repr(text) if text else "nothing", plays_text(options)))


def parse_team(words, game) -> int:
    """A team by name (or an unambiguous start of it)."""
    text = " ".join(words).lower()
    names = [game.name(0).lower(), game.name(1).lower()]
    if text in names:
        return names.index(text)
    matches = [i for i in (0, 1) if names[i].startswith(text)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError("the coin was won by %s or %s" % (game.name(0), game.name(1)))


def parse_dice(words) -> list:
    """Real dice as typed: '2-run left', '2run left', '2 run left', 'z2 pass td'."""
    text = " ".join(words).lower()
    found = re.fullmatch(r"z?([123])\s*-?\s*(run|pass)\s+(\w+)", text)
    if not found:
        raise ValueError("dice are typed like: roll 2-run left (zone 1-3, run or pass, then "
                         "left, middle, right, choice or td)")
    return ["%s-%s" % (found.group(1), found.group(2)), found.group(3)]
