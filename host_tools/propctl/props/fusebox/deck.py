"""The fuse box's deck on the desktop: which task cards to play, and the board's pack of them.

Used by `propctl sim fusebox` (its --pack, --lang, --family) and by `propctl web`
(the page's deck), so neither reaches into the other for them.
"""
from pathlib import Path

from propctl.cards import lang as langs
from propctl.launcher import SimError
from propctl.termsafe import printable


def deck_of(choice, lang=None, family=False):
    """(path, cards) of the deck to play: cards None for a ready pack (.bin) or manual mode.

    No choice: the task cards shipped in `lang` (None: the locale's language).
    `family`: only the family cards (SimError, code 2, for a pack or manual mode:
    they keep no family marks; code 1 for a deck without family cards).
    """
    if choice == "none":
        if family:
            raise SimError("--family needs cards; --pack none is manual mode", 2)
        return None, None
    path = Path(choice) if choice else langs.shipped("taskcards", lang or langs.default_lang())
    if path.suffix.lower() not in (".csv", ".json"):
        if family:
            raise SimError("--family needs the deck as CSV or JSON: a pack (%s) does not keep which "
                           "cards are family cards" % printable(str(path)), 2)
        return path, None
    from propctl.cards.load import load_deck
    deck = load_deck([str(path)])
    if deck.problems or deck.kind is None or deck.kind.NAME != "taskcards":
        raise ValueError("%s has problems; run `propctl cards check %s`" % (path, path))
    if not family:
        return path, deck.cards
    from propctl.cards.family import only
    cards = only(deck.cards)
    if not cards:
        raise SimError("--family: %s has no family cards (column family: yes)" % printable(str(path)))
    return path, cards


def pack_bytes(cards) -> bytes:
    """The board's card pack of these task cards, in this order."""
    from propctl.cards import taskcards
    from propctl.cards.container import build_pack
    return build_pack(taskcards.CODE, taskcards.VERSION, [taskcards.encode(c) for c in cards])
