"""The fuse box on the web page (web_bridge.Prop's part for it): its bench with the page's card
pack, the windows and buttons, the card in the box."""
from vprops.fusebox.bench import FuseBoxBench

BUTTONS = ("btn_next", "btn_prev", "btn_bolt")


class PropWeb:
    def __init__(self, pack: str, seed: int, capacity: int, echo, entropy) -> None:
        self.bench = FuseBoxBench({"fusebox": {"pack": pack}}, capacity=capacity, echo=echo)
        self._open = [False] * 8
        self._card = None

    def input(self, what: str, value: int) -> bool:
        """A window (1-8) opened or closed, all of them shut, or a button pressed; False else."""
        bench = self.bench
        if what == "window":
            index = value - 1
            self._open[index] = not self._open[index]
            bench.window(index, self._open[index])
        elif what == "close_windows":  # the next starter shuts them all
            for index in range(8):
                if self._open[index]:
                    self._open[index] = False
                    bench.window(index, False)
        elif what in BUTTONS:
            bench.press(what)
        else:
            return False
        return True

    def fields(self, fields: dict) -> None:
        """What the event's sentence needs besides the event's own fields: nothing more."""

    def picture(self, reply: dict) -> None:
        reply["open"] = [i + 1 for i in range(8) if self._open[i]]
        for event in reply["events"]:
            if event["event"] == "card":
                self._card = self._describe_card(event["index"])
        reply["card"] = self._card
        reply["box"] = self.bench.app.state_command()  # the box's state and the game (players 1-n)

    def _describe_card(self, index: int):
        """The card in the box, read from the pack as the firmware reads it."""
        from cardpack import taskcard
        pack = self.bench.app.slot.pack
        if pack is None or index < 0:
            return None
        card = taskcard.decode(pack.record(index))
        return {"id": card.id, "category": card.category, "text": card.text,
                "statements": list(card.statements), "bolt": card.bolt + 1}
