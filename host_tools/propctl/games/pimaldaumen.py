"""`propctl play pimaldaumen`: a terminal game master for Pi mal Daumen.

It says who asks and which question to read, takes the guesses, moves the
pieces (bonus and minus fields included), shows the track and names the
winner. Bad input never ends the game; Ctrl-C asks whether to save. The rules
are rules.pimaldaumen; the game master is in parts, one concept each:

    pimaldaumen          the command line (this module)
    pimaldaumen_session  one game at the table: the loop, the prompts
    pimaldaumen_screen   what the table is told: questions, points, moves, the track
    pimaldaumen_pile     which question next: the deck, this game's reads, the play history
    pimaldaumen_setup    names, card files and board file, checked (SetupError)
    pimaldaumen_save     a save read back and checked before the game resumes
"""
import argparse
from pathlib import Path

from propctl.cards import lang as langs
from propctl.games.pimaldaumen_pile import AUTO
from propctl.games.pimaldaumen_session import DEFAULT_SAVE, Session
from propctl.games.pimaldaumen_setup import SetupError
from propctl.games.table import add_common_options, refuse_unsavable, shown
from propctl.shared.cardpack.question import FRAMES
from propctl.shared.rules.pimaldaumen import MAX_PLAYERS, MIN_PLAYERS
from propctl.termtext import ask_wrapped, say_wrapped

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_BOARD = DATA / "pimaldaumen_board.json"

EPILOG = """\
how a game goes:
  Name the players in clockwise order; the first one asks the first question
  (or name the starter with --first). The questions come from the deck
  shipped in --lang (de or en; default from the locale), or from --deck.
  The game master then says who reads which card and which colour: the
  colour of the field the questioner stands on (salmon from the start). The
  others answer in turn, starting left of the questioner; type each answer
  as a number (175, 3.5 or 3,5; "1,050" is refused as ambiguous: type 1050
  or 1.05). No question is read twice in a game until every question of its
  colour has been read. Points move the pieces; the track, bonus questions,
  minus fields and the winner are shown.

across games:
  The game master remembers which questions this household has heard (a
  play history in ~/.local/share/propctl, or $XDG_DATA_HOME/propctl) and
  reads those not heard before: the white frame first, then the violet one,
  as the rulebook says. When every question of a colour has been heard, it
  says so and repeats the one heard longest ago. --fresh forgets the
  history of the deck; --family plays only the family cards (age 10+).

at any prompt:
  help    these commands          track   the track and every piece
  save    save the game now       quit    stop (asks whether to save)
  Ctrl-C also asks whether to save. The game is saved automatically before
  every question, so even a closed terminal loses at most one question.

examples:
  propctl play pimaldaumen --players Peter,Wolfgang,Baerbel,Gaby --lang de
  propctl play pimaldaumen --players Ann,Bo --deck deck.bin --frame violet
  propctl play pimaldaumen --players Mia,Leo,Mum --family --lang de
  propctl play pimaldaumen --players Ann,Bo --save ann-bo.json
  propctl play pimaldaumen --resume ann-bo.json

The deck is a question-card file (CSV or JSON, see `propctl cards check`) or
a pack written by `propctl cards pack`. The board defaults to a STAND-IN
track (the printed board's layout is not known; the game master says so when
it starts): see --board.
Exit codes: 0 game finished or saved, 1 unusable deck/board/save file, the save
in use by another game, or the last save failed; 2 bad command line (a --save
file that cannot be written).
"""


def register(subparsers) -> None:
    """Add `pimaldaumen` under `propctl play`."""
    parser = subparsers.add_parser(
        "pimaldaumen", help="game master for Pi mal Daumen (question cards, scale, track)",
        description="A terminal game master for Pi mal Daumen: it runs the question rounds, "
                    "scores every guess on the card's scale, moves the pieces on the track "
                    "and saves the game so it can be resumed.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", metavar="NAMES",
                        help="%d-%d names, comma-separated, in clockwise order around the table"
                             % (MIN_PLAYERS, MAX_PLAYERS))
    parser.add_argument("--deck", metavar="FILE", nargs="+",
                        help="question cards: CSV or JSON files, or a .bin pack "
                             "(default: the deck shipped in --lang)")
    parser.add_argument("--first", metavar="NAME", help="who asks first (default: the first name)")
    parser.add_argument("--frame", choices=FRAMES + (AUTO,), default=AUTO,
                        help="which side's questions to read: auto (default: white ones not heard "
                             "before, then violet ones), white, or violet")
    parser.add_argument("--family", action="store_true",
                        help="only the family cards (questions a child of ten can reason about)")
    parser.add_argument("--fresh", action="store_true",
                        help="forget which questions earlier games read (the play history of the deck)")
    parser.add_argument("--board", metavar="FILE", default=str(DEFAULT_BOARD),
                        help="board layout as JSON (default: the stand-in board shipped with propctl)")
    langs.add_argument(parser, "the shipped questions")
    add_common_options(parser, DEFAULT_SAVE, "shuffle the deck reproducibly with this seed")
    parser.set_defaults(func=run)


def run(args, ask=ask_wrapped, say=say_wrapped) -> int:
    """Entry point for `propctl play pimaldaumen`; ask/say are injectable for tests."""
    ask, say = shown(ask, say)
    try:
        if args.resume:
            session = Session.resume(args.resume, args.save, ask, say)
        else:
            if not args.players:
                say("error: a new game needs --players (or --resume FILE)")
                return 2
            session = Session.new(args, ask, say)
    except SetupError as exc:
        say("error: %s" % exc)
        return exc.code
    if refuse_unsavable(session.save_path, say):
        return 2
    return session.play()
