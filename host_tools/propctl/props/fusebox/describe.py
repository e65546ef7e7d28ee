"""The fuse box's events as sentences (propctl.describe finds EVENTS here by the prop's name)."""
from propctl.describe import _int, _join, _list, _number, _raw


def _fusebox_scored(d: dict) -> str:
    raw = d.get("points")
    points: dict = raw if isinstance(raw, dict) else {}
    gained = ["player %s +%s" % (_number(_int_key(player)), _raw(points[player]))
              for player in sorted(points, key=_order) if points[player]]
    scores = _list(d.get("scores"))
    text = "window %s was %s: %s" % (_number(d.get("window")),
                                    "the BOLT" if d.get("bolt") is True else "safe", _join(gained))
    if scores:
        text += "; scores %s" % ", ".join("player %d %s" % (i + 1, _raw(s)) for i, s in enumerate(scores))
    if d.get("game_over") is True:
        text += "; GAME OVER"
    elif d.get("round_over") is True:
        text += "; round over"
    return text


def _order(key) -> tuple:
    """Sort key for player numbers sent as text: "2" before "10"; anything else after, by its text."""
    n = _int(_int_key(key))
    return (0, n, "") if n is not None else (1, 0, str(key))


def _int_key(key):
    try:
        return int(key)
    except (TypeError, ValueError):
        return key


def _fusebox_mode(d: dict) -> str:
    if d.get("mode") == "pack":
        return "card pack loaded: %s cards" % _raw(d.get("cards"))
    return "manual mode (no card pack): %s" % _raw(d.get("why") or "no pack configured")


EVENTS = {
    "window": lambda d: "window %s %s (%s opened this round)" % (
        _number(d.get("window")), "opened" if d.get("open") is True else "closed", _raw(d.get("opened"))),
    "card": lambda d: "card %s in the box%s" % (
        _raw(d.get("id")) if d.get("id") else "(unknown: manual mode)",
        "; an unfinished round was dropped" if d.get("dropped_round") is True else ""),
    "safe": lambda d: "window %s is safe (%s opened)" % (_number(d.get("window")), _raw(d.get("opened"))),
    "fuse_blown": lambda d: "FUSE BLOWN at window %s" % _number(d.get("window")),
    "windows_not_closed": lambda d: "close every window first: open %s" % (
        ", ".join(_number(w) for w in _list(d.get("windows"))) or "?"),
    "sensor_fault": lambda d: "sensor fault: %s %s" % (
        "the MCP23017 (I2C)" if _int(d.get("window")) == -1 else "window " + _number(d.get("window")),
        _raw(d.get("fault")).replace("_", " ")),
    "mode": _fusebox_mode,
    "pack_error": lambda d: "card pack problem: %s (%s)" % (_raw(d.get("error")), _raw(d.get("path"))),
    "scored": lambda d: "score: " + _fusebox_scored(d),
}
