"""`propctl play pimaldaumen`: a terminal game master for Pi mal Daumen.

It says who asks and which question to read, takes the guesses, moves the
pieces (bonus and minus fields included), shows the track and names the
winner. Bad input never ends the game; Ctrl-C asks whether to save. The rules
are rules.pimaldaumen; this module only talks to the table and keeps files.
"""
import argparse
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from cardpack import Pack, PackError
from cardpack.question import FRAMES, QuestionCard
from cardpack.question import check_version as check_pack_version
from cardpack.question import decode as decode_card
from propctl.cards import lang as langs
from propctl.cards.history import DeckHistory, History
from propctl.cards.load import MAX_FILE_BYTES, load_deck
from propctl.games.table import (
    SaveFile,
    Table,
    Unusable,
    add_common_options,
    checked_name,
    random_seed,
    refuse_unsavable,
    shown,
)
from propctl.inputfile import InputFileError, open_regular, read_regular
from propctl.termtext import ask_wrapped, say_wrapped
from rules.pimaldaumen import (
    BONUS_GUESS,
    BONUS_QUESTION,
    CHOOSE,
    COLOURS,
    GUESS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    QUESTION,
    TOP,
    Board,
    Game,
)
from rules.rng import Rng

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_BOARD = DATA / "pimaldaumen_board.json"
DEFAULT_SAVE = "pimaldaumen-save.json"
AUTO = "auto"  # --frame: white questions first, violet ones once the white are played (the rulebook)
SHIPPED_DECK = "pimaldaumen/shipped"  # history name: the shipped decks share card ids across languages
SAVE_FILE = SaveFile("propctl pimaldaumen save", 1, "Pi mal Daumen")

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
Exit codes: 0 game finished or saved, 1 unusable deck/board/save file, or the
last save failed; 2 bad command line (a --save file that cannot be written).
"""

HELP = ("commands: help, track (show the track), save (save now), quit (stop, asks to save); "
        "otherwise answer with a number")


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


class SetupError(Exception):
    """A game cannot start: bad names, deck, board or save file."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def parse_names(text: str) -> list:
    """Player names from "A, B, C": 2-6, unique, non-empty."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise SetupError("--players: an empty name in %r; separate names with commas" % text, 2)
    return check_names(names)


def check_names(names: list) -> list:
    """`names` if they are 2-6 different, non-empty, showable texts; SetupError (exit 2) if not."""
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise SetupError("--players: every player needs a name", 2)
        try:
            checked_name(n, "--players")
        except ValueError as exc:
            raise SetupError(str(exc), 2) from None
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError("--players: Pi mal Daumen is for %d to %d players, got %d"
                         % (MIN_PLAYERS, MAX_PLAYERS, len(names)), 2)
    lower = [n.lower() for n in names]
    for n in names:
        if lower.count(n.lower()) > 1:
            raise SetupError("--players: %r appears twice; every player needs a different name" % n, 2)
    return names


def load_cards(paths, family=False) -> list:
    """Question cards from CSV/JSON files or one .bin pack; SetupError listing every problem.

    `family`: only the cards marked family (a pack does not keep the mark).
    """
    paths = [str(p) for p in paths]
    if len(paths) == 1 and _is_pack(paths[0]):
        if family:
            raise SetupError("--family needs the deck as CSV or JSON: a pack (%s) does not keep which "
                             "cards are family cards" % paths[0], 2)
        try:
            pack = Pack(io.BytesIO(read_regular(paths[0], MAX_FILE_BYTES)), kind="QUES")
            check_pack_version(pack)
            pack.verify()
            return [decode_card(pack.record(k)) for k in range(len(pack))]
        except (InputFileError, OSError, PackError) as exc:
            raise SetupError("deck %s: %s" % (paths[0], exc)) from None
    deck = load_deck(paths, "questions")
    if deck.problems:
        lines = [str(p) for p in deck.problems]
        raise SetupError("the deck has %d problem%s (see `propctl cards check`):\n  %s"
                         % (len(lines), "" if len(lines) == 1 else "s", "\n  ".join(lines)))
    if not family:
        return deck.cards
    cards = [card for card in deck.cards if getattr(card, "family", False)]
    if not cards:
        raise SetupError("--family: the deck has no family cards (\"family\": true)")
    return cards


def history_name(deck_paths: List[str]) -> str:
    """The play history's name for a deck: one for the shipped decks (their card ids are the same
    questions in every language), else the files themselves."""
    shipped = set(str(langs.shipped("questions", lang).resolve()) for lang in langs.LANGS)
    if all(str(Path(p).resolve()) in shipped for p in deck_paths):
        return SHIPPED_DECK
    return "pimaldaumen/" + ",".join(str(Path(p).resolve()) for p in deck_paths)


def question_key(card_id: str, frame: str, colour: str) -> str:
    """A question's key in the play history."""
    return "%s/%s/%s" % (card_id, frame, colour)


