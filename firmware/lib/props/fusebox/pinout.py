"""The fuse box's pin roles on each base board: its section of the board profile.

One function per base board of boardprofiles.BASES (pico, esp32, esp32s3), named as the board:
code, not data, so a frozen image keeps it in flash and a board makes only its own
board's dict, only while the prop is built (boardprofiles.profile; link.startup then
forgets this module: docs/heap.md). Each entry is a signal name of the wiring table
(hardware/fusebox/README.md, a test compares the two) and an int GPIO, a pin name the port
knows, or None. A board variant (boardprofiles.VARIANTS) changes some of them.
"""


def pico() -> dict:
    return {
        "window1": 2,          # window sensors 1..8 (top first) to GND, internal pull-ups
        "window2": 3,
        "window3": 6,
        "window4": 7,
        "window5": 8,
        "window6": 9,
        "window7": 26,
        "window8": 27,
        "btn_next": 10,        # next card, to GND
        "btn_prev": 11,        # previous card, to GND
        "btn_bolt": 12,        # manual mode: the bolt is in the window just opened
        "led_red": 13,         # red LED via 220 ohm: blown fuse, open windows, faults
        "led_green": 14,       # yellow-green LED via 220 ohm: safe window, card accepted
        "piezo": 15,           # piezo buzzer via 100 ohm
        "relay": 22,           # relay driver: 1k to a 2N2222's base, 3 V coil (bell or lamp), active high
        "i2c_sda": 4,          # I2C0 to the MCP23017 option
        "i2c_scl": 5,
    }


def esp32() -> dict:
    return {
        "window1": 4,          # window sensors 1..8 to GND, internal pull-ups
        "window2": 13,
        "window3": 14,
        "window4": 16,
        "window5": 17,
        "window6": 18,
        "window7": 19,
        "window8": 23,
        "btn_next": 34,        # 34/35/39 are input-only without pull-ups: 10k to 3V3 each
        "btn_prev": 35,
        "btn_bolt": 39,
        "led_red": 26,
        "led_green": 27,
        "piezo": 25,
        "relay": 32,
        "i2c_sda": 21,         # I2C0 default pins, to the MCP23017 option
        "i2c_scl": 22,
    }


def esp32s3() -> dict:
    return {
        "window1": 4,          # window sensors 1..8 to GND, internal pull-ups
        "window2": 5,
        "window3": 6,
        "window4": 7,
        "window5": 15,
        "window6": 16,
        "window7": 17,
        "window8": 18,
        "btn_next": 10,
        "btn_prev": 11,
        "btn_bolt": 12,
        "led_red": 13,
        "led_green": 14,
        "piezo": 1,
        "relay": 2,
        "i2c_sda": 8,          # I2C0 default pins, to the MCP23017 option
        "i2c_scl": 9,
    }
