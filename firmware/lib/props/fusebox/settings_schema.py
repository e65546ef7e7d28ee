"""The fuse box's settings: config.json's "fusebox" section (settings.py checks it).

section() gives each key's spec, a literal tuple (kind, default, then the kind's fields:
settings.py names them). The `#:` comment above a key is its one description, for a
person: docs/reference/settings.md is made from these comments (propctl.reference);
comments never reach a board. settings.py imports this module at boot only when the
fuse box is the prop that runs, and forgets it once the prop is built (link.startup).
"""


def section(watchdog: tuple) -> dict:
    """The fuse box's specs; `watchdog` is the spec every prop shares (settings.WATCHDOG)."""
    return {
        #: window sensors on 8 GPIOs (`gpio`) or on an MCP23017 (`mcp23017`)
        "inputs": ("choice", "gpio", ("gpio", "mcp23017")),
        #: I2C address of the MCP23017 (32..39 = 0x20..0x27, set by A0-A2)
        "mcp_address": ("int", 0x20, 0x20, 0x27, None),
        #: false: the sensor is closed while its window is shut (reed and magnet); true for a
        #: microswitch pressed by the open slider
        "open_when_active": ("bool", False),
        #: sensor scan period
        "scan_ms": ("int", 5, 1, 50, None),
        #: a sensor state counts once it has been stable this long
        "debounce_ms": ("int", 20, 1, 200, None),
        #: a sensor never stable this long gives a `sensor_fault` (flicker)
        "flicker_ms": ("int", 1000, 500, 60000, None),
        #: a window read open at every scan this long gives a `sensor_fault` (stuck_open: a
        #: broken wire or a lost magnet); 0: off; at most a day
        "stuck_open_ms": ("int", 1800000, 1000, 86400000, 0),
        #: the task-card pack; `null`: `cards/taskcards.bin`, where `propctl deploy --cards`
        #: puts it (cardpack.taskcard.PACK_PATH); `""` or a missing or damaged file: manual mode
        "pack": ("path", None, 255),
        #: also pulse the relay output when the fuse blows
        "relay": ("bool", False),
        #: how long the relay pulse lasts
        "relay_ms": ("int", 2000, 10, 10000, None),
        #: watchdog timeout (the board profile may lower it); 0: no watchdog
        "watchdog_ms": watchdog,
    }
