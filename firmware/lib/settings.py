"""Prop settings: a JSON file on the board's flash merged over defaults.

    import settings
    cfg, errors = settings.load()          # reads "config.json"; never raises
    cfg["prop"], cfg["board"], cfg["clock"]["motor"]

Top-level keys: "prop" (which app runs), "board" (which pin profile in
boards.PROFILES), and one section per prop ("clock", "fusebox" and
"football") whose keys override that prop's defaults one by one.

A file that cannot be read as JSON, a value of the wrong type, an unknown
choice or an unknown key gives a message in `errors` (also printed) and
keeps the default for that key: a bad config never stops the board booting.
A new prop adds its section to DEFAULTS (and its choices to CHOICES).
"""
import json

from boards import PROFILES
from props import NAMES

DEFAULT_PATH = "config.json"

DEFAULTS = {
    "prop": "clock",
    "board": "pico",
    "clock": {
        "motor": "dc",            # "dc" (gear motor on an H-bridge) or "stepper" (28BYJ-48 + ULN2003)
        "bridge": "drv8833",      # "drv8833" or "tb6612" (dc only)
        "chime": "piezo",         # "piezo" or "solenoid"
        "seed": None,             # None: fresh entropy every round; an int: the same round every time
        "max_run_ms": 60000,      # lowers (never raises) the firmware's hard cap
        "motor_max_permille": 1000,  # top duty, e.g. 660 for a 3 V motor on 4.5 V
        "ramp_ms": 120,           # time for a full-scale speed change
        "dwell_ms": 150,          # braked pause before any reversal
        "stepper_steps_per_s": 300,  # int 1..1000: half-steps/s at full speed (stepper only)
        "battery_min_mv": 0,      # 0: no battery check; else refuse to start below it
        "battery_divider_permille": 2000,  # int 1000..20000: battery V per ADC-pin V x 1000
        "debounce_ms": 20,
        "long_press_ms": 1500,    # holding the button this long while running: emergency stop
        "watchdog_ms": 2000,      # 0: no watchdog
        "limits": {},             # overrides for rules.geisteruhr.DEFAULT_LIMITS
    },
    "fusebox": {
        "inputs": "gpio",         # window sensors on 8 GPIOs ("gpio") or on an MCP23017 ("mcp23017")
        "mcp_address": 32,        # I2C address of the MCP23017 (0x20..0x27)
        "open_when_active": False,  # False: the sensor is closed while its window is shut (reed + magnet)
        "scan_ms": 5,             # sensor scan period
        "debounce_ms": 20,        # a sensor state counts once stable this long
        "flicker_ms": 1000,       # never stable this long: sensor_fault "flicker"
        "stuck_open_ms": 1800000,  # open at every scan this long: sensor_fault "stuck_open"
        "pack": "taskcards.bin",  # the task-card pack; "" or a missing/corrupt file: manual mode
        "relay": False,           # also pulse the relay output when the fuse blows
        "relay_ms": 2000,
        "watchdog_ms": 2000,      # 0: no watchdog
    },
    "football": {
        "display": "oled",        # "oled" (SSD1306 on I2C) or "leds"
        "oled_height": 32,        # 32 or 64 rows
        "oled_address": 0x3C,
        "debounce_ms": 20,
        "long_press_ms": 1500,    # holding ROLL after the final whistle: new game
        "seed": None,             # None: fresh entropy for each new game
        "plays_per_quarter": 20,
        "quarters": 4,
        "names": ["Home", "Away"],
        "watchdog_ms": 2000,      # 0: no watchdog
    },
}

# Keys whose value must be one of a fixed set ("section.key" for prop keys).
CHOICES = {
    "prop": NAMES,
    "board": tuple(sorted(PROFILES)),
    "clock.motor": ("dc", "stepper"),
    "clock.bridge": ("drv8833", "tb6612"),
    "clock.chime": ("piezo", "solenoid"),
    "fusebox.inputs": ("gpio", "mcp23017"),
    "football.display": ("oled", "leds"),
}

# Keys that may hold an int or null.
OPTIONAL_INT = ("clock.seed", "football.seed")


def _show(value) -> str:
    """A value as a config author wrote it (JSON spelling), short and printable."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is str:
        text = "".join(ch if " " <= ch < "\x7f" else "?" for ch in value[:30])
        return '"' + text + ('..."' if len(value) > 30 else '"')
    if type(value) is list:
        return "a list"
    if type(value) is dict:
        return "an object"
    return "a " + type(value).__name__


def _type_ok(name: str, default, value) -> bool:
    if name in OPTIONAL_INT:
        return value is None or (type(value) is int)
    if type(default) is bool:
        return type(value) is bool
    if type(default) is int:
        return type(value) is int  # bool is not accepted where a number is meant
    return type(value) is type(default)


def _check_value(name: str, default, value, errors: list) -> bool:
    if not _type_ok(name, default, value):
        errors.append("%s: expected %s, got %s; using the default %s"
                      % (name, type(default).__name__ if default is not None else "int or null",
                         _show(value), _show(default)))
        return False
    choices = CHOICES.get(name)
    if choices is not None and value not in choices:
        errors.append("%s: %s is not one of %s; using the default %s"
                      % (name, _show(value), ", ".join(choices), _show(default)))
        return False
    if type(value) is int and value < 0:
        errors.append("%s: must not be negative, got %d; using the default %s"
                      % (name, value, _show(default)))
        return False
    return True


def merge(overrides, defaults=None) -> tuple:
    """(settings, errors): `overrides` (a parsed JSON object) laid over `defaults`.

    Pure: never raises for bad input, never changes its arguments.
    """
    if defaults is None:
        defaults = DEFAULTS
    result = {}
    for key in defaults:
        value = defaults[key]
        result[key] = dict(value) if type(value) is dict else value
    errors: list = []
    if type(overrides) is not dict:
        errors.append("the config must be a JSON object {...}, not %s; using all defaults"
                      % type(overrides).__name__)
        return result, errors
    for key in sorted(overrides):
        value = overrides[key]
        if key not in defaults:
            errors.append("%s: unknown key, ignored (known: %s)" % (key, ", ".join(sorted(defaults))))
            continue
        default = defaults[key]
        if type(default) is dict:
            if type(value) is not dict:
                errors.append("%s: expected an object {...}, got %s; using the defaults"
                              % (key, _show(value)))
                continue
            section = result[key]
            for sub in sorted(value):
                name = key + "." + sub
                if sub not in default:
                    errors.append("%s: unknown key, ignored (known: %s)"
                                  % (name, ", ".join(sorted(default))))
                elif _check_value(name, default[sub], value[sub], errors):
                    section[sub] = value[sub]
        elif _check_value(key, default, value, errors):
            result[key] = value
    return result, errors


def parse(text: str, defaults=None) -> tuple:
    """(settings, errors) from the text of a config file."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        settings, _ = merge({}, defaults)
        return settings, ["config is not valid JSON (%s); using all defaults" % (exc,)]
    return merge(data, defaults)


def load(path: str = DEFAULT_PATH, defaults=None, echo=print) -> tuple:
    """(settings, errors) from the file at `path`; a missing file means all defaults.

    Every error is also passed to `echo` (print by default) so it shows on
    the serial console at boot.
    """
    try:
        with open(path) as f:
            text = f.read()
    except OSError:  # no config file: the defaults are the config
        settings, errors = merge({}, defaults)
        return settings, errors
    settings, errors = parse(text, defaults)
    if echo is not None:
        for message in errors:
            echo("config %s: %s" % (path, message))
    return settings, errors
