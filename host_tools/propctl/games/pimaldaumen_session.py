"""One Pi mal Daumen game at the table: started from the command line's choices or from a
save, then played question by question (the rules are rules.pimaldaumen; the words are
pimaldaumen_screen; which question comes next is pimaldaumen_pile)."""
from pathlib import Path
from typing import List, Optional

from propctl.cards import lang as langs
from propctl.cards.history import History
from propctl.games.pimaldaumen_pile import AUTO, Pile, history_name
from propctl.games.pimaldaumen_save import SAVE_FILE, restore
from propctl.games.pimaldaumen_screen import Narrator
from propctl.games.pimaldaumen_setup import SetupError, load_board, load_cards, parse_names
from propctl.games.table import Table, Unusable, new_game_save_path, random_seed
from propctl.shared.rules.pimaldaumen import (
    BONUS_GUESS,
    BONUS_QUESTION,
    CHOOSE,
    GUESS,
    OVER,
    QUESTION,
    Board,
    Game,
    exact,
)
from propctl.shared.rules.rng import Rng


def below_zero(game, text: str) -> None:
    """ValueError for an answer below 0 to a question whose scale starts at 0 or more (a count,
    a length, a year): at the table a "-" is a slip, not a guess to score 0."""
    scale = game.bonus_scale if game.phase == BONUS_GUESS else (game.round.scale if game.round else None)
    try:
        negative = exact(text)[0] < 0
    except ValueError:
        return  # the game says what is wrong with it
    if scale and negative and exact(scale[0])[0] >= 0:
        raise ValueError("%s is below 0, and every answer to this question is 0 or more" % text.strip())

DEFAULT_SAVE = "pimaldaumen-save.json"
HELP = ("commands: help, track (show the track), save (save now), quit (stop, asks to save); "
        "otherwise answer with a number")


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
        self.screen = Narrator(names, game, pile, board_data, self.say)

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
        save_path = new_game_save_path(args.save, DEFAULT_SAVE, say)
        session = cls(game, names, pile, board_data, deck_paths, save_path, ask, say)
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
        game, names, pile, board_data, deck, history = restore(data, say)
        session = cls(game, names, pile, board_data, deck, save_path, ask, say)
        session.history = history
        return session

    # -- the game loop -----------------------------------------------------------

    def play(self) -> int:
        """Run the game to its end; returns the exit code."""
        if self.in_use():
            return 1
        self.screen.welcome()
        self.screen.show_track()
        if self.game.phase in (GUESS, BONUS_GUESS, CHOOSE):
            self.screen.repeat_question()
        return self.run_to_end()

    def over(self) -> bool:
        return self.game.phase == OVER

    def finish(self) -> None:
        self.screen.winner()

    def step(self) -> None:
        game = self.game
        if game.phase == QUESTION:
            self.save(quiet=True)  # a closed terminal loses at most this question
            self.screen.questioner()
            question = self.draw()
            self.screen.read_out(game.questioner, question)
            self.report(game.start_round(question.scale))
        elif game.phase == BONUS_QUESTION:
            question = self.draw()
            self.screen.read_out(game.reader, question)
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
                below_zero(game, text)
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

    def report(self, events, best=0) -> None:
        if self.screen.report(events, best):
            self.pile.current = None  # the question is over: a save holds no card in play

    # -- input and saving -------------------------------------------------------------

    def commands(self) -> dict:
        return {"track": self.screen.show_track}

    def save_body(self) -> dict:
        body = {"names": self.names, "deck": self.deck_paths, "board": self.board_data,
                "game": self.game.state()}
        body.update(self.pile.state())
        return body
