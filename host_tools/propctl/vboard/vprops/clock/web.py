"""The ghost clock on the web page (web_bridge.Prop's part for it): its bench, the start button,
the hand's angle."""
from vprops.clock.bench import ClockBench


class PropWeb:
    def __init__(self, pack: str, seed: int, capacity: int, echo, entropy) -> None:
        clock = {"motor": "stepper"}
        if seed >= 0:
            clock["seed"] = seed
        self.bench = ClockBench({"clock": clock}, capacity=capacity, echo=echo, entropy=entropy)

    def input(self, what: str, value: int) -> bool:
        """Hold (1) or let go of (0) the start button; False for anything else."""
        if what != "button":
            return False
        board = self.bench.board
        if value:
            board.set_input(self.bench.button, 0)
        else:
            board.clear_input(self.bench.button)
        return True

    def fields(self, fields: dict) -> None:
        """What the event's sentence needs besides the event's own fields: nothing more."""

    def picture(self, reply: dict) -> None:
        reply["hand_mdeg"] = self.bench.hand.angle_mdeg()
        reply["state"] = self.bench.app.state
