"""The fuse box in Wokwi diagrams (propctl.wokwi): every pin signal as the part that stands for it."""
from propctl.wokwi_parts import GND, V33, button, led, part, piezo, sig, window

PARTS = (
    [p for n in range(1, 9) for p in window("window%d" % n, n)]
    + button("btn_next", "NEXT", "n", "blue")
    + button("btn_prev", "PREV", "p", "blue")
    + button("btn_bolt", "BOLT", "b", "yellow")
    + led("led_red", 220, "red", "fuse blown")
    + led("led_green", 220, "limegreen", "safe")
    + piezo("piezo")
    + [part("relay", "wokwi-relay-module", {}, {"IN": sig("relay"), "VCC": V33, "GND": GND})]
)
# Profile signals the diagrams leave out on purpose, and why.
NOT_DRAWN = {"i2c_sda": "MCP23017 option: Wokwi has no MCP23017 part",
             "i2c_scl": "MCP23017 option: Wokwi has no MCP23017 part"}
