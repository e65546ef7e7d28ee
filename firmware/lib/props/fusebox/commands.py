"""The Finger weg! game the fuse box keeps beside its cards: the rules core's Game and the reports.

The box sees windows open; the players' discs come over the link
(`report_choices`). GameTable holds the rules.fingerweg.Game (None until
`new_game`) and the windows opened but not yet reported, oldest first, and
turns a report into the core's result. Reports and summaries speak the
link's numbering (windows 1-8, players 1-n); the core and `pending()` count
from 0. The box (props.fusebox) saves the
game with `game.state()` after every change and tells the table when a card
is accepted and when a window opens.
"""
from drivers.eventqueue import EventQueue

from rules.fingerweg import WINDOWS, Game


def as_number(index):
    """A rules-core index (from 0) as people count it (from 1); None stays None."""
    return None if index is None else index + 1


def as_numbers(indices) -> list:
    """Rules-core indices (from 0) as people count them (from 1)."""
    return [i + 1 for i in indices]


def _for_people(result: dict) -> dict:
    """An Opening.as_dict() with windows 1-8 and players 1-n, as the link shows them."""
    points = {}
    for seat in result["points"]:
        points[str(int(seat) + 1)] = result["points"][seat]
    result["window"] += 1
    result["chooser"] += 1
    result["opened"] = as_numbers(result["opened"])
    result["away"] = as_numbers(result["away"])
    result["points"] = points
    return result


class GameTable:
    """The game and its pending reports (see the module docstring)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self._reports = EventQueue(WINDOWS)  # at most once per window and round: never full

    def new_game(self, players: int, bolt) -> None:
        """A fresh game for `players`; bolt: the bolt window of a card in play no window of
        which was opened yet (its round starts at once), else None."""
        game = Game(players)  # ValueError for a bad count, before anything changes
        self.game = game
        if bolt is not None:
            game.start_round(bolt)
        self._reports.clear()

    def card_accepted(self, bolt: int) -> bool:
        """A card is in play (bolt -1: unknown, manual mode); True if an unfinished round was dropped."""
        self._reports.clear()
        game = self.game
        if game is None or game.over:
            return False
        dropped = False
        if game.round_active:
            game.abandon_round()  # the start card passes left, as for every new card
            dropped = True
            if game.over:
                return dropped
        # Manual mode: any window stands in for the unknown bolt until the bolt button names it.
        game.start_round(bolt if bolt >= 0 else 0)
        return dropped

    def window_opened(self, window: int) -> None:
        """A window opened for the first time in this round: its discs are due (none once the
        game's round is decided)."""
        game = self.game
        if game is not None and not game.round_active:
            return
        self._reports.push(window)

    def pending(self) -> list:
        """Windows opened and not yet reported, oldest first (allocates)."""
        return [self._reports.peek(k) for k in range(len(self._reports))]

    def report(self, away, bolt_known: bool, blown_window: int) -> dict:
        """The discs for the oldest unreported window; the core's result with the scores.

        `away`: the players (1-n) who showed the bolt; the result names
        windows 1-8 and players 1-n.

        bolt_known False (manual mode): the bolt button's word (blown_window)
        moves the game's stand-in bolt first. ValueError, changing nothing in
        the game, for a report that cannot be.
        """
        game = self.game
        if game is None:
            raise ValueError("no game going: send new_game first")
        if not game.round_active:
            raise ValueError("this round of the game is over: insert the next card")
        if not len(self._reports):
            raise ValueError("no window has been opened since the last report")
        window = self._reports.peek()
        seats = []
        for player in away:
            if type(player) is not int or not 1 <= player <= game.players:
                raise ValueError("players are numbered 1 to %d, not %r" % (game.players, player))
            seats.append(player - 1)
        if not bolt_known:
            _place_manual_bolt(game, window, blown_window)
        result = _for_people(game.open_window(window, seats).as_dict())
        self._reports.pop()
        if not game.round_active:
            self._reports.clear()  # the round is decided: no other window's discs are due
        result["scores"] = game.scores
        result["game_over"] = game.over
        return result

    def summary(self):
        """The game as the link reports it, players and windows from 1 (None: no game going)."""
        game = self.game
        if game is None:
            return None
        return {"players": game.players, "scores": game.scores, "starter": as_number(game.starter),
                "chooser": as_number(game.chooser), "in_round": as_numbers(game.in_round),
                "opened": as_numbers(game.opened), "round_active": game.round_active,
                "rounds_played": game.rounds_played, "over": game.over, "winners": as_numbers(game.winners)}


def _place_manual_bolt(game, window: int, blown_window: int) -> None:
    """Move the game's stand-in bolt to where the bolt button says it is (or is not)."""
    if window == blown_window:
        game.set_bolt(window)
    elif game.bolt == window:
        opened = game.opened
        for w in range(WINDOWS):
            if w != window and w not in opened:
                game.set_bolt(w)
                break
