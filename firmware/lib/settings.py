"""Prop settings: a JSON file on the board's flash merged over defaults.

    import settings
    cfg, errors = settings.load()          # reads "config.json"; never raises
    cfg["prop"], cfg["board"], cfg["clock"]["motor"]

Top-level keys: "prop" (which app runs), "board" (which pin profile in
boards.NAMES), and one section per prop ("clock", "fusebox" and
"football") whose keys override that prop's defaults one by one.

SCHEMA is the one place that defines every setting: its default, its type
and its range or choices. Any value outside it (wrong type, out of range,
unknown choice, unknown key) gives a message naming the key in `errors`
and keeps the default, so no accepted value can crash a driver. Any
content of the file (not JSON, not UTF-8, too large, nested too deep)
gives all defaults and one message: a bad config never stops the board
booting. A new prop adds its section to SCHEMA.
"""
import json

import boards
from props import ALL

DEFAULT_PATH = "config.json"
# A real config is a few hundred bytes; a larger file is refused unread
# (a board has ~200 KB of heap, and json would need several times the text).
MAX_FILE_BYTES = 8192
# the longest watchdog any board profile accepts (each board then caps it to its own)
_WATCHDOG_MAX_MS = max(boards.limits(name)["wdt_max_ms"] for name in boards.NAMES)


