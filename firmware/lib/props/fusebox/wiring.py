"""The fuse box's wiring: the window sensors (on GPIOs or an MCP23017), buttons, buzzer, lights, relay.

One place for props.fusebox.build (the prop) and props.fusebox.selftest_steps (the wiring
self-test), so the self-test reads the windows through the same source the box
scans and drives the same outputs.

    wiring = FuseBoxWiring(machine, settings)
    source = wiring.windows()     # drivers.switches source, bit i: window i+1 active
    wiring.window_place(i)        # where window i+1's sensor is wired, for a person
    buttons = wiring.buttons()    # NEXT, PREV, BOLT
    relay = wiring.relay()        # an Indicator, None when fusebox.relay is off
"""
from props.fusebox.constants import SOUNDS  # noqa: F401  (the buzzer's sounds: the self-test plays each)
from props.pins import Pins
from rules.fingerweg import WINDOWS

BUTTONS = ("btn_next", "btn_prev", "btn_bolt")


class FuseBoxWiring:
    """The fuse box's drivers from settings["board"]'s fusebox profile and settings["fusebox"]."""

    def __init__(self, machine, settings) -> None:
        self.cfg = settings["fusebox"]
        self.pins = Pins(machine, settings["board"], "fusebox")

    def on_expander(self) -> bool:
        return self.cfg["inputs"] == "mcp23017"

    def windows(self):
        """The eight window sensors: GPIOs with pull-ups, or the MCP23017's (OSError: no chip)."""
        pins = self.pins
        m = pins.machine
        if not self.on_expander():
            return pins.buttons(["window%d" % (i + 1) for i in range(WINDOWS)])
        from drivers.switches import Mcp23017Source
        i2c = m.I2C(0, sda=m.Pin(pins.names["i2c_sda"]), scl=m.Pin(pins.names["i2c_scl"]))
        return Mcp23017Source(i2c, self.cfg["mcp_address"], WINDOWS, active_low=True)

    def window_place(self, i: int, where) -> str:
        """Where window i+1's sensor is wired: an expander pin, or where(board, gpio) of its GPIO."""
        if self.on_expander():
            from drivers.switches import mcp23017_pin
            bit = mcp23017_pin(i)
            return "MCP23017 GP%s%d" % ("A" if bit < 8 else "B", bit % 8)
        return where(self.pins.board, self.pins.names["window%d" % (i + 1)])

    def buttons(self):
        return self.pins.buttons(BUTTONS)

    def relay(self):
        return self.pins.led("relay") if self.cfg["relay"] else None
