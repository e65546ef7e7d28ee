"""The Finger weg! game the fuse box keeps beside its cards: the rules core's Game and the reports.

The box sees windows open; the players' discs come over the link
(`report_choices`). GameTable holds the rules.fingerweg.Game (None until
`new_game`) and the windows opened but not yet reported, oldest first, and
turns a report into the core's result. The box (props.fusebox) saves the
game with `game.state()` after every change and tells the table when a card
is accepted and when a window opens.
"""
from drivers.eventqueue import EventQueue

from rules.fingerweg import WINDOWS, Game


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
        """A window opened for the first time in this round: its discs are due."""
        self._reports.push(window)

    def pending(self) -> list:
        """Windows opened and not yet reported, oldest first (allocates)."""
        return [self._reports.peek(k) for k in range(len(self._reports))]

    def report(self, away, bolt_known: bool, blown_window: int) -> dict:
        """The discs for the oldest unreported window; the core's result with the scores.

        bolt_known False (manual mode): the bolt button's word (blown_window)
        moves the game's stand-in bolt first. ValueError, changing nothing in
        the game, for a report that cannot be.
        """
        game = self.game
        if game is None:
            raise ValueError("no game going: send new_game first")
        if not len(self._reports):
            raise ValueError("no window has been opened since the last report")
        window = self._reports.peek()
        if not game.round_active:
            raise ValueError("this round of the game is over: insert the next card")
        if not bolt_known:
            _place_manual_bolt(game, window, blown_window)
        result = game.open_window(window, list(away)).as_dict()
        self._reports.pop()
        result["scores"] = game.scores
        result["game_over"] = game.over
        return result

    def summary(self):
        """The game as the link reports it (None: no game going)."""
        game = self.game
        if game is None:
            return None
        return {"players": game.players, "scores": game.scores, "starter": game.starter,
                "chooser": game.chooser, "in_round": list(game.in_round),
                "opened": list(game.opened), "round_active": game.round_active,
                "rounds_played": game.rounds_played, "over": game.over, "winners": game.winners}


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
