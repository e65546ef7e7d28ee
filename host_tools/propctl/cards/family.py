"""Family cards (age 10+): the mark a card carries and the share a deck needs, for every kind.

A family card is one a child of ten can play: no specialist knowledge, no
adult topics. Question cards and task cards mark it the same way (JSON
`"family": true`, CSV column `family` yes/no, empty: no); the mark is not
packed, so a board never holds it and `--family` (which plays or packs only
these cards) needs the CSV or JSON deck.

    mark = parse(value, problem)             # bool; problem("family", message) if not yes/no
    only(cards)                              # the family cards, in deck order
    share_problem(cards)                     # what is wrong if not about a third, else None

(No import of the loader here: the kind modules use this, and the loader loads them.)
"""
from typing import Optional, Sequence

WORDS = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False, "": False}
SHARE = (0.25, 0.45)  # "about a third" of a deck are family cards
MIN_CARDS = 10        # deck-wide shares are judged from this many cards on (a smaller file is a draft)


def parse(value, problem) -> bool:
    """A card's family mark: JSON true/false, or in CSV yes/no (empty or missing: no)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in WORDS:
        return WORDS[value.strip().lower()]
    problem("family", "%r is not yes or no; allowed: true/false in JSON, yes/no in CSV (empty: no)"
            % (value,))
    return False


def is_family(card) -> bool:
    """True for a card read from a file with the mark (a card decoded from a pack has none)."""
    return bool(getattr(card, "family", False))


def only(cards: Sequence) -> list:
    """The family cards of `cards`, in their order."""
    return [card for card in cards if is_family(card)]


def share_problem(cards: Sequence) -> Optional[str]:
    """The message for the deck's `family` field if its family cards are not about a third."""
    if len(cards) < MIN_CARDS:
        return None
    family = len(only(cards))
    low, high = SHARE
    if low * len(cards) <= family <= high * len(cards):
        return None
    return ("%d of %d cards are family cards (age 10+); allowed: about a third, %d-%d %%"
            % (family, len(cards), round(100 * low), round(100 * high)))
