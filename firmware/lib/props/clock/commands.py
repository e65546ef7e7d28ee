"""The ghost clock's command table for the link, and its saved game (next to props.clock).

The clock app (props.clock.app.ClockApp) runs the hand; this adds what the
desktop needs around it: the table of commands with their schemas, and the
game as the rules core keeps it (rules.geisteruhr.Game: banked ghosts, rounds),
saved with store.Store after every change (Game.state / Game.from_state) so a
power cut loses nothing. ClockApp.commands() returns this table.

Commands: start_round(seed?), stop(), state(), new_game(players),
report(on_clock, unused). `report` emits a `scored` event with the winners
and banked ghosts; the desktop's monitor shows it as a score change.
"""
from rules.geisteruhr import Game


class ClockCommands:
    """Link commands for one ClockApp; `store` is a store.Store (or None: nothing saved)."""

    def __init__(self, app, store=None, on_event=None) -> None:
        self.app = app
        self.store = store
        self.on_event = on_event
        self.game = None
        saved = store.load() if store is not None else None
        if saved:
            try:
                self.game = Game.from_state(saved)
            except ValueError:
                self.game = None  # a state from another version: start clean

    def _save(self) -> None:
        if self.store is None:
            return
        if self.game is None:
            self.store.clear()
        else:
            self.store.save(self.game.state())

    def game_state(self):
        """The saved game as the link reports it (None: no game going)."""
        game = self.game
        if game is None:
            return None
        # players 1-n on the link (the rules core counts from 0); banked is per player, in order
        return {"players": game.players, "banked": game.banked, "rounds": len(game.rounds),
                "starter": game.starter + 1, "over": game.over, "winners": [p + 1 for p in game.winners]}

    def start_round(self, seed=None):
        """Start the hand (seed: replay a known round)."""
        self.app.start_round(seed)
        return self.app.snapshot()

    def stop(self):
        """Emergency stop: brake, no chime."""
        self.app.emergency_stop()
        return self.app.snapshot()

    def state(self):
        """The clock and the game."""
        snap = self.app.snapshot()
        snap["game"] = self.game_state()
        return snap

    def new_game(self, players):
        """Forget the old game; start one for `players` players (2-4)."""
        game = Game(players)  # raises ValueError for a bad count before anything changes
        self.game = game
        self._save()
        return self.game_state()

    def report(self, on_clock, unused):
        """The players' counts after the chime: ghosts on the clock, ghosts not used."""
        if self.game is None:
            raise ValueError("no game going: send new_game first")
        if self.app.state == "running":
            raise ValueError("count the ghosts when the hand has stopped, not while it turns")
        before = self.game.banked
        winners = [p + 1 for p in self.game.finish_round(on_clock, unused)]
        self._save()
        result = self.game_state()
        result["round_winners"] = winners
        if self.on_event is not None:
            self.on_event("scored", {"round_winners": winners, "banked": result["banked"],
                                     "before": before, "over": result["over"],
                                     "winners": result["winners"]})
        return result

    def commands(self) -> dict:
        """name -> (handler, schema), for link.router.Link.add_commands."""
        return {
            "start_round": (self.start_round, {"seed": "seed?"}),
            "stop": (self.stop, {}),
            "state": (self.state, {}),
            "new_game": (self.new_game, {"players": "int"}),
            "report": (self.report, {"on_clock": "ints", "unused": "ints"}),
        }
