"""`propctl play fingerfootball`: the Finger Football scoreboard and referee in a terminal.

The players flick and kick on the real field and type what happened; the
referee (rules.fingerfootball, the same engine as the box) rolls or takes the
dice, counts downs and plays, keeps the score and the quarters, and saves the
game atomically so it can be resumed. Bad input never ends the game.
"""
import argparse

from propctl.argtypes import Whole
from propctl.games.fingerfootball_words import (
    board_lines,
    chosen_by_number,
    parse_entry,
    plays_text,
    result_hint,
    spoken,
    value_wanted,
)
from propctl.games.table import (
    SaveFile,
    Table,
    Unusable,
    add_common_options,
    checked_name,
    new_game_save_path,
    random_seed,
    refuse_unsavable,
    shown,
)
from propctl.shared.rules import fingerfootball_field as field
from propctl.shared.rules.fingerfootball import FingerFootball, make_settings
from propctl.termtext import ask_wrapped, say_wrapped

DEFAULT_SAVE = "fingerfootball-save.json"
SAVE_FILE = SaveFile("propctl fingerfootball save", 1, "Finger Football")
SAVE_FORMAT = SAVE_FILE.format

EPILOG = """\
how a game goes:
  The referee says whose turn it is and lists what may happen next, e.g.
      Red: 1) roll | 2) punt | 3) field goal
  Type its number or its name. After a flick, report where the slider
  stopped: made (on or touching the circle), missed, fumble (touching a red
  football), flag (touching a yellow flag), touchdown, touchback.

what you type:
  roll                    the referee rolls both dice for the defence
  roll 2-run left         ... or type the faces of your real dice
  toss  /  toss Red       the referee tosses, or a real coin was won by Red
  target opp2 pass left   announce a play on CHOICE (or: target touchdown): the
                          zone whose circle it aims at (own3 by its own end
                          zone ... opp3 by the other), run or pass, the lane
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
  propctl play fingerfootball --port auto   # the referee at the football box:
                          # its buttons play, you type only what they cannot say
Exit codes: 0 game finished, saved or stopped; 1 unusable save file, the save
in use by another game, the last save failed, or (--port) no football box
answered; 2 bad command line (a --save file that cannot be written).
"""

# What an announced play's words mean (the prompt, help and the sims say it)
PLAY_WORDS = ("the zone whose circle it aims at (own3 by its own end zone ... opp3 by the "
              "other), run or pass, and the lane")

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
    "target": "announce the play: " + PLAY_WORDS,
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
    parser.add_argument("--names", metavar="A,B",
                        help="the two teams, comma-separated (default: Home,Away)")
    add_common_options(parser, DEFAULT_SAVE,
                       "seed the coin and dice, for a reproducible game (default: random)")
    parser.add_argument("--autosave", action="store_true",
                        help="save after every entry, not only on save/quit/Ctrl-C/end of input")
    parser.add_argument("--plays", type=Whole(1, 1000), metavar="N",
                        help="plays per quarter, 1..1000 (default: 20)")
    parser.add_argument("--quarters", type=Whole(2, 100), metavar="N",
                        help="quarters in regulation, an even number 2..100 (default: 4)")
    parser.add_argument("--lane-die", metavar="FACES",
                        help="the six faces of the second die, comma-separated, from left, middle, "
                             "right, choice, td; all five must appear (default: %s)"
                             % ",".join(field.DEFAULT_LANE_DIE))
    parser.add_argument("--rows", metavar="Z3,Z2,Z1",
                        help="yard lines of the symbol rows of Zone 3, 2 and 1 in each half "
                             "(default: %s)" % ",".join(str(r) for r in field.DEFAULT_ROWS))
    parser.add_argument("--port", metavar="PORT",
                        help="referee the game of the football box on this serial port (or "
                             "`auto`): its buttons roll, kick and count, and the referee asks "
                             "only what they cannot say; the box keeps the game")
    parser.set_defaults(func=run, usage_problem=usage_problem)
    return parser


# options of a game kept here; with --port the box keeps the game (deploy --set football.*)
GAME_OPTIONS = ("names", "seed", "save", "resume", "autosave", "plays", "quarters", "lane_die", "rows")


def usage_problem(args) -> str:
    """Why the command line cannot work ("" when it can): --port with an option of a game kept here."""
    if getattr(args, "port", None) is None:
        return ""
    given = ["--" + name.replace("_", "-") for name in GAME_OPTIONS
             if getattr(args, name, None) not in (None, False)]
    if given:
        return ("propctl play fingerfootball: --port plays the box's own game, so %s cannot go "
                "with it (the box's names and lengths are its settings: `propctl deploy --port "
                "PORT --set football.names=...`)" % " and ".join(given))
    return ""


def run(args, ask=ask_wrapped, say=say_wrapped) -> int:
    """Entry point for `propctl play fingerfootball`; ask/say are injectable for tests."""
    ask, say = shown(ask, say)
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
        save_path = new_game_save_path(args.save, DEFAULT_SAVE, say)
    if refuse_unsavable(save_path, say):
        return 2
    return Referee(game, save_path, ask, say, autosave=args.autosave).play()


def settings_from_args(args) -> dict:
    """Engine settings from the command line; ValueError explains a bad value."""
    typed = args.names if args.names is not None else "Home,Away"
    names = [checked_name(n.strip(), "--names") for n in typed.split(",")]
    if len(names) != 2 or not all(names):
        raise ValueError("--names needs two team names separated by a comma, got %r" % typed)
    if names[0].lower() == names[1].lower():
        raise ValueError("--names: the two teams need different names")
    settings = {"names": names, "plays_per_quarter": args.plays if args.plays is not None else 20,
                "quarters": args.quarters if args.quarters is not None else 4}
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
            checked_name(name, "a team name")
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
        self.question = ""  # the last list of choices said, said again after board or save

    def play(self) -> int:
        """Run until the game ends or the table stops; returns the exit code."""
        if self.in_use():
            return 1
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
            self.question = "%s: %s" % (who, " | ".join("%d) %s" % (i + 1, spoken(a[0]))
                                                        for i, a in enumerate(actions)))
        elif len(lone[2]) <= 8:
            self.question = "%s, %s: %s" % (who, spoken(lone[0]), " | ".join(
                "%d) %s" % (i + 1, o) for i, o in enumerate(lone[2])))
        else:
            self.question = "%s, announce the play: %s (e.g. opp2 pass left: %s)" % (
                who, plays_text(lone[2]), PLAY_WORDS)
        self.say(self.question)
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

    def repeat_question(self) -> None:
        if self.question:
            self.say(self.question)

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
            self.say("  %-13s %s" % (name, ACTION_HINTS.get(name, result_hint(name, self.game))))

    def show_board(self) -> None:
        """The scoreboard: quarter, play counter, score, ball, down."""
        for line in board_lines(self.game):
            self.say(line)

    def save_body(self) -> dict:
        return {"game": self.game.snapshot()}
