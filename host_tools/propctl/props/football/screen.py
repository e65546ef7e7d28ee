"""The Finger Football box's sim at a terminal: the scoreboard as the OLED shows it, the log, and
a person's keys turned into the runner's --keys lines (see propctl.props.football.sim)."""
import os
from typing import Optional

from propctl.keys import ESC
from propctl.props.football.reports import YARDS_WORDS, button_roles, play_note, reports
from propctl.termtext import cut, terminal_size, wrap

# The box's buttons (firmware/lib/props/football/parts.BUTTON_NAMES) on keys.
BUTTON_KEYS = (("r", "roll"), ("k", "kick"), ("g", "good"), ("m", "miss"))
DIGITS = "0123456789"


# --- the screen ------------------------------------------------------------------

def oled_box(lines: list, rows: int) -> list:
    """The OLED text framed like a panel, 16 characters wide."""
    shown = (list(lines) + [""] * rows)[:rows]
    out = ["+" + "-" * 18 + "+"]
    out += ["| %-16s |" % line for line in shown]
    out.append("+" + "-" * 18 + "+")
    return out


class Screen:
    """The heading, the OLED panel with the keys beside it, the status and the latest log lines,
    drawn from the top of the terminal in place: never taller or wider than the terminal."""

    def __init__(self, out, heading: str, rows: int) -> None:
        self.out = out
        self.heading = heading
        self.rows = rows
        self.oled: list = []
        self.keys: list = []       # the lines beside the panel
        self.status = ""
        self.notice = ""
        self.log: list = []
        self.t = 0
        self.size: Optional[os.terminal_size] = None
        out.write("\x1b[?25l")  # hide the cursor while the panel is redrawn

    def lines(self, cols: int, rows: int) -> list:
        width = cols - 1  # the last column stays empty: some terminals wrap there
        top = ["%s   board time %.1f s" % (self.heading, self.t / 1000)]
        panel = oled_box(self.oled, self.rows)
        if width >= 50:
            beside = self.keys + [""] * (len(panel) - len(self.keys))
            top += ["%-21s %s" % (p, k) if k else p for p, k in zip(panel + [""] * len(beside), beside)]
        else:
            top += panel + self.keys
        top += wrap(self.status, width, "     ")
        top += wrap(self.notice, width, "     ") if self.notice else [""]
        room = rows - 1 - len(top)  # the last row stays empty: writing there could scroll
        log: list = []
        for line in self.log[-max(room, 0):] if room > 0 else []:
            log += wrap(line, width, " " * 19)
        log = log[-room:] if room > 0 else []
        out = (top + log + [""] * max(room - len(log), 0))[:rows - 1]
        return [cut(line, width) for line in out]

    def draw(self) -> None:
        size = terminal_size()
        if size != self.size:  # a new size: what was drawn before may lie outside the new layout
            self.size = size
            self.out.write("\x1b[2J")
        self.out.write("\x1b[H" + "".join(line + "\x1b[K\r\n" for line in self.lines(size.columns,
                                                                                       size.lines)))
        self.out.flush()

    def close(self) -> None:
        self.out.write("\x1b[?25h")
        self.out.flush()


class Keys:
    """The person's keys, turned into the runner's --keys lines (see vboard/vprops/football/run.py).

    A terminal reports key presses, not releases: a held key repeats, so its first press is
    "down", its repeats "hold", and "up" follows when they stop."""

    FIRST_REPEAT_S = 0.7   # longer than any terminal's delay before a key repeats
    NEXT_REPEAT_S = 0.2    # longer than its repeat interval

    def __init__(self, send, long_press_ms: int) -> None:
        self.send = send
        self.long_press_ms = long_press_ms
        self.state: dict = {"phase": "toss", "actions": [], "box": "idle"}
        self.last: dict = {}      # button -> [time of its last key, repeating]
        self.prefix: tuple = ()   # words of a pick chosen so far
        self.typing: Optional[tuple] = None  # ("yards", action, lo, hi) while a yard line is typed
        self.typed = ""
        self.quit = False
        self.notice = ""

    def menu(self) -> list:
        return reports(self.state, self.prefix)

    def lines(self) -> list:
        """What each key does now, for the panel's side."""
        roles = button_roles(self.state)
        out = []
        for key, button in BUTTON_KEYS:
            out.append("%s  %-4s  %s" % (key, button.upper(), roles[button] or "-"))
        for number, (label, _, _) in enumerate(self.menu(), 1):
            out.append("%d  %s" % (number, label))
        out.append("Esc back   q quit" if self.prefix or self.typing else "q  quit")
        return out

    def prompt(self) -> str:
        if self.typing:
            _, action, lo, hi = self.typing
            words = YARDS_WORDS.get(action) or action.replace("_", " ")
            # the typing first: a narrow terminal wraps the explanation, the digits stay in view
            return "yard line: %s_   (%s, %d-%d from the goal of the team getting the ball; " \
                   "Enter, or Esc: back)" % (self.typed, words, lo, hi)
        return self.notice or play_note(self.state)

    def tick(self, now: float) -> None:
        """Let go of buttons whose key stopped repeating."""
        for button, (at, repeating) in list(self.last.items()):
            if now - at > (self.NEXT_REPEAT_S if repeating else self.FIRST_REPEAT_S):
                self.send("up " + button)
                del self.last[button]

    def key(self, ch: str, now: float) -> None:
        self.notice = ""
        if self.typing:
            self.type_key(ch, self.typing[1])
            return
        if ch in ("q", "Q", "\x03", "\x04"):
            self.quit = True
            return
        if ch == ESC:
            self.prefix = ()
            return
        for key, button in BUTTON_KEYS:
            if ch == key:
                if button in self.last:
                    self.send("hold " + button)
                    self.last[button] = [now, True]
                else:
                    self.send("down " + button)
                    self.last[button] = [now, False]
                return
            if ch == key.upper():
                self.send("press %s %d" % (button, self.long_press_ms + 200))
                return
        if ch in DIGITS[1:]:  # not "2".isdigit(): that is true for "²" too
            entries = self.menu()
            index = int(ch) - 1
            if index >= len(entries):
                self.notice = "no report %s now" % ch
                return
            _, line, needs = entries[index]
            if line:
                self.send(line)
                self.prefix = ()
            elif needs[0] == "yards":
                self.typing = needs
                self.typed = ""
            else:
                self.prefix = needs[2]

    def type_key(self, ch: str, action: str) -> None:
        """A key while a yard line for `action` is typed."""
        if ch in (ESC, "\x03", "\x04") or ch in ("\r", "\n") and not self.typed:
            self.typing = None
        elif ch in DIGITS and len(self.typed) < 3:
            self.typed += ch
        elif ch in ("\x7f", "\x08"):
            self.typed = self.typed[:-1]
        elif ch in ("\r", "\n"):
            self.send("report %s %d" % (action, int(self.typed)))
            self.typing = None

    def new_state(self, state: dict) -> None:
        if state["phase"] != self.state.get("phase"):
            self.prefix = ()
            self.typing = None
        self.state = state
