"""Which question the Pi mal Daumen table hears next: the shuffled deck, the questions read in
this game, and the household's play history across games (propctl.cards.history), so a question
comes back only when every other one of its colour has been heard."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from propctl.cards import lang as langs
from propctl.cards.history import DeckHistory
from propctl.shared.cardpack.question import FRAMES, QuestionCard

AUTO = "auto"  # --frame: white questions first, violet ones once the white are played (the rulebook)
SHIPPED_DECK = "pimaldaumen/shipped"  # history name: the shipped decks share card ids across languages


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
