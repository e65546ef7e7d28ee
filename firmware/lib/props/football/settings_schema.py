"""The football box's settings: config.json's "football" section (settings.py checks it).

section() gives each key's spec, a literal tuple (kind, default, then the kind's fields:
settings.py names them). The `#:` comment above a key is its one description, for a
person: docs/reference/settings.md is made from these comments (propctl.reference);
comments never reach a board. settings.py imports this module at boot only when the
football box is the prop that runs, and forgets it once the prop is built (link.startup).
"""


def section(watchdog: tuple) -> dict:
    """The football box's specs; `watchdog` is the spec every prop shares (settings.WATCHDOG)."""
    return {
        #: `oled` (SSD1306 on I2C) or `leds` (the LED fallback)
        "display": ("choice", "oled", ("oled", "leds")),
        #: the OLED's rows
        "oled_height": ("choice", 32, (32, 64)),
        #: the OLED's I2C address: 60 = 0x3C (some modules are 61 = 0x3D)
        "oled_address": ("choice", 0x3C, (0x3C, 0x3D)),
        #: button debounce
        "debounce_ms": ("int", 20, 1, 50, None),
        #: holding ROLL this long after the final whistle starts a new game
        "long_press_ms": ("int", 1500, 300, 10000, None),
        #: a number: the same coin and dice every game; `null`: fresh every game
        "seed": ("seed", None, 0, 0xFFFFFFFF),
        #: plays per quarter (fewer: a shorter game)
        "plays_per_quarter": ("int", 20, 1, 99, None),
        #: quarters per game (halves need an even number)
        "quarters": ("choice", 4, (2, 4, 6, 8)),
        #: the two team names on the display
        "names": ("names", ["Home", "Away"], 2, 12),
        #: watchdog timeout (the board profile may lower it); 0: no watchdog
        "watchdog_ms": watchdog,
    }
