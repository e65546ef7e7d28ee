"""The fuse box's cards on the web page, and the household's memory of them.

The page deals the shipped task cards in the play history's order (the same
history and order as `propctl sim fusebox` at a terminal: never played first,
categories taking turns, then the longest ago), built anew at every page load.
The page reports back what the terminal sim records, at the same moments: a new
game (`{"new_game": players}`, when the box accepted it) and a card played
(`{"played": "GEO-01"}`, when its round ended: the bolt showed or the rules
ended the round). Those reports arrive as small POST requests from the page;
`record` checks them strictly, as any local program could send one.
"""
import json
import sys
import threading
from typing import List, Union

from propctl.cards.deal import Memory, deck_name
from propctl.props.fusebox.deck import deck_of, pack_bytes

PATH = "/played"
MAX_BODY = 256  # {"played": "GEO-01"} is 20 bytes
PLAYERS = range(2, 9)  # the page's choice of players


class BadReport(ValueError):
    """A report the server refuses (HTTP 400); the text says why."""


class PageDeal:
    """The deck the page deals (`lang`, `family`: only the family cards), its order and its memory.

    `fresh` forgets the deck's history (as `propctl sim fusebox --fresh`); like there, the
    file on disk forgets it when the first game or card is recorded.
    """

    def __init__(self, lang=None, family: bool = False, fresh: bool = False) -> None:
        path, cards = deck_of(None, lang, family)
        self.family = family
        self.cards = list(cards)
        self.ids = frozenset(card.id for card in self.cards)
        self._said: List[str] = []
        self._lock = threading.Lock()  # the server answers each request in its own thread
        self.memory = Memory(self.cards, deck_name(path), self._said.append, fresh=fresh)
        for text in self._take_said():
            print("propctl web: %s" % text, file=sys.stderr)

    def line(self) -> str:
        """What the server prints about the deck when it starts."""
        return "fuse box: %d %scards, the %d not played before first (the page records what it plays)" % (
            len(self.cards), "family " if self.family else "", self.memory.unplayed())

    def pack(self) -> bytes:
        """The card pack for a page load, in the order the history asks for now."""
        with self._lock:
            return pack_bytes(self.memory.order())

    def record(self, body: bytes) -> dict:
        """Record the page's report (JSON bytes); {"unplayed": n, "said": [sentences]}.

        BadReport for anything but one object with one known key and a valid value.
        """
        report = self._parse(body)
        with self._lock:
            if isinstance(report, int):
                self.memory.begin_game(report)
            else:
                self.memory.played(report)
            return {"unplayed": self.memory.unplayed(), "said": self._take_said()}

    def _parse(self, body: bytes) -> Union[int, str]:
        """The players of a new game (int) or the id of a card played (str)."""
        if len(body) > MAX_BODY:
            raise BadReport("the report is longer than %d bytes" % MAX_BODY)
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise BadReport("the report is not JSON") from None
        if not isinstance(data, dict) or len(data) != 1:
            raise BadReport('the report is one object: {"played": card id} or {"new_game": players}')
        (kind, value), = data.items()
        if kind == "played":
            if not isinstance(value, str) or value not in self.ids:
                raise BadReport("played: not a card of the deck the page deals")
            return value
        if kind == "new_game":
            if isinstance(value, bool) or not isinstance(value, int) or value not in PLAYERS:
                raise BadReport("new_game: players must be a whole number %d..%d"
                                % (PLAYERS[0], PLAYERS[-1]))
            return value
        raise BadReport('the report is one object: {"played": card id} or {"new_game": players}')

    def _take_said(self) -> List[str]:
        out = list(self._said)
        del self._said[:]
        return out
