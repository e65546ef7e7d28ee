"""Prop settings: a JSON file on the board's flash merged over defaults.

    import settings
    cfg, errors = settings.load()          # reads "config.json"; never raises
    cfg["prop"], cfg["board"], cfg["clock"]["motor"]

Top-level keys: "prop" (which app runs), "board" (which board profile in
boardprofiles.NAMES), "net" (venue mode), and one section per prop (props.ALL,
the one registry of props) whose keys override that prop's defaults one by one.

Each setting has ONE spec: its kind, default and range or choices. The board-wide
and net specs are here (_common); a prop's section is in its own folder,
props/NAME/settings_schema.py (section()), and schema() collects them through the
registry. Any value outside its spec (wrong type, out of range, unknown choice,
unknown key) gives a message naming the key in `errors` and keeps the default, so
no accepted value can crash a driver. Any content of the file (not JSON, not UTF-8,
too large, nested too deep) gives all defaults and one message: a bad config never
stops the board booting.
On a board, load() checks only the named prop's section; merge() and parse() every prop's.
"""
import json

import boardprofiles
from props import ALL, NAMES

try:
    from micropython import const
except ImportError:  # CPython (the desktop reads this file too)
    def const(value):  # type: ignore[no-redef,misc]
        return value

DEFAULT_PATH = "config.json"
# A real config is a few hundred bytes; a larger file is refused unread
# (a board has ~200 KB of heap, and json would need several times the text).
MAX_FILE_BYTES = 8192
# the longest watchdog any board profile accepts (each board then caps it to its own)
_WATCHDOG_MAX_MS = max(boardprofiles.limits(name)["wdt_max_ms"] for name in boardprofiles.NAMES)

# A spec is a literal tuple (KIND, DEFAULT, then its kind's fields) read by the const() names
# below: frozen, a tuple of constants stays in flash, and a const() costs nothing (docs/heap.md).
#   ("int", default, LO, HI, OFF[, OFF_WORD])  an int in LO..HI; OFF (0: "off", or OFF_WORD) or None
#   ("choice", default, CHOICES)      one of a fixed set of values
#   ("seed", None, LO, HI)            null (fresh entropy) or an int LO..HI (0..2^32-1)
#   ("path", None, MAX_LEN)           null (the prop's standard place) or a printable file name
#   ("names", default, COUNT, NAME_LEN)  COUNT different non-empty printable names
#   ("bool", default), ("object", default)  the latter a JSON object the prop checks (clock.limits)
#   ("text", default, MAX_LEN, WORD)  printable ASCII, at most MAX_LEN; WORD: only A-Z a-z 0-9 - _
#   ("secret", "", MAX_LEN)           a password (printable); no message ever shows the value
KIND = const(0)
DEFAULT = const(1)
LO = const(2)         # int, seed
HI = const(3)         # int, seed
OFF = const(4)        # int
OFF_WORD = const(5)   # int (optional)
CHOICES = const(2)    # choice
MAX_LEN = const(2)    # path, text, secret
WORD = const(3)       # text
COUNT = const(2)      # names
NAME_LEN = const(3)   # names

# The watchdog every prop's section has (props/NAME/settings_schema.py: section(WATCHDOG)).
WATCHDOG = ("int", 2000, 500, _WATCHDOG_MAX_MS, 0)


def _common() -> dict:
    """The board-wide specs and net; a `#:` comment above a key is its one description."""
    return {
        # props.ALL: every prop of this firmware (a one-prop image runs only props.NAMES)
        #: which prop this board is
        "prop": ("choice", ALL[0], ALL),
        #: the board profile: its pins and limits ([pins.md](pins.md)); the Pico W, Pico 2
        #: and Pico 2 W are wired like the Pico
        "board": ("choice", "pico", boardprofiles.NAMES),
        # Venue mode (docs/venue.md): the prop on an MQTT broker. broker "" (the default):
        # no network at all, and the net layer is not even imported (it costs heap).
        "net": {
            #: the Wi-Fi to join; `""`: the network is already up (the unix port, a wired board)
            "ssid": ("text", "", 32, False),
            #: the Wi-Fi password (WPA2: at most 63 characters); never shown, also not in an
            #: error message
            "password": ("secret", "", 63),
            #: the MQTT broker's IP address or host name ([venue.md](../venue.md)); `""`: no
            #: venue mode (the network code is not even loaded)
            "broker": ("text", "", 64, False),
            #: the broker's port
            "port": ("int", 1883, 1, 65535, None),
            #: the broker user (the prop's id in the broker's ACL); `""`: connect without one
            "user": ("text", "", 32, False),
            #: that user's password; never shown
            "broker_password": ("secret", "", 64),
            #: TLS to the broker (`mqtts`, port 8883 as a rule): the broker's certificate is
            #: checked against the CA in `net.ca` and its name against `net.broker`; never
            #: falls back to clear text
            "tls": ("bool", False),
            #: the file on the board's flash with the CA certificate (PEM) that signed the broker's
            "ca": ("text", "ca.pem", 32, False),
            #: the first topic level: topics are PREFIX/ID/event, state, status, cmd, reply
            "prefix": ("text", "props", 32, True),
            #: the prop's id in the venue; `""`: the prop's name (`clock`, ...)
            "id": ("text", "", 32, True),
            #: MQTT keep-alive: a silent prop is offline in 1.5 x this; it pings after 7 s idle, or half this
            "keepalive_s": ("int", 30, 5, 600, None),
            #: announce the prop to Home Assistant (MQTT discovery); `false`: remove what it
            #: announced before (an empty retained config at each connect)
            "discovery": ("bool", False),
            #: Home Assistant's discovery prefix (its MQTT setting of that name)
            "discovery_prefix": ("text", "homeassistant", 32, True),
        },
    }


