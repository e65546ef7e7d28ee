"""Board events as sentences: the events every prop sends here, each prop's own in its folder
(propctl/props/<prop>/describe.py, EVENTS), found by the prop's name from the board's `hello`.

    describe_event("fusebox", "scored", {"window": 2, ...})  ->  "window 3 was SAFE: ..."

Used by `propctl monitor` and the sims, so the same event reads the same
everywhere. The board's fields are never trusted: a field of an unexpected
type is shown as it came, never a traceback. Windows (1-8) and players
(1-n) come from the board counted from 1, as people count and as the link
sends them (the rules cores count from 0 inside the firmware).
"""
import json


def _int(value):
    """value if it is an int (not a bool), else None."""
    return value if type(value) is int else None


def _number(value) -> str:
    """A window or player number as the link sends it (from 1), or the raw value if it is not one."""
    n = _int(value)
    return str(n) if n is not None else _raw(value)


def _raw(value) -> str:
    """Any field as short readable text."""
    if isinstance(value, str) and value and all(" " <= ch != "\x7f" for ch in value):  # "" shows as ""
        return value if len(value) <= 200 else value[:197] + "..."
    try:
        text = json.dumps(value, sort_keys=True)  # control characters escaped, never printed raw
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _seconds(ms) -> str:
    n = _int(ms)
    return "%d.%d s" % (n // 1000, n % 1000 // 100) if n is not None and n >= 0 else "?"


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _players(players) -> str:
    """Players as the link numbers them (1-n)."""
    numbers = [_number(p) for p in _list(players)]
    return ", ".join("player %s" % n for n in numbers) if numbers else "nobody"


def _join(items) -> str:
    items = list(items)
    return ", ".join(items) if items else "no points"


def fields_text(name: str, data) -> str:
    """The generic form: the event name and its fields."""
    if isinstance(data, dict):
        pairs = " ".join("%s=%s" % (_raw(k), _raw(data[k])) for k in sorted(data, key=str))
        return ("%s %s" % (name, pairs)).strip()
    return name if data is None else "%s %s" % (name, _raw(data))


# --- every prop ---------------------------------------------------------------

def _hello(d: dict) -> str:
    return "board up: %s prop on %s, firmware %s, link protocol %s, mode %s" % (
        _raw(d.get("prop")), _raw(d.get("board")), _raw(d.get("firmware")), _raw(d.get("protocol")),
        _raw(d.get("mode")))


# Events every prop (and the boot modes) send; the prop's own table is looked up first.
def _net(d: dict) -> str:
    """Venue mode's `net` event (docs/venue.md): the broker or Wi-Fi, and when it tries again."""
    state = d.get("state")
    if state == "up":
        return "network: on the broker %s as %s" % (_raw(d.get("broker")), _raw(d.get("id")))
    text = "network %s: %s" % (_raw(state).replace("_", " "), _raw(d.get("why", "")))
    retry = _int(d.get("retry_ms"))
    return text + ("; next try in %s" % _seconds(retry) if retry is not None else "")


COMMON = {
    "boot": _hello,
    "net": _net,
    "hello": _hello,
    "safe_mode": lambda d: "SAFE MODE: %s. %s" % (_raw(d.get("why")), _raw(d.get("fix"))),
    "maintenance": lambda d: "maintenance boot: %s" % _raw(d.get("why")),
    "resetting": lambda d: "the board resets: %s" % _raw(d.get("why")),
    "config_error": lambda d: "config problem: %s" % _raw(d.get("msg")),
    "fault": lambda d: "FAULT: %s%s" % (_raw(d.get("error", d)),
                                        "; the board resets" if d.get("action") == "reset" else ""),
    "button": lambda d: "button %s" % _raw(d.get("kind", d.get("button", "?"))),
    "refused": lambda d: "refused: %s" % _raw(d.get("error")),  # a command the prop turned down
}


def events_of(prop) -> dict:
    """The describers of `prop` (propctl/props/<prop>/describe.py's EVENTS, found by the name the
    board sent), {} for a prop with none or a name that is not one."""
    if not isinstance(prop, str) or not prop or len(prop) > 40:
        return {}
    for ch in prop:  # a board's word never makes us import anything but a prop's describer
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            return {}
    try:
        module = __import__("propctl.props.%s.describe" % prop, None, None, ("EVENTS",), 0)
    except ImportError:
        return {}
    return module.EVENTS


def all_events() -> dict:
    """{prop: its describers} for every prop of the firmware (CPython: reads the registry)."""
    from propctl import props
    return {name: events_of(name) for name in props.names()}


def __getattr__(name: str):
    """describe.PROPS: all_events(), made when asked (the reference generator reads it)."""
    if name == "PROPS":
        return all_events()
    raise AttributeError(name)


def describe_event(prop, name: str, data) -> str:
    """One event of `prop` (None: not known yet) as a sentence; unknown events as their fields."""
    table = events_of(prop)
    describer = (table.get(name) or COMMON.get(name)) if isinstance(name, str) else None
    if describer is None or not isinstance(data, dict):
        if describer is not None and data is None:
            data = {}
        else:
            return fields_text(_raw(name), data)
    try:
        return describer(data)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ImportError):
        # a board that sends fields we do not expect: show them as they came
        return fields_text(_raw(name), data)
