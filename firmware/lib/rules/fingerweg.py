"""Finger weg!: who chooses, who is still in a round, and the points of every opened window.

Rules from the Finger weg! rulebook. Seats 0..n-1 sit clockwise and
"to the left" is the next seat. Windows are 0..7, top to bottom. Pure: no I/O,
integers only; the fuse box firmware feeds in the bolt window of the inserted
card and the players' discs, and shows what comes back.

Choices the rulebook leaves open, decided here:
- the bolt in the chooser's own window: the chooser and everyone who left
  fingers on get nothing, every "away" player 10, the round ends;
- one player left in and only the bolt window closed at the same time: that
  player gets 10 once, not twice;
- the start card passes left when a round ends, whoever ended it;
- a new card slid in before the round ended (`abandon_round`): the unfinished
  round ends without points and the start card passes left, as the rulebook's
  "New Round" says for every new card. The starter has had his round; the
  game still ends after one round per player ("End of the Game and Winner").
"""

MIN_PLAYERS = 2
MAX_PLAYERS = 8
WINDOWS = 8
BOLT_POINTS = 10


class Opening:
    """What one opened window did.

    `window` and `chooser`; `bolt` (the bolt was behind it); `opened` (the
    windows open now, sorted); `points` (seat -> points this opening gave,
    only seats that scored); `away` (seats that showed the bolt side, sorted);
    `round_over`.
    """

    def __init__(self, window, chooser, bolt, opened, points, away, round_over) -> None:
        self.window = window
        self.chooser = chooser
        self.bolt = bolt
        self.opened = opened
        self.points = points
        self.away = away
        self.round_over = round_over

    def as_dict(self) -> dict:
        """The result as plain JSON-able values (seats as string keys in points)."""
        points = {}
        for seat in sorted(self.points):
            points[str(seat)] = self.points[seat]
        return {"window": self.window, "chooser": self.chooser, "bolt": self.bolt,
                "opened": list(self.opened), "points": points, "away": list(self.away),
                "round_over": self.round_over}


def _is_int(value) -> bool:
    return type(value) is int


