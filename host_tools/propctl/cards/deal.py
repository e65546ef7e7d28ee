"""Which Finger weg! task card comes next, across games: cards not played before first.

A card is spent once the table has seen its bolt, so a household wants every
card once before any comes back. The fuse box steps through its pack in order
(the next/previous buttons, `n`/`p` in the sim), so the order is the choice:
`fresh_order` puts the cards never played first, the categories taking turns
(the next card is rarely the same kind of question), then the played ones,
longest ago first. Each household gets its own order: the categories and the
cards within them are shuffled by the seed its play history keeps. `Memory`
keeps that across games in the play history (propctl.cards.history), one for
the shipped deck in every language, and says when a game cannot avoid a repeat.

A Finger weg! game has one round per player (everyone starts once), so a
game needs as many cards as players.
"""
import os
from typing import Callable, Dict, List, Optional, Sequence

from propctl.cards import lang as langs
from propctl.cards.history import DeckHistory, History
from propctl.shared.rules.rng import Rng

PREFIX = "fusebox/"


SHIPPED = PREFIX + "shipped"
# Older versions kept one history per language of the shipped deck; they are merged into
# SHIPPED when a game first uses it.
OLD_SHIPPED = tuple(PREFIX + "shipped." + code for code in langs.LANGS)


def deck_name(path, lang: Optional[str] = None) -> str:
    """The history's name for a task deck: one for the shipped decks (a card is the same card,
    id and bolt, in German and English, so a household alternating languages does not repeat
    cards), any other deck by its path."""
    real = os.path.realpath(str(path))
    for code in langs.LANGS:
        if real == os.path.realpath(str(langs.shipped("taskcards", code))):
            return SHIPPED
    return PREFIX + real


def _categories_take_turns(cards: Sequence, seed: Optional[int] = None) -> list:
    """The cards with their categories taking turns, each category's cards in deck order, or
    with a household `seed` in that household's own shuffled order (categories too)."""
    queues: Dict[str, list] = {}
    for card in cards:
        queues.setdefault(card.category, []).append(card)
    if seed is not None:
        rng = Rng(seed)
        names = list(queues)
        rng.shuffle(names)
        for name in names:
            rng.shuffle(queues[name])
        queues = dict((name, queues[name]) for name in names)
    out: list = []
    while len(out) < len(cards):
        for queue in queues.values():
            if queue:
                out.append(queue.pop(0))
    return out


def fresh_order(cards: Sequence, deck: DeckHistory, seed: Optional[int] = None) -> list:
    """`cards` in the order to offer them: never played first (categories taking turns, shuffled
    by the household's `seed` if given), then the played ones, longest ago first."""
    turns = _categories_take_turns(cards, seed)
    by_id = dict((card.id, card) for card in turns)
    return [by_id[key] for key in deck.fresh_first([card.id for card in turns])]


def repeat_notice(cards: Sequence, deck: DeckHistory, rounds: int) -> Optional[str]:
    """A sentence for the screen when the next `rounds` cards cannot all be new, else None."""
    fresh = len(deck.unplayed([card.id for card in cards]))
    if fresh >= rounds:
        return None
    if fresh == 0:
        head = "every one of the %d cards has been played before" % len(cards)
    else:
        head = "only %d of the %d cards %s not been played before" % (fresh, len(cards),
                                                                     "has" if fresh == 1 else "have")
    return ("%s; this game of %d rounds repeats cards, the longest ago first "
            "(--fresh forgets the history)" % (head, rounds))


class Memory:
    """A task deck's play history across games: order, marks, the notice, saving.

    `say` gets every sentence for the screen (a damaged history, a repeat, a failed save).
    """

    def __init__(self, cards: Sequence, name: str, say: Callable[[str], object],
                 fresh: bool = False, path=None) -> None:
        self.cards = list(cards)
        self.say = say
        self.history = History.load(path, warn=say)
        self.deck = self.history.merge_into(name, OLD_SHIPPED) if name == SHIPPED \
            else self.history.deck(name)
        if fresh:
            self.deck.forget()

    def order(self) -> List:
        return fresh_order(self.cards, self.deck, self.history.household_seed())

    def unplayed(self) -> int:
        return len(self.deck.unplayed([card.id for card in self.cards]))

    def begin_game(self, players: int) -> None:
        """A new game of `players` rounds: counted, and a repeat said now if it cannot be avoided."""
        self.deck.begin_game()
        notice = repeat_notice(self.cards, self.deck, players)
        if notice:
            self.say(notice)
        self._save()

    def played(self, card_id: str) -> None:
        """The table has seen this card's bolt (its round ended): it is spent."""
        self.deck.mark(card_id)
        self._save()

    def _save(self) -> None:
        problem = self.history.save()
        if problem:
            self.say(problem)