# Each setting is a tuple (kind, default, ...), written out as a literal: a tuple of constants
# is itself a constant, so in a frozen image SCHEMA's tuples stay in flash (no heap).
#   ("int", default, lo, hi, off)    an int in lo..hi; `off` (e.g. 0: "no watchdog") or None;
#   ("int", default, lo, hi, off, what)  the same, `off` saying `what` instead of "off"
#   ("choice", default, choices)     one of a fixed set of values
#   ("bool", default)
#   ("seed", None, 0, 0xFFFFFFFF)    null (fresh entropy) or an int 0..2^32-1
#   ("path", None, max_len)          null (the prop's standard place) or a file name of
#                                    printable ASCII, at most max_len characters
#   ("names", default, count, max_len)  `count` different non-empty printable names
#   ("object", default)              a JSON object the prop checks itself (clock.limits:
#                                    the rules core validates it)
#   ("text", default, max_len, word) printable ASCII, at most max_len ("" allowed); word:
#                                    only A-Z a-z 0-9 - _ (an MQTT topic level or client id)
#   ("secret", "", max_len)          a password: printable ASCII; a message about it never
#                                    shows the value (errors go to the console, hello, logs)
SCHEMA: dict = {
    "prop": ("choice", "clock", ALL),  # props.ALL: the one prop list (props.NAMES: this image's)
    "board": ("choice", "pico", boards.NAMES),
    "clock": {
        # "dc" (gear motor on an H-bridge) or "stepper" (28BYJ-48 + ULN2003)
        "motor": ("choice", "dc", ("dc", "stepper")),
        "bridge": ("choice", "drv8833", ("drv8833", "tb6612")),  # dc only
        "chime": ("choice", "piezo", ("piezo", "solenoid")),
        "seed": ("seed", None, 0, 0xFFFFFFFF),  # null: fresh entropy every round
        # lowers (never raises) the firmware's 120 s hard cap; 0 is no cap, so refused
        "max_run_ms": ("int", 60000, 1000, 120000, None),
        # the DC motor's rated voltage: speed 1000 (the planner's full speed) puts this on the
        # motor, on a fresh or a flat pack; 3000 for the recommended 3 V N20 (props.clock)
        "motor_rated_mv": ("int", 3000, 1000, 12000, None),
        # the motor supply where the pack is not read (battery_min_mv 0: no divider): a fresh
        # 3 x AA's 4.8 V, the highest it gets, so the motor is never over-driven (a flat pack
        # then turns it slower); with the divider the firmware measures the pack instead
        "supply_mv": ("int", 4800, 1000, 12000, None),
        # a further cap on the duty (share of the supply), below what motor_rated_mv allows
        "motor_max_permille": ("int", 1000, 100, 1000, None),
        "ramp_ms": ("int", 120, 1, 5000, None),  # time for a full-scale speed change
        # braked pause before any reversal; also how long the motor (the stepper's
        # coils) stays energised after a stop: bounded so nothing stands powered long
        "dwell_ms": ("int", 150, 50, 2000, None),
        # half-steps/s at full speed (stepper only)
        "stepper_steps_per_s": ("int", 300, 1, 1000, None),
        # refuse a round below this pack voltage; 0: no divider wired (no check, supply_mv used)
        "battery_min_mv": ("int", 0, 1000, 12000, 0),
        # battery V per ADC-pin V x 1000; 0: the divider the board's wiring table wires
        # (boards LIMITS: 2000 for 100k/100k, 3128 for the ESP32's 100k over 47k)
        "battery_divider_permille": ("int", 0, 1000, 20000, 0, "the board's divider"),
        # a button bounces for ~10 ms; a debounce near a press's length would swallow presses
        "debounce_ms": ("int", 20, 1, 50, None),
        # held this long while running: emergency stop
        "long_press_ms": ("int", 1500, 300, 10000, None),
        "watchdog_ms": ("int", 2000, 500, _WATCHDOG_MAX_MS, 0),  # 0: no watchdog
        "limits": ("object", {}),  # overrides for rules.geisteruhr.DEFAULT_LIMITS
    },
    "fusebox": {
        # window sensors on 8 GPIOs ("gpio") or on an MCP23017 ("mcp23017")
        "inputs": ("choice", "gpio", ("gpio", "mcp23017")),
        "mcp_address": ("int", 0x20, 0x20, 0x27, None),  # I2C address set by A0-A2
        # False: the sensor is closed while its window is shut (reed + magnet)
        "open_when_active": ("bool", False),
        "scan_ms": ("int", 5, 1, 50, None),  # sensor scan period
        "debounce_ms": ("int", 20, 1, 200, None),  # a sensor state counts once stable this long
        # never stable this long: sensor_fault "flicker"
        "flicker_ms": ("int", 1000, 500, 60000, None),
        # open at every scan this long: sensor_fault "stuck_open" (0: off; at most a day)
        "stuck_open_ms": ("int", 1800000, 1000, 86400000, 0),
        # the task-card pack; null: where `propctl deploy --cards` puts it
        # (cardpack.taskcard.PACK_PATH); "" or a missing/corrupt file: manual mode
        "pack": ("path", None, 255),
        "relay": ("bool", False),  # also pulse the relay output when the fuse blows
        "relay_ms": ("int", 2000, 10, 10000, None),
        "watchdog_ms": ("int", 2000, 500, _WATCHDOG_MAX_MS, 0),  # 0: no watchdog
    },
    "football": {
        "display": ("choice", "oled", ("oled", "leds")),  # SSD1306 on I2C, or LEDs
        "oled_height": ("choice", 32, (32, 64)),  # rows
        "oled_address": ("choice", 0x3C, (0x3C, 0x3D)),
        "debounce_ms": ("int", 20, 1, 50, None),  # as the clock's button
        # holding ROLL after the final whistle: new game
        "long_press_ms": ("int", 1500, 300, 10000, None),
        "seed": ("seed", None, 0, 0xFFFFFFFF),  # null: fresh entropy for each new game
        "plays_per_quarter": ("int", 20, 1, 99, None),
        "quarters": ("choice", 4, (2, 4, 6, 8)),  # halves need an even number
        "names": ("names", ["Home", "Away"], 2, 12),
        "watchdog_ms": ("int", 2000, 500, _WATCHDOG_MAX_MS, 0),  # 0: no watchdog
    },
    # Venue mode (docs/venue.md): the prop on an MQTT broker. broker "" (the default):
    # no network at all, and the net layer is not even imported (it costs heap).
    "net": {
        "ssid": ("text", "", 32, False),  # Wi-Fi to join; "": the network is already up (unix port)
        "password": ("secret", "", 63),  # Wi-Fi password (WPA2: at most 63 characters)
        "broker": ("text", "", 64, False),  # broker host name or IP address; "": no venue mode
        "port": ("int", 1883, 1, 65535, None),
        "user": ("text", "", 32, False),  # broker user; "": connect without one
        "broker_password": ("secret", "", 64),
        # TLS to the broker (port 8883 as a rule): its certificate checked against the CA in
        # the file `ca` on the board's flash, its name against `broker`
        "tls": ("bool", False),
        "ca": ("text", "ca.pem", 32, False),
        "prefix": ("text", "props", 32, True),  # topics PREFIX/ID/event|state|status|cmd|reply
        "id": ("text", "", 32, True),  # this prop's id; "": the prop's name (clock, ...)
        # MQTT keep-alive: the broker marks a silent prop offline within 1.5 x this; the prop
        # pings after 7 s idle (net.mqtt.PING_IDLE_MS) or half of this if shorter
        "keepalive_s": ("int", 30, 5, 600, None),
        # announce to Home Assistant (DISCOVERY_PREFIX/...); false: remove what was announced
        "discovery": ("bool", False),
        "discovery_prefix": ("text", "homeassistant", 32, True),  # Home Assistant's discovery prefix
    },
}