class Game:
    """A whole game: one round per player, each started by the next seat to the left."""

    def __init__(self, players: int) -> None:
        if not _is_int(players) or players < MIN_PLAYERS or players > MAX_PLAYERS:
            raise ValueError("Finger weg! is for 2 to 8 players, not %r" % (players,))
        self.players = players
        self._scores = [0] * players
        self._rounds = 0           # rounds finished
        self._bolt: int | None = None     # bolt window of the card in the box; None between rounds
        self._opened: list[int] = []      # windows opened this round, in order
        self._in: list[int] = []          # seats still in the round, sorted
        self._chooser: int | None = None

    # --- what players see -------------------------------------------------

    @property
    def scores(self) -> list:
        """Points of every seat (a copy)."""
        return list(self._scores)

    @property
    def rounds_played(self) -> int:
        """Rounds finished so far."""
        return self._rounds

    @property
    def over(self) -> bool:
        """True once every player has been starting player once."""
        return self._rounds >= self.players

    @property
    def starter(self):
        """Seat holding the start card (seat 0 first, then passing left); None when over."""
        if self.over:
            return None
        return self._rounds % self.players

    @property
    def round_active(self) -> bool:
        """True while a card is in the box and its round is not over."""
        return self._bolt is not None

    @property
    def chooser(self):
        """Seat that picks the next statement; None between rounds."""
        return self._chooser

    @property
    def in_round(self) -> tuple:
        """Seats still in the current round, sorted; empty between rounds."""
        return tuple(self._in)

    @property
    def opened(self) -> tuple:
        """Windows open in the current round, sorted; empty between rounds."""
        return tuple(sorted(self._opened))

    @property
    def winners(self) -> list:
        """Seats with the most points, sorted (more than one on a tie).

        Final once `over`; before that, the current leaders.
        """
        best = max(self._scores)
        return [seat for seat in range(self.players) if self._scores[seat] == best]

    # --- actions ----------------------------------------------------------

    def start_round(self, bolt: int) -> None:
        """The starter slid in a card whose bolt is behind window `bolt` (0..7)."""
        if self.over:
            raise ValueError("the game is over: every player has been starting player once")
        if self.round_active:
            raise ValueError("a round is still running: finish it before inserting a new card")
        if not _is_int(bolt) or bolt < 0 or bolt >= WINDOWS:
            raise ValueError("the bolt window must be 0 to 7, not %r" % (bolt,))
        starter = self.starter
        self._bolt = bolt
        self._opened = []
        self._in = list(range(self.players))
        self._chooser = starter

    def open_window(self, window: int, away=()) -> Opening:
        """The chooser opens `window`; `away` are the seats that showed the bolt side.

        Raises ValueError, changing nothing, for a window that is not closed, a
        seat that is out of the round or unknown, the chooser among `away`, or
        when no round is running.
        """
        if not self.round_active:
            raise ValueError("no card in the fuse box: start a round first")
        if not _is_int(window) or window < 0 or window >= WINDOWS:
            raise ValueError("windows are numbered 0 to 7, not %r" % (window,))
        if window in self._opened:
            raise ValueError("window %d is already open: choose a closed one" % window)
        away = self._check_away(away)

        chooser = self._chooser
        assert chooser is not None  # a running round always has a chooser
        points = {}
        self._opened.append(window)
        if window == self._bolt:
            for seat in away:
                points[seat] = BOLT_POINTS
            return self._finish(window, chooser, True, points, away)

        for seat in away:
            points[seat] = len(self._opened)
            self._in.remove(seat)
        if len(self._in) == 1 or len(self._opened) == WINDOWS - 1:
            # One player left, or only the bolt window is still closed.
            for seat in self._in:
                points[seat] = BOLT_POINTS
            return self._finish(window, chooser, False, points, away)

        self._chooser = self._next_in_round(chooser)
        return self._record(Opening(window, chooser, False, self.opened, points, away, False))

    def abandon_round(self) -> None:
        """A new card before the round ended: no points, the start card passes left.

        ValueError, changing nothing, when no round is running.
        """
        if not self.round_active:
            raise ValueError("no round is running: there is nothing to abandon")
        self._end_round()

    @property
    def bolt(self):
        """The bolt window of the card in the box (0..7); None between rounds."""
        return self._bolt

    def set_bolt(self, window: int) -> None:
        """The bolt is behind `window` after all (a box that learns it late: manual mode).

        ValueError, changing nothing, when no round runs or `window` is open already.
        """
        if not self.round_active:
            raise ValueError("no card in the fuse box: start a round first")
        if not _is_int(window) or window < 0 or window >= WINDOWS:
            raise ValueError("windows are numbered 0 to 7, not %r" % (window,))
        if window in self._opened:
            raise ValueError("window %d is open already: the bolt is not behind it" % window)
        self._bolt = window

    # --- saving and resuming ------------------------------------------------

    def state(self) -> dict:
        """The whole game as JSON-able values, to save and later `from_state`."""
        return {"players": self.players, "scores": list(self._scores), "rounds": self._rounds,
                "bolt": self._bolt, "opened": list(self._opened), "in": list(self._in),
                "chooser": self._chooser}

    @classmethod
    def from_state(cls, state: dict) -> "Game":
        """A game resumed from `state()`; ValueError if the state cannot be a game."""
        try:
            game = cls(state["players"])
            scores, rounds, bolt = state["scores"], state["rounds"], state["bolt"]
            opened, seats, chooser = state["opened"], state["in"], state["chooser"]
        except (KeyError, TypeError):
            raise ValueError("not a saved Finger weg! game") from None
        n = game.players
        ok = (isinstance(scores, list) and len(scores) == n
              and all(_is_int(s) and s >= 0 for s in scores)
              and _is_int(rounds) and 0 <= rounds <= n)
        if ok and bolt is None:
            ok = opened == [] and seats == [] and chooser is None
        elif ok:
            ok = (_is_int(bolt) and 0 <= bolt < WINDOWS and rounds < n
                  and isinstance(opened, list) and isinstance(seats, list)
                  and all(_is_int(w) and 0 <= w < WINDOWS and w != bolt for w in opened)
                  and len(set(opened)) == len(opened) < WINDOWS - 1
                  and seats == sorted(set(seats)) and len(seats) >= 2
                  and all(_is_int(s) and 0 <= s < n for s in seats)
                  and chooser in seats)
        if not ok:
            raise ValueError("not a saved Finger weg! game")
        game._scores = list(scores)
        game._rounds = rounds
        game._bolt = bolt
        game._opened = list(opened)
        game._in = list(seats)
        game._chooser = chooser
        return game

    # --- helpers ------------------------------------------------------------

    def _check_away(self, away) -> tuple:
        if not isinstance(away, (list, tuple, set)):
            raise ValueError("away must be a list of seats, not %r" % (away,))
        seen = []
        for seat in away:
            if not _is_int(seat) or seat < 0 or seat >= self.players:
                raise ValueError("there is no seat %r at this table (seats 0 to %d)"
                                 % (seat, self.players - 1))
            # the messages are for the players: they count themselves from 1
            if seat == self._chooser:
                raise ValueError("player %d chose this statement and always leaves fingers on "
                                 "(empty side up): only the others can show the bolt" % (seat + 1))
            if seat not in self._in:
                raise ValueError("player %d showed the bolt earlier and is out of this round: "
                                 "no disc to lay until the next card" % (seat + 1))
            if seat in seen:
                raise ValueError("player %d is named twice" % (seat + 1))
            seen.append(seat)
        return tuple(sorted(seen))

    def _next_in_round(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate in self._in:
                return candidate
        return seat

    def _finish(self, window, chooser, bolt, points, away) -> Opening:
        result = Opening(window, chooser, bolt, self.opened, points, away, True)
        self._record(result)
        self._end_round()
        return result

    def _end_round(self) -> None:
        self._rounds += 1
        self._bolt = None
        self._opened = []
        self._in = []
        self._chooser = None

    def _record(self, result: Opening) -> Opening:
        for seat in result.points:
            self._scores[seat] += result.points[seat]
        return result