_SECTIONS: dict = {}  # prop -> its section, once read (this module is boot-only on a board)
BROKEN: list = []     # why a prop's section could not be read (load() reports it; the desktop refuses)


def section(prop: str) -> dict:
    """The specs of `prop`'s section, from its folder (props/PROP/settings_schema.py); {} if that
    folder does not import: the board still boots (safe mode after the crashes), never stops here."""
    if prop not in _SECTIONS:
        import sys
        package = "props." + prop
        fresh = package not in sys.modules  # imported only for its section: dropped again
        try:
            module = __import__(package + ".settings_schema", None, None, ["section"])
            _SECTIONS[prop] = module.section(WATCHDOG)
        except Exception as exc:  # a broken prop folder: its build will name the crash too
            _SECTIONS[prop] = {}
            BROKEN.append("props.%s cannot be read (%s: %s)"
                          % (prop, type(exc).__name__, _printable(str(exc)[:60])))
        if fresh:
            import props
            for name in (package, package + ".settings_schema"):
                sys.modules.pop(name, None)
            if hasattr(props, prop):
                delattr(props, prop)
    return _SECTIONS[prop]


def specs(prop=None) -> dict:
    """Every spec: board-wide, net, and the section of `prop` (none if the image lacks it:
    props.NAMES) or, None, of every prop in props.ALL (the desktop's view)."""
    out = _common()
    net = out.pop("net")  # after the props, as config.json and the reference list them
    for name in ALL if prop is None else ((prop,) if prop in NAMES else ()):
        out[name] = section(name)
    out["net"] = net
    return out


def named_prop(data) -> str:
    """The prop a parsed config names if it is in props.ALL, else the default (ALL[0])."""
    name = data.get("prop") if type(data) is dict else None
    return name if type(name) is str and name in ALL else ALL[0]


def _defaults(table) -> dict:
    out = {}
    for key in table:
        spec = table[key]
        out[key] = _defaults(spec) if type(spec) is dict else spec[DEFAULT]
    return out


def defaults(prop=None) -> dict:
    """Every setting's default (of `prop`'s section, or of every prop's: None), from specs()."""
    return _defaults(specs(prop))


def _printable(text: str) -> str:
    return "".join(ch if " " <= ch < "\x7f" else "?" for ch in text)  # what a console shows


def _show(value, nested: bool = False) -> str:
    """A value as a config author wrote it (JSON spelling), short and printable."""
    if value is None or type(value) is bool:
        return "null" if value is None else ("true" if value else "false")
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
    kind = spec[KIND]
    if kind == "int":
        text = "a whole number %d..%d" % (spec[LO], spec[HI])
        if spec[OFF] is None:
            return text
        return text + " or %d (%s)" % (spec[OFF], spec[OFF_WORD] if len(spec) > OFF_WORD else "off")
    if kind == "choice":
        return "one of " + ", ".join(_show(c) for c in spec[CHOICES])
    if kind == "bool":
        return "true or false"
    if kind == "seed":
        return "null or a whole number %d..%d" % (spec[LO], spec[HI])
    if kind == "path":
        return "null or a file name of printable ASCII, at most %d characters" % spec[MAX_LEN]
    if kind == "names":
        return ("a list of %d different names, 1..%d printable characters each"
                % (spec[COUNT], spec[NAME_LEN]))
    if kind == "text":
        if spec[WORD]:
            return "text of at most %d letters, digits, - or _" % spec[MAX_LEN]
        return "text of at most %d printable ASCII characters" % spec[MAX_LEN]
    if kind == "secret":
        return "a password of at most %d printable ASCII characters" % spec[MAX_LEN]
    return "an object {...}"


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
    kind = spec[KIND]  # an int is `type(value) is int`: a JSON true is not the number 1
    if kind == "text":
        return _is_text(value, spec[MAX_LEN]) and (not spec[WORD] or _is_word(value))
    if kind == "secret":
        return _is_text(value, spec[MAX_LEN])
    if kind == "int":
        return type(value) is int and (spec[LO] <= value <= spec[HI] or value == spec[OFF])
    if kind == "choice":
        for choice in spec[CHOICES]:
            if type(value) is type(choice) and value == choice:
                return True
        return False
    if kind == "bool":
        return type(value) is bool
    if kind == "seed":
        return value is None or (type(value) is int and spec[LO] <= value <= spec[HI])
    if kind == "path":
        return value is None or _is_text(value, spec[MAX_LEN])
    if kind == "names":
        if type(value) is not list or len(value) != spec[COUNT]:
            return False
        for i in range(len(value)):
            if not _is_text(value[i], spec[NAME_LEN], 1) or value[i] in value[:i]:
                return False
        return True
    return type(value) is dict