def _is_pack(path: str) -> bool:
    # opened without blocking (a FIFO waited here for a writer forever); anything but a regular
    # file is left to load_deck, which says what it is
    try:
        with open_regular(path) as stream:
            return stream.read(4) == b"CPAK"
    except (InputFileError, OSError):
        return False


def stand_in(board_data) -> bool:
    """True for a board file that says it is a stand-in for the printed board."""
    words = "%s %s" % (board_data.get("name", ""), board_data.get("note", ""))
    return "stand-in" in words.lower()


def load_board(path) -> dict:
    """Board data from a JSON file, validated by the rules core."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        Board(data)
    except OSError as exc:
        raise SetupError("board %s: cannot be read: %s" % (path, exc.strerror or exc)) from None
    except ValueError as exc:
        raise SetupError("board %s: %s" % (path, exc)) from None
    return data


def checked_read(read, order: List[str], frame: str) -> Set[Tuple[str, str, str]]:
    """A save's questions read, [[card id, frame, colour], ...], as a set; Unusable if damaged.

    Saves from before the frame was kept per question list [card id, colour]: their frame.
    """
    if not isinstance(read, list):
        raise Unusable("its list of questions read is damaged")
    known = set(order)
    items = set()
    for item in read:
        if isinstance(item, list) and len(item) == 2 and frame in FRAMES:
            item = [item[0], frame, item[1]]
        if (not isinstance(item, list) or len(item) != 3 or not isinstance(item[0], str)
                or item[0] not in known or item[1] not in FRAMES or item[2] not in COLOURS):
            raise Unusable("its list of questions read is damaged (%s)" % json.dumps(item)[:60])
        items.add((item[0], item[1], item[2]))
    return items


@dataclass
class Pile:
    """The question cards in play: their shuffled order, the questions read, the one being read."""

    cards: Dict[str, QuestionCard]  # by id
    frame: str                      # white, violet, or auto (white first, then violet)
    order: List[str]                # card ids in draw order
    seed: int                       # the shuffle's seed
    current: Optional[str] = None   # id of the card being read, or None
    colour: Optional[str] = None    # its colour, fixed when it was drawn
    current_frame: Optional[str] = None  # its frame, fixed when it was drawn
    # (card id, frame, colour) of every question read this game
    read: Set[Tuple[str, str, str]] = field(default_factory=set)
    history: Optional[DeckHistory] = None  # what earlier games read (None: no memory)

    def frames(self) -> Tuple[str, ...]:
        return FRAMES if self.frame == AUTO else (self.frame,)

    def draw(self, colour: str) -> List[str]:
        """Take the question in `colour` heard longest ago; what to tell the table.

        Never heard (in this game or, with a history, in earlier ones) comes
        first, white before violet in auto mode, then the shuffled order. A
        question read in this game comes back only when every question of its
        colour has been read in it.
        """
        notes = []
        best = self._freshest(colour)
        if best is None:
            notes.append("(Every %s question has been read in this game: they repeat from now on.)" % colour)
            self.read = set(item for item in self.read if item[2] != colour)
            best = self._freshest(colour)
        assert best is not None  # a deck has at least one card
        (heard, game, _, _), card_id, frame = best
        if heard and self.history is not None:
            notes.append("(Every %s question of this deck was heard in earlier games, so one repeats: "
                         "the one heard longest ago, in game %d of %d. --fresh forgets the earlier games.)"
                         % (colour, game, self.history.games))
        self.current, self.colour, self.current_frame = card_id, colour, frame
        self.read.add((card_id, frame, colour))
        if self.history is not None:
            self.history.mark(question_key(card_id, frame, colour))
        return notes

    def _freshest(self, colour: str):
        best = None
        for rank, frame in enumerate(self.frames()):
            for index, card_id in enumerate(self.order):
                if (card_id, frame, colour) in self.read:
                    continue
                last = self.history.last_played(question_key(card_id, frame, colour)) \
                    if self.history is not None else None
                sort = (last is not None, last or 0, rank, index)
                if best is None or sort < best[0]:
                    best = (sort, card_id, frame)
        return best

    def question(self):
        """The question in play (card, frame and colour fixed when it was drawn)."""
        assert self.current is not None and self.colour is not None
        return self.cards[self.current].question(self.current_frame or self.frames()[0], self.colour)

    def state(self) -> dict:
        """The pile's part of a save."""
        return {"frame": self.frame, "order": self.order, "current": self.current,
                "current_colour": self.colour, "current_frame": self.current_frame, "seed": self.seed,
                "read": sorted([card, frame, colour] for card, frame, colour in self.read)}


