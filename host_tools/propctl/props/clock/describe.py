"""The ghost clock's events as sentences (propctl.describe finds EVENTS here by the prop's name)."""
from propctl.describe import _int, _list, _players, _raw, _seconds


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


EVENTS = {
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
