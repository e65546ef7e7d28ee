"""The Finger Football scoreboard: what the box shows, on an SSD1306 OLED or on plain LEDs.

    display.render(view)   show a scoreboard view (a dict, see below); redraws only on change
    display.off()          blank / all LEDs off (shutdown, faults)

A view (`game_view(game, counting)`) holds what the Finger Football box shows: "quarter", "quarters",
"plays", "plays_per_quarter", "score" [home, away], "names", "offense"
(team 0/1 with the ball, None before the toss), "down", "line" (e.g. "own 35"),
"dice" ([zone face, lane face] or None), "status" (a short word: TOSS,
KICKOFF, KICK!, FINAL ...), "message" (the referee's last sentence).

OledDisplay lays the view out as text lines (`scoreboard_lines`) on a
drivers.ssd1306.SSD1306. LedDisplay shows what LEDs can: possession (one LED
per team), the downs as a bar of four, and the field-goal count. The score
then lives on the host.
"""
from micropython import const

from rules.fingerfootball_field import yard_text

_STATUS_ROWS = const(4)  # score, plays, down, status/dice; more rows show the message


def game_view(game, counting: bool) -> dict:
    """The view of a rules.fingerfootball.FingerFootball game; `counting`: the kick count runs."""
    s = game.state
    settings = game.settings
    playing = s["phase"] not in ("toss", "toss_choice", "goal_choice", "over")
    status = "KICK!" if counting else game.waiting_for()[1]
    if s["phase"] == "over" and s["winner"] is not None:
        status = "FINAL %s WINS" % game.name(s["winner"])[:4].upper()
    return {
        "quarter": s["quarter"], "quarters": settings["quarters"], "plays": s["plays"],
        "plays_per_quarter": settings["plays_per_quarter"], "score": s["score"],
        "names": settings["names"], "offense": s["offense"] if playing else None,
        "down": s["down"] if s["phase"] in ("scrimmage", "choose", "attempt", "penalty") else 0,
        "line": yard_text(s["ball"]), "dice": None if counting else s["dice"],
        "status": status, "message": s["message"],
    }


def _fit(text: str, cols: int) -> str:
    return text if len(text) <= cols else text[:cols]


def wrap(text: str, cols: int, rows: int) -> list:
    """`text` broken at spaces into at most `rows` lines of at most `cols` characters."""
    out: list = []
    line = ""
    for word in text.split():
        while len(word) > cols:
            if line:
                out.append(line)
                line = ""
            out.append(word[:cols])
            word = word[cols:]
        if not word:
            continue
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= cols:
            line = line + " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out[:rows]


def message_lines(text: str, cols: int, rows: int) -> list:
    """`text` wrapped into `rows` lines; whole sentences are dropped from the front until
    it fits, since the referee puts the latest news (e.g. the final score) last."""
    lines = wrap(text, cols, rows + 1)
    while len(lines) > rows:
        cut = text.find(". ")
        if cut < 0:
            return lines[:rows]
        text = text[cut + 2:]
        lines = wrap(text, cols, rows + 1)
    return lines


def scoreboard_lines(view: dict, cols: int = 16, rows: int = 4) -> list:
    """The text lines of a scoreboard view: score, quarter and plays, down, dice or status."""
    names = view["names"]
    score = view["score"]
    offense = view["offense"]
    marks = [" ", " "]
    if offense is not None:
        marks[offense] = ">"
    lines = [_fit("%s%-4s%3d%s%-4s%3d" % (marks[0], names[0][:4].upper(), score[0],
                                           marks[1], names[1][:4].upper(), score[1]), cols)]
    quarter = view["quarter"]
    if quarter > view["quarters"]:
        period = "OT%d" % (quarter - view["quarters"])
    else:
        period = "Q%d" % quarter
    lines.append(_fit("%s PLAY %d/%d" % (period, view["plays"], view["plays_per_quarter"]), cols))
    if view["down"]:
        lines.append(_fit("DOWN %d %s" % (view["down"], view["line"].upper()), cols))
    else:
        lines.append("")
    dice = view["dice"]
    if dice:
        lines.append(_fit("%s %s" % (dice[0].upper(), dice[1].upper()), cols))
    else:
        lines.append(_fit(view["status"], cols))
    if rows > _STATUS_ROWS:
        lines += message_lines(view["message"], cols, rows - _STATUS_ROWS)
    return lines[:rows]


class OledDisplay:
    """The scoreboard as text on an SSD1306 (see the module docstring)."""

    def __init__(self, oled) -> None:
        self.oled = oled
        self.cols = oled.width // 8
        self.rows = oled.height // 8
        self.lines: list = []

    def render(self, view: dict) -> None:
        """Draw the view's lines; nothing is sent if they did not change."""
        lines = scoreboard_lines(view, self.cols, self.rows)
        if lines == self.lines:
            return
        self.lines = lines
        oled = self.oled
        oled.fill(0)
        y = 0
        for line in lines:
            oled.text(line, 0, y)
            y += 8
        oled.show()

    def off(self) -> None:
        """Blank the panel."""
        self.lines = []
        self.oled.fill(0)
        self.oled.show()


class LedDisplay:
    """Possession, downs and the kick count on LEDs (pins: already-built output Pins or None)."""

    def __init__(self, home, away, kick=None, downs=()) -> None:
        self._home = home
        self._away = away
        self._kick = kick
        self._downs = [pin for pin in downs if pin is not None]
        self.lines: list = []  # LEDs show no text
        self.off()

    def _set(self, pin, on: bool) -> None:
        if pin is not None:
            pin.value(1 if on else 0)

    def render(self, view: dict) -> None:
        """Light the team with the ball, `down` LEDs of the bar, and the kick LED while counting."""
        offense = view["offense"]
        self._set(self._home, offense == 0)
        self._set(self._away, offense == 1)
        self._set(self._kick, view["status"] == "KICK!")
        down = view["down"]
        i = 0
        for pin in self._downs:
            pin.value(1 if i < down else 0)
            i += 1

    def off(self) -> None:
        """All LEDs off."""
        self._set(self._home, False)
        self._set(self._away, False)
        self._set(self._kick, False)
        for pin in self._downs:
            pin.value(0)