class Session(Table):
    """One game at the table: the game, the names, the shuffled deck and the save file."""

    game_name = "pimaldaumen"
    help_text = HELP
    keep_when_unsure = False  # a Ctrl-C at the save question keeps the last autosave

    def __init__(self, game: Game, names: List[str], pile: Pile, board_data: dict, deck_paths: List[str],
                 save_path, ask, say) -> None:
        super().__init__(ask, say, save_path, SAVE_FILE)
        self.game = game
        self.names = names
        self.pile = pile
        self.board_data = board_data
        self.deck_paths = deck_paths
        self.history: Optional[History] = None  # the play history file (set by new and from_save)
        self.history_trouble = False  # the last history save failed (said once, not at every question)

    # -- starting ---------------------------------------------------------

    @classmethod
    def new(cls, args, ask, say) -> "Session":
        names = parse_names(args.players)
        first = 0
        if args.first:
            matches = [i for i, n in enumerate(names) if n.lower() == args.first.strip().lower()]
            if not matches:
                raise SetupError("--first: %r is not one of the players (%s)"
                                 % (args.first, ", ".join(names)), 2)
            first = matches[0]
        deck = args.deck or [str(langs.shipped("questions", langs.chosen(args)))]
        cards = load_cards(deck, getattr(args, "family", False))
        board_data = load_board(args.board)
        seed = random_seed(args.seed)
        order = [card.id for card in cards]
        Rng(seed).shuffle(order)
        game = Game(Board(board_data), len(names), first)
        deck_paths = [str(Path(p).resolve()) for p in deck]
        history = History.load(warn=say)
        memory = history.deck(history_name(deck_paths))
        if getattr(args, "fresh", False):
            memory.forget()
            say("The play history of this deck is forgotten (--fresh): every question counts as new.")
        memory.begin_game()
        pile = Pile({card.id: card for card in cards}, getattr(args, "frame", AUTO), order, seed,
                    history=memory)
        session = cls(game, names, pile, board_data, deck_paths, args.save or DEFAULT_SAVE, ask, say)
        session.history = history
        return session

    @classmethod
    def resume(cls, path, save_path, ask, say) -> "Session":
        """The game saved in `path`; SetupError "FILE cannot be resumed: why" for any damage."""
        try:
            session = cls.from_save(SAVE_FILE.read(path), save_path or path, ask, say)
        except Unusable as exc:
            raise SetupError("%s cannot be resumed: %s" % (path, exc)) from None
        say("Resuming the game saved in %s." % path)
        return session

    @classmethod
    def from_save(cls, data: dict, save_path, ask, say) -> "Session":
        """A session from a save's data, every part checked before play; Unusable says what is wrong."""
        def item(key, kinds, what):
            value = data.get(key)
            if key not in data or isinstance(value, bool) or not isinstance(value, kinds):
                raise Unusable("its %s is missing or damaged" % what)
            return value

        names = item("names", list, "list of players")
        try:
            check_names(names)
        except SetupError as exc:
            raise Unusable("its players: %s" % str(exc).replace("--players: ", "")) from None
        frame = data.get("frame")
        if frame not in FRAMES + (AUTO,):
            raise Unusable("its frame is %s, not one of %s"
                           % (json.dumps(frame), ", ".join(FRAMES + (AUTO,))))
        try:
            board = Board(data.get("board"))
        except ValueError as exc:
            raise Unusable("its board: %s" % exc) from None
        try:
            game = Game.from_state(board, item("game", dict, "game"))
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            raise Unusable("its game: %s" % (exc if isinstance(exc, ValueError) else "damaged")) from None
        if len(names) != game.players:
            raise Unusable("%d names for %d players" % (len(names), game.players))
        deck = item("deck", list, "list of deck files")
        if not deck or not all(isinstance(p, str) for p in deck):
            raise Unusable("its list of deck files is damaged")
        try:
            cards = load_cards(deck)
        except SetupError as exc:
            raise Unusable(str(exc)) from None
        known = set(card.id for card in cards)
        order = item("order", list, "card order")
        if not order or not all(isinstance(i, str) for i in order) or len(set(order)) != len(order):
            raise Unusable("its card order is damaged")
        missing = [i for i in order if i not in known]
        if missing:
            raise Unusable("the deck no longer has the cards %s" % ", ".join(missing[:5]))
        if "drawn" in data:  # saves from before the play history counted the cards drawn
            drawn = item("drawn", int, "count of cards drawn")
            if not 0 <= drawn <= len(order):
                raise Unusable("it has drawn %d of %d cards" % (drawn, len(order)))
        seed = item("seed", int, "seed")
        current, colour = data.get("current"), data.get("current_colour")
        current_frame = data.get("current_frame", frame if frame in FRAMES else None)
        if current is not None and current_frame not in FRAMES:
            raise Unusable("the card in play has no frame")
        read = checked_read(data.get("read", []), order, frame)  # saves from before "read" remember none
        history = History.load(warn=say)
        pile = Pile({card.id: card for card in cards}, frame, order, seed, current, colour, current_frame,
                    read, history.deck(history_name(deck)))
        session = cls(game, names, pile, data["board"], deck, save_path, ask, say)
        session.history = history
        session.check_card_in_play()
        return session

    def check_card_in_play(self) -> None:
        """Unusable unless the card being read exists and fits the question the game waits for."""
        game, pile = self.game, self.pile
        if pile.current is None:  # the colour of the last card may stay: it is not used
            if game.phase in (GUESS, BONUS_GUESS):
                raise Unusable("it waits for an answer but has no card in play")
            return
        if not isinstance(pile.current, str) or pile.current not in pile.cards:
            raise Unusable("the card in play is not in the deck")
        if pile.colour not in COLOURS:
            raise Unusable("the card in play has no question colour")
        try:
            scale = pile.question().scale
        except (KeyError, ValueError) as exc:
            raise Unusable("the card in play: %s" % exc) from None
        waiting = {GUESS: game.round.scale if game.round is not None else None,
                   BONUS_GUESS: game.bonus_scale}.get(game.phase, scale)
        if list(waiting or []) != list(scale):
            raise Unusable("the open question's scale is not the one of the card in play")

    # -- the game loop -----------------------------------------------------------

    def play(self) -> int:
        """Run the game to its end; returns the exit code."""
        frames = {AUTO: "Questions not heard before, white frame first, then violet.",
                  "white": "White frame questions.", "violet": "Violet frame questions."}
        self.say("Pi mal Daumen: %s. %s Type `help` at any prompt."
                 % (", ".join(self.names), frames[self.pile.frame]))
        if stand_in(self.board_data):
            self.say("Note: the board is a STAND-IN (%s): the printed board's layout is not known, "
                     "so field colours, bonus and minus fields are our guess." % self.board_data.get(
                         "name", "no name"))
        self.show_track()
        if self.game.phase in (GUESS, BONUS_GUESS, CHOOSE):
            self.repeat_question()
        return self.run_to_end()

    def over(self) -> bool:
        return self.game.phase == OVER

    def finish(self) -> None:
        self.show_track()
        winner = self.game.winner
        assert winner is not None  # the game is over
        self.say("%s wins the game!" % self.names[winner])

    def step(self) -> None:
        game = self.game
        if game.phase == QUESTION:
            self.save(quiet=True)  # a closed terminal loses at most this question
            self.say("")
            self.say("--- %s asks. %s stands on field %d, so the %s question is read."
                     % (self.names[game.questioner], self.names[game.questioner],
                        game.positions[game.questioner], game.question_colour))
            question = self.draw()
            self.read_out(game.questioner, question)
            self.report(game.start_round(question.scale))
        elif game.phase == BONUS_QUESTION:
            question = self.draw()
            self.read_out(game.reader, question)
            self.report(game.start_bonus(question.scale))
        elif game.phase in (GUESS, BONUS_GUESS):
            self.take_answer()
        elif game.phase == CHOOSE:
            self.take_choice()

    def draw(self):
        """The next question in the current colour nobody has heard yet (see Pile.draw);
        the play history is saved at once, so a game cut short still counts."""
        for note in self.pile.draw(self.game.question_colour):
            self.say(note)
        if self.history is not None:
            problem = self.history.save()
            if problem and not self.history_trouble:
                self.say("Note: %s; the game goes on without it." % problem)
            self.history_trouble = bool(problem)
        return self.pile.question()

    def read_out(self, reader: int, question) -> None:
        unit = " (%s)" % question.unit if question.unit else ""
        self.say("%s reads card %s, %s frame, %s question:"
                 % (self.names[reader], self.pile.current, self.pile.current_frame, self.pile.colour))
        self.say("    %s%s" % (question.text, unit))

    def repeat_question(self) -> None:
        if self.pile.current is not None:
            self.say("The open question was:")
            self.read_out(self.game.reader, self.pile.question())

    def take_answer(self) -> None:
        game = self.game
        seat = game.guesser
        bonus = game.phase == BONUS_GUESS
        best = game.round.best if game.round is not None and not bonus else 0
        prompt = "%s, %s: " % (self.names[seat], "your one bonus answer" if bonus
                               else "your answer" + (" (beat %d points)" % best if best else ""))
        while True:
            text = self.ask(prompt)
            if not text:
                continue
            try:
                events = game.answer(text)
            except ValueError as exc:
                self.say("  %s" % exc)
                continue
            break
        self.report(events, best)

    def take_choice(self) -> None:
        pending = self.game.pending
        assert pending is not None  # the game waits for this choice (checked on resume too)
        name = self.names[pending["seat"]]
        options = pending["options"]
        here = self.game.positions[pending["seat"]]
        spots = " or ".join("%d%s" % (f, " (stay)" if f == here else "") for f in options)
        self.say("%s may stop on the free bonus field %s instead of moving on to field %d "
                 "(the rest of the points lapse)." % (name, spots, pending["to"]))
        prompt = "%s, stop on field %s? Type the field number, or Enter to move on: " % (
            name, "/".join(str(f) for f in options))
        if len(options) == 1:
            prompt = "%s, stop on field %d? [y/N]: " % (name, options[0])
        while True:
            text = self.ask(prompt).lower()
            if text in ("", "n", "no"):
                field = None
            elif text in ("y", "yes", "j", "ja") and len(options) == 1:
                field = options[0]
            elif text.isdigit():
                field = int(text)
            else:
                self.say("  please answer %s" % ("y or n" if len(options) == 1 else "with a field number"))
                continue
            try:
                events = self.game.choose(field)
            except ValueError as exc:
                self.say("  %s" % exc)
                continue
            self.report(events)
            return

    # -- telling the table what happened ----------------------------------------

    def report(self, events, best=0) -> None:
        finished = False
        for event in events:
            kind = event["event"]
            if kind == "answer":
                self.say("  " + self.describe_answer(event, best))
            elif kind == "move":
                self.say("  " + self.describe_move(event))
            elif kind == "stop":
                self.say("  %s stops on the bonus field %d." % (self.names[event["seat"]], event["field"]))
            elif kind == "questioner":
                self.say("  Nobody reached %d: %s, the questioner, gets %d - %d = %d points."
                         % (TOP, self.names[event["seat"]], TOP, TOP - event["points"], event["points"]))
            elif kind == "bonus":
                finished = True
                self.reveal()
                self.say("*** Bonus question: %s is last on the track and stands on a bonus field. "
                         "%s reads a new card, %s question; %s has one answer, worth double points."
                         % (self.names[event["seat"]], self.names[event["reader"]], event["colour"],
                            self.names[event["seat"]]))
            elif kind == "turn":
                finished = True
                self.reveal()
                self.show_track()
            elif kind == "win":
                finished = True
                self.reveal()
                self.say("*** %s reaches the goal!" % self.names[event["seat"]])
        if finished:
            self.pile.current = None

    def reveal(self) -> None:
        if self.pile.current is None:
            return
        question = self.pile.question()
        unit = " %s" % question.unit if question.unit else ""
        self.say("  The exact answer: %s%s (source: %s)" % (question.answer, unit, question.source))

    def describe_answer(self, event, best) -> str:
        name = self.names[event["seat"]]
        said = "%s says %s" % (name, event["value"])
        if not event["score"]:
            return "%s: outside the scale, 0 points." % said
        if event["bonus"]:
            return "%s: %d points, doubled to %d fields." % (said, event["score"], 2 * event["score"])
        if not event["points"]:
            return "%s: that would be %d points, but it must beat %d: 0 points." % (
                said, event["score"], best)
        return "%s: %d points%s" % (said, event["points"], "!" if event["points"] == TOP else ".")

    def describe_move(self, event) -> str:
        name = self.names[event["seat"]]
        start, end = event["from"], event["to"]
        text = []
        if event["minus"]:
            text.append("%s leads on a minus field (-%d): %d - %d = %d."
                        % (name, event["minus"], event["points"], event["minus"],
                           event["points"] - event["minus"]))
        if end == start:
            text.append("%s stays on field %d." % (name, start))
        else:
            text.append("%s moves %s from field %d to field %d%s."
                        % (name, "forward" if end > start else "back", start, end,
                           self.field_note(end)))
        return " ".join(text)

    def field_note(self, field: int) -> str:
        board = self.game.board
        if field == board.goal:
            return " (the goal)"
        if field == 0:
            return " (the start)"
        notes = [board.colours[field]]
        if board.bonus[field]:
            notes.append("bonus field")
        if board.minus[field]:
            notes.append("minus field -%d" % board.minus[field])
        return " (%s)" % ", ".join(notes)

    def show_track(self) -> None:
        """The track as one character per field, the pieces under it, and a table."""
        game, board = self.game, self.game.board
        self.say("Track (> start, y/g/s field colour, * bonus, 1-9 minus field, ^ goal):")
        symbols = []
        for i in range(board.goal + 1):
            if i == 0:
                symbols.append(">")
            elif i == board.goal:
                symbols.append("^")
            elif board.minus[i]:
                symbols.append(str(min(board.minus[i], 9)))
            elif board.bonus[i]:
                symbols.append("*")
            else:
                symbols.append(board.colours[i][0])
        self.say("    " + "".join(symbols))
        marks = [" "] * (board.goal + 1)
        for seat, pos in enumerate(game.positions):
            marks[pos] = str(seat + 1) if marks[pos] == " " else "+"
        self.say("    " + "".join(marks).rstrip())
        for seat, name in enumerate(self.names):
            pos = game.positions[seat]
            self.say("  %d %-12s field %2d of %d%s" % (seat + 1, name, pos, board.goal, self.field_note(pos)))

    # -- input and saving -------------------------------------------------------------

    def commands(self) -> dict:
        return {"track": self.show_track}

    def save_body(self) -> dict:
        body = {"names": self.names, "deck": self.deck_paths, "board": self.board_data,
                "game": self.game.state()}
        body.update(self.pile.state())
        return body
