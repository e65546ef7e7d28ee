"""The Finger Football box's events as sentences (propctl.describe finds EVENTS here by the
prop's name)."""
from propctl.describe import _int, _list, _raw


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


EVENTS = {
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
