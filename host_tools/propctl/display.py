"""Text a person typed (or a file or a board sent), made safe and measured for a terminal.

A terminal obeys control characters: ESC starts a sequence that can set the
window title, change colours or clear the screen, so a name such as
"A\\x1b[31m" would paint everything after it red. `printable` shows every
control character as a \\u escape instead. The game masters, the sims, the
monitor and `cards show` put what they show through it.

A CJK letter takes two columns of a terminal, a combining accent none, so
cutting or wrapping by len() gives lines wider (or narrower) than the
terminal: `width`, `cut` and `wrap` count columns.
"""
import functools
import re
import unicodedata
from typing import Callable, List

# C0 (but newline), DEL, C1, and lone surrogates (not text; a terminal shows garbage)
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


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

    _CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

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


def char_width(ch: str) -> int:
    """Columns one character takes: 2 for East Asian wide and fullwidth, 0 for combining marks
    and zero-width format characters, else 1."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns `text` takes on a terminal (one line)."""
    if text.isascii():
        return len(text)
    return sum(char_width(ch) for ch in text)


def cut(text: str, columns: int, mark: str = "") -> str:
    """`text` cut to at most `columns` columns; when cut, it ends with `mark` (e.g. "...")."""
    if width(text) <= columns:
        return text
    room = max(0, columns - width(mark))
    used = 0
    for i, ch in enumerate(text):
        used += char_width(ch)
        if used > room:
            return text[:i].rstrip() + mark if mark else text[:i]
    return text  # not reached: the whole text is wider than columns


def wrap(text: str, columns: int, indent: str = "") -> List[str]:
    """`text` as lines of at most `columns` columns, broken at spaces (the spaces inside a line
    kept, those at a break dropped; a word wider than a line is split); lines after the first
    start with `indent`. [""] for an empty text."""
    columns = max(columns, width(indent) + 1)
    lines: List[str] = []
    line = ""
    space = ""
    for token in re.findall(r"\S+|\s+", text):
        if token.isspace():
            space = token
            continue
        start = line + space if line or not lines else indent
        space = ""
        if width(start + token) <= columns:
            line = start + token
            continue
        if line.strip():
            lines.append(line)
        piece = (indent if lines else "") + token  # leading spaces that do not fit go
        lead = len(indent) if lines else 0
        while width(piece) > columns:
            head = cut(piece, columns)
            if len(head) <= lead:  # not even one character fits after the indent: take one
                head = piece[:lead + 1]
            lines.append(head)
            piece = indent + piece[len(head):]
            lead = len(indent)
        line = piece
    lines.append(line)
    return lines