def _defaults(schema) -> dict:
    out = {}
    for key in schema:
        spec = schema[key]
        out[key] = _defaults(spec) if type(spec) is dict else spec[1]
    return out


# Every setting's default, derived from SCHEMA.
DEFAULTS = _defaults(SCHEMA)


def _printable(text: str) -> str:
    return "".join(ch if " " <= ch < "\x7f" else "?" for ch in text)


def _show(value, nested: bool = False) -> str:
    """A value as a config author wrote it (JSON spelling), short and printable."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        text = str(value)
        return text if len(text) <= 20 else text[:8] + "...(%d digits)" % len(text)
    if type(value) is str:
        return '"' + _printable(value[:30]) + ('..."' if len(value) > 30 else '"')
    if type(value) is list:
        if nested or len(value) > 4:
            return "a list of %d" % len(value)
        return "[" + ", ".join(_show(item, True) for item in value) + "]"
    if type(value) is dict:
        if not value:
            return "{}"
        if nested or len(value) > 4:
            return "an object of %d key%s" % (len(value), "" if len(value) == 1 else "s")
        return "{" + ", ".join(_show(key, True) + ": " + _show(value[key], True)
                               for key in sorted(value, key=str)) + "}"
    return "a " + type(value).__name__


def _expected(spec) -> str:
    """What a setting accepts, for a person."""
    kind = spec[0]
    if kind == "int":
        text = "a whole number %d..%d" % (spec[2], spec[3])
        if spec[4] is None:
            return text
        return text + " or %d (%s)" % (spec[4], spec[5] if len(spec) > 5 else "off")
    if kind == "choice":
        return "one of " + ", ".join(_show(c) for c in spec[2])
    if kind == "bool":
        return "true or false"
    if kind == "seed":
        return "null or a whole number 0..%d" % spec[3]
    if kind == "path":
        return "null or a file name of printable ASCII, at most %d characters" % spec[2]
    if kind == "names":
        return "a list of %d different names, 1..%d printable characters each" % (spec[2], spec[3])
    if kind == "text":
        if spec[3]:
            return "text of at most %d letters, digits, - or _" % spec[2]
        return "text of at most %d printable ASCII characters" % spec[2]
    if kind == "secret":
        return "a password of at most %d printable ASCII characters" % spec[2]
    return "an object {...}"


def _is_int(value) -> bool:
    return type(value) is int  # bool is not accepted where a number is meant


def _is_text(value, max_len: int, min_len: int = 0) -> bool:
    if type(value) is not str or not min_len <= len(value) <= max_len:
        return False
    for ch in value:
        if not " " <= ch < "\x7f":
            return False
    return True


def _is_word(value: str) -> bool:
    for ch in value:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in "-_"):
            return False
    return True


def _valid(spec, value) -> bool:
    kind = spec[0]
    if kind == "text":
        return _is_text(value, spec[2]) and (not spec[3] or _is_word(value))
    if kind == "secret":
        return _is_text(value, spec[2])
    if kind == "int":
        return _is_int(value) and (spec[2] <= value <= spec[3] or value == spec[4])
    if kind == "choice":
        for choice in spec[2]:
            if type(value) is type(choice) and value == choice:
                return True
        return False
    if kind == "bool":
        return type(value) is bool
    if kind == "seed":
        return value is None or (_is_int(value) and spec[2] <= value <= spec[3])
    if kind == "path":
        return value is None or _is_text(value, spec[2])
    if kind == "names":
        if type(value) is not list or len(value) != spec[2]:
            return False
        for i in range(len(value)):
            if not _is_text(value[i], spec[3], 1) or value[i] in value[:i]:
                return False
        return True
    return type(value) is dict


def _check_value(name: str, spec, value, errors: list) -> bool:
    if _valid(spec, value):
        return True
    if spec[0] == "secret":  # never the value: a near-miss password is still a password
        errors.append("%s: the value given is not %s; using none" % (name, _expected(spec)))
        return False
    errors.append("%s: %s is not %s; using the default %s"
                  % (name, _show(value), _expected(spec), _show(spec[1])))
    return False


def _copy(value):
    return list(value) if type(value) is list else (dict(value) if type(value) is dict else value)


def _fresh(schema) -> dict:
    out = {}
    for key in schema:
        spec = schema[key]
        out[key] = _fresh(spec) if type(spec) is dict else _copy(spec[1])
    return out


def merge(overrides, schema=None) -> tuple:
    """(settings, errors): `overrides` (parsed JSON) checked against SCHEMA, laid over the defaults.

    Pure: never raises for bad input, never changes its arguments. Each
    error names its key ("clock.ramp_ms: ...").
    """
    if schema is None:
        schema = SCHEMA
    result = _fresh(schema)
    errors: list = []
    if type(overrides) is not dict:
        errors.append("the config must be a JSON object {...}, not %s; using all defaults"
                      % _show(overrides))
        return result, errors
    for key in sorted(overrides, key=str):
        value = overrides[key]
        if key not in schema:
            errors.append("%s: unknown key, ignored (known: %s)" % (_printable(str(key)[:30]),
                                                                    ", ".join(sorted(schema))))
            continue
        spec = schema[key]
        if type(spec) is dict:
            if type(value) is not dict:
                # the net section holds passwords: a wrong shape names only the type
                shown = "a " + type(value).__name__ if key == "net" else _show(value)
                errors.append("%s: expected an object {...}, got %s; using the defaults"
                              % (key, shown))
                continue
            section = result[key]
            for sub in sorted(value, key=str):
                name = key + "." + _printable(str(sub)[:30])
                if sub not in spec:
                    errors.append("%s: unknown key, ignored (known: %s)"
                                  % (name, ", ".join(sorted(spec))))
                elif _check_value(name, spec[sub], value[sub], errors):
                    section[sub] = _copy(value[sub])
        elif _check_value(key, spec, value, errors):
            result[key] = value
    return result, errors


def _all_defaults(message: str, schema) -> tuple:
    return _fresh(schema if schema is not None else SCHEMA), [message + "; using all defaults"]


def parse(text, schema=None) -> tuple:
    """(settings, errors) from the text (str or bytes) of a config file; never raises."""
    if len(text) > MAX_FILE_BYTES:
        return _all_defaults("config is %d bytes, more than the %d a config may have"
                             % (len(text), MAX_FILE_BYTES), schema)
    if type(text) is not str:
        try:
            text = bytes(text).decode()
        except Exception:  # UnicodeError: not UTF-8
            return _all_defaults("config is not UTF-8 text", schema)
    try:
        data = json.loads(text)
    except Exception as exc:  # ValueError; deep nesting: RecursionError/RuntimeError/MemoryError
        return _all_defaults("config is not valid JSON (%s)" % _printable(str(exc)[:60]), schema)
    return merge(data, schema)


def _file_size(path: str):
    """Bytes in the file at `path`, or None if there is none (os.stat raises OSError)."""
    import os
    return os.stat(path)[6]


def load(path: str = DEFAULT_PATH, schema=None, echo=print) -> tuple:
    """(settings, errors) from the file at `path`; a missing file means all defaults.

    Whatever the file holds, this returns settings (the defaults where the
    file is no use) and never raises. Every error is also passed to `echo`
    (print by default) so it shows on the serial console at boot.
    """
    try:
        size = _file_size(path)
    except OSError:  # no config file: the defaults are the config
        return _fresh(schema if schema is not None else SCHEMA), []
    try:
        if size > MAX_FILE_BYTES:
            settings, errors = _all_defaults("config is %d bytes, more than the %d a config may have"
                                             % (size, MAX_FILE_BYTES), schema)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
            settings, errors = parse(data, schema)
    except Exception as exc:  # unreadable (a directory, a flash error), MemoryError, ...
        settings, errors = _all_defaults("config cannot be read (%s: %s)"
                                         % (type(exc).__name__, _printable(str(exc)[:60])), schema)
    if echo is not None:
        for message in errors:
            echo("config %s: %s" % (path, message))
    return settings, errors
