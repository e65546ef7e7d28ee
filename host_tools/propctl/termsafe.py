"""Text a person typed (or a file or a board sent), made safe for a terminal.

A terminal obeys control characters: ESC starts a sequence that can set the
window title, change colours or clear the screen, so a name such as
"A\\x1b[31m" would paint everything after it red. `printable` shows every
control character (and each bidi control, which reorders a line) as a \\u escape
instead. The game masters, the sims, the
monitor and `cards show` put what they show through it.
Measuring text in terminal cells (a CJK letter takes two) is propctl.termtext's.
"""
import functools
import re
from typing import Callable

# The bidi controls: a terminal that lays out right-to-left text obeys them, and U+202E
# draws the rest of the line backwards (what follows a name or a card's text).
BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# C0 (but newline), DEL, C1, lone surrogates (not text; a terminal shows garbage), bidi controls
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff" + BIDI + "]")


def printable(text: str, newlines: bool = True) -> str:
    """`text` with every control character (ESC, BEL, CR, tab...) shown as \\uXXXX, so printing
    it cannot change the terminal; newlines stay unless `newlines` is False."""
    text = str(text)
    out = _CONTROL.sub(lambda m: "\\u%04x" % ord(m.group()), text)
    return out if newlines else out.replace("\n", "\\u000a")


def escaped(describe: Callable[..., str]) -> Callable[..., str]:
    """`describe` (a function that makes a log line from a board's record, which may carry what
    a person typed) with its line shown through printable, newlines too: one safe line."""
    @functools.wraps(describe)
    def line(*args, **kwargs) -> str:
        return printable(describe(*args, **kwargs), newlines=False)
    return line


class Shown:
    """A text stream (sys.stderr) whose writes go through printable, keeping the layout
    characters \\n, \\r and \\t: propctl's messages name paths, ports and values as typed,
    and none of them may reach the terminal as a control sequence."""

    _CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff" + BIDI + "]")

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(self._CONTROL.sub(lambda m: "\\u%04x" % ord(m.group()), text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def has_control(text: str) -> bool:
    """Whether `text` holds a character `printable` would escape (a newline too)."""
    return bool(_CONTROL.search(text)) or "\n" in text
