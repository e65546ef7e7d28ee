"""Board events as sentences, one describer per prop (the prop comes from the board's `hello`).

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


# --- ghost clock -------------------------------------------------------------

def describe_clock_score(d: dict) -> str:
    """A ghost-clock scored event read with the rules core: who won, who banked what, who is close."""
    from propctl.shared.rules.geisteruhr import WINS_TO_END
    banked = [b for b in _list(d.get("banked")) if _int(b) is not None]
    before = [b for b in _list(d.get("before")) if _int(b) is not None]
    # banked and before hold one entry per player, in order: entry i is player i + 1
    gains = ["player %d +%d" % (i + 1, banked[i] - before[i])
             for i in range(len(banked)) if i < len(before) and banked[i] != before[i]]
    text = "round won by %s; ghost spaces %s" % (_players(d.get("round_winners")),
                                                 "-".join(str(b) for b in banked) or "?")
    if gains:
        text += " (%s)" % ", ".join(gains)
    if d.get("over"):
        text += "; GAME OVER: %s won" % _players(d.get("winners"))
    else:
        close = [i + 1 for i in range(len(banked)) if banked[i] == WINS_TO_END - 1]
        if close:
            text += "; one more round win ends the game for %s" % _players(close)
    return text


def _clock_reverse(d: dict) -> str:
    way = {1: "clockwise", -1: "anticlockwise"}.get(_int(d.get("direction")), "?")
    at = " at %s" % _seconds(d.get("at_ms")) if "at_ms" in d else ""  # the sims show board time
    return "hand reverses, now %s%s" % (way, at)


def _clock_start(d: dict) -> str:
    text = "hand starts: round %s, seed %s" % (_raw(d.get("round")), _raw(d.get("seed")))
    if "duration_ms" in d:  # left out where the planned length would spoil the game (the sims)
        text += ", %s segments, %s planned" % (_raw(d.get("segments")), _seconds(d.get("duration_ms")))
    return text


CLOCK = {
    "start": _clock_start,
    "reverse": _clock_reverse,
    "stop": lambda d: "hand stops at %s%s%s" % (
        _seconds(d.get("at_ms")),
        " (planned %s)" % _seconds(d.get("planned_ms")) if "planned_ms" in d else "",
        " (capped by the safety limit)" if d.get("capped") is True else ""),
    "chime": lambda d: "CHIME: round %s is over, count the ghosts" % _raw(d.get("round")),
    "estop": lambda d: "emergency stop (round %s)" % _raw(d.get("round")),
    "idle": lambda d: "idle, %s round(s) played" % _raw(d.get("completed")),
    "battery_low": lambda d: "battery low: %s mV, needs %s mV to start" % (_raw(d.get("mv")),
                                                                           _raw(d.get("min_mv"))),
    "scored": lambda d: "score: " + describe_clock_score(d),
}


# --- fuse box ----------------------------------------------------------------

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


FUSEBOX = {
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


# --- Finger Football box ------------------------------------------------------

def _team(d: dict, key: str = "team") -> str:
    """Team 0/1 by name where the host added the game's "names" (the sims), else home/away team."""
    n = _int(d.get(key))
    names = d.get("names")
    if n in (0, 1) and isinstance(names, list) and len(names) == 2:
        return _raw(names[n])
    return {0: "home team", 1: "away team"}.get(n, _raw(d.get(key))) if n is not None else _raw(d.get(key))


def _kick_count(d: dict) -> str:
    step = d.get("step")
    words = {"go": "GO", "end": "one thousand three: time is up"}
    if step == "beep":
        words["beep"] = "one thousand %s" % {1: "one", 2: "two"}.get(_int(d.get("beat")), _raw(d.get("beat")))
    said = words.get(step) if isinstance(step, str) else None
    return "kick count: %s (%s ms)" % (said or _raw(step), _raw(d.get("at_ms")))


def _down(n) -> str:
    return {1: "1st down", 2: "2nd down", 3: "3rd down", 4: "4th down"}.get(_int(n), "down %s" % _raw(n))


FOOTBALL = {
    "toss": lambda d: "coin toss won by %s" % _raw(d.get("name", d.get("winner"))),
    "roll": lambda d: "dice: zone %s, %s" % (_raw(d.get("zone")), _raw(d.get("lane"))),
    "kick_count": _kick_count,
    "kick_result": lambda d: "kick (%s) %s%s" % (
        _raw(d.get("kind")).replace("_", " "), "GOOD" if d.get("good") is True else "no good",
        " (too late)" if d.get("late") is True else ""),
    "play": lambda d: "referee: %s" % _raw(d.get("message")),
    "score": lambda d: "%s scores %s; score %s" % (
        _team(d), _raw(d.get("points")), " - ".join(_raw(s) for s in _list(d.get("score"))) or "?"),
    "quarter": lambda d: ("FINAL: %s" % ("a tie" if d.get("winner") is None else _team(d, "winner") + " wins")
                          if d.get("over") is True else "quarter %s begins" % _raw(d.get("quarter"))),
    "possession": lambda d: "%s kicks off" % _team(d) if d.get("kickoff") is True else (
        "%s has the ball, %s on the %s" % (_team(d), _down(d.get("down")), _raw(d.get("line")))),
    "refused": lambda d: "refused (%s): %s" % (_raw(d.get("button", "link")), _raw(d.get("error"))),
}

PROPS = {"clock": CLOCK, "fusebox": FUSEBOX, "football": FOOTBALL}


def describe_event(prop, name: str, data) -> str:
    """One event of `prop` (None: not known yet) as a sentence; unknown events as their fields."""
    table = PROPS.get(prop, {}) if isinstance(prop, str) else {}
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