def _check_value(name: str, spec, value, errors: list) -> bool:
    if _valid(spec, value):
        return True
    if spec[KIND] == "secret":  # never the value: a near-miss password is still a password
        errors.append("%s: the value given is not %s; using none" % (name, _expected(spec)))
        return False
    errors.append("%s: %s is not %s; using the default %s"
                  % (name, _show(value), _expected(spec), _show(spec[DEFAULT])))
    return False


def _copy(value):
    return list(value) if type(value) is list else (dict(value) if type(value) is dict else value)


def _fresh(schema) -> dict:
    out = {}
    for key in schema:
        spec = schema[key]
        out[key] = _fresh(spec) if type(spec) is dict else _copy(spec[DEFAULT])
    return out


def merge(overrides, schema=None) -> tuple:
    """(settings, errors): `overrides` (parsed JSON) checked against the specs, laid over the defaults.

    Pure: never raises for bad input, never changes its arguments. Each
    error names its key ("clock.ramp_ms: ...").
    """
    if schema is None:
        schema = specs()
    result = _fresh(schema)
    errors: list = []
    if type(overrides) is not dict:
        errors.append("the config must be a JSON object {...}, not %s; using all defaults"
                      % _show(overrides))
        return result, errors
    for key in sorted(overrides, key=str):
        value = overrides[key]
        if key not in schema:
            if key in ALL:  # another prop's section (load() checks only the prop that runs)
                continue
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


def _all_defaults(message: str, schema, named: bool = False) -> tuple:
    """All defaults and one message; named (load()): only the default prop's section is made."""
    if schema is None:
        schema = specs(ALL[0] if named else None)
    return _fresh(schema), [message + "; using all defaults"]


def parse(text, schema=None, named=False) -> tuple:
    """(settings, errors) from the text (str or bytes) of a config file; never raises.

    named: with no schema, check only the section of the prop the config names (load() on a
    board: the other props' modules are not even imported)."""
    if len(text) > MAX_FILE_BYTES:
        return _all_defaults("config is %d bytes, more than the %d a config may have"
                             % (len(text), MAX_FILE_BYTES), schema, named)
    if type(text) is not str:
        try:
            text = bytes(text).decode()
        except Exception:  # UnicodeError: not UTF-8
            return _all_defaults("config is not UTF-8 text", schema, named)
    try:
        data = json.loads(text)
    except Exception as exc:  # ValueError; deep nesting: RecursionError/RuntimeError/MemoryError
        return _all_defaults("config is not valid JSON (%s)" % _printable(str(exc)[:60]), schema,
                             named)
    if schema is None and named:
        schema = specs(named_prop(data))
    return merge(data, schema)


def _file_size(path: str):
    import os
    return os.stat(path)[6]  # no file: OSError


def load(path: str = DEFAULT_PATH, schema=None, echo=print) -> tuple:
    """(settings, errors) from the file at `path`; a missing file means all defaults.

    Whatever the file holds, this returns settings (the defaults where the
    file is no use) and never raises. Every error is also passed to `echo`
    (print by default) so it shows on the serial console at boot. With no schema only the
    section of the prop the file names is checked (parse's `named`): a board imports the
    settings of the prop it runs, not every prop's.
    """
    named = schema is None
    try:
        size = _file_size(path)
    except OSError:  # no config file: the defaults are the config
        return _fresh(schema if schema is not None else specs(ALL[0])), list(BROKEN)
    try:
        if size > MAX_FILE_BYTES:
            settings, errors = _all_defaults("config is %d bytes, more than the %d a config may have"
                                             % (size, MAX_FILE_BYTES), schema, named)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
            settings, errors = parse(data, schema, named)
    except Exception as exc:  # unreadable (a directory, a flash error), MemoryError, ...
        settings, errors = _all_defaults("config cannot be read (%s: %s)"
                                         % (type(exc).__name__, _printable(str(exc)[:60])),
                                         schema, named)
    errors = BROKEN + errors
    if echo is not None:
        for message in errors:
            echo("config %s: %s" % (path, message))
    return settings, errors
