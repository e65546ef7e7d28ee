"""Text for a terminal measured as the terminal shows it: in cells, not characters.

A wide character (CJK, most emoji) takes two cells, a combining accent none.
`cells` measures, `cut` shortens to a number of cells, `wrap` breaks at word
boundaries (a word longer than the line is broken inside), and `Printer` is a
`print` that wraps every line it says to the terminal's width (at most 80).
"""
import os
import re
import sys
import unicodedata
from typing import List, Optional

MAX_WIDTH = 80  # prose is easier to read in short lines, even at a wide terminal


def char_cells(ch: str) -> int:
    """The cells one character takes: 0 (combining, control), 1 or 2 (wide)."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """How many terminal cells `text` takes."""
    return sum(char_cells(ch) for ch in text)


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` cells (a wide character that would cross the edge goes)."""
    used = 0
    for i, ch in enumerate(text):
        used += char_cells(ch)
        if used > width:
            return text[:i]
    return text


def shortened(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its start and "..." (limit in all), so a
    reader sees that a quoted text goes on."""
    return text if len(text) <= limit else text[:max(0, limit - 3)] + "..."


def tail(text: str, width: int) -> str:
    """The end of `text` that fits in `width` cells (what a typed line shows while it grows)."""
    used = 0
    for i in range(len(text) - 1, -1, -1):
        used += char_cells(text[i])
        if used > width:
            return text[i + 1:]
    return text


def wrap(text: str, width: int, indent: Optional[str] = None) -> List[str]:
    """`text` in lines of at most `width` cells, broken between words; the later lines start with
    `indent` (default: the first line's own leading spaces). An empty text is one empty line."""
    width = max(1, width)
    lead = text[:len(text) - len(text.lstrip(" "))]
    if indent is None:
        indent = lead
    if cells(indent) >= width // 2:
        indent = ""
    if cells(text) <= width:
        return [text.rstrip()]
    lines: List[str] = []
    line = lead
    for token in re.findall(r" *\S+", text[len(lead):]):  # each word with the spaces before it
        word = token.lstrip(" ")
        joined = line + token if line.strip() else line + word
        if cells(joined) <= width:
            line = joined
            continue
        if line.strip():
            lines.append(line)
            line = indent
        while cells(line + word) > width:  # a word longer than a line: broken where it must
            piece = cut(word, width - cells(line)) or word[0]
            lines.append(line + piece)
            word = word[len(piece):]
            line = indent
        line += word
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def terminal_size() -> os.terminal_size:
    """The terminal's size as it is now (a resized window included), asked of the terminal itself:
    COLUMNS and LINES in the environment are a shell's note of an older size. 80x24 if unknown."""
    for stream in (sys.stdout, sys.stdin):
        try:
            size = os.get_terminal_size(stream.fileno())
        except (AttributeError, OSError, ValueError):
            continue
        if size.columns > 0 and size.lines > 0:  # 0: a terminal that never said its size
            return size
    return os.terminal_size((MAX_WIDTH, 24))


def width_now() -> int:
    """Columns to write in: the terminal's width (80 if unknown) but at most MAX_WIDTH, less one
    (the last column stays empty: some terminals wrap there)."""
    columns = terminal_size().columns
    return max(20, min(columns, MAX_WIDTH) - 1)


class Printer:
    """A `print` for a game master: every line wrapped at word boundaries to the terminal."""

    def __init__(self, out=None) -> None:
        self.out = out

    def __call__(self, *parts, **kwargs) -> None:
        out = kwargs.get("file") or self.out or sys.stdout
        text = " ".join(str(p) for p in parts)
        width = width_now()
        lines = []
        for line in text.split("\n"):
            lines += wrap(line, width)
        print("\n".join(lines), file=out, flush=True)


say_wrapped = Printer()  # the game masters' default `say`


# Key bindings for the game masters' prompts (GNU readline's inputrc syntax): Esc then Enter
# takes the line as Enter does (by default Esc Ctrl-J would switch to vi mode), and a paste
# arrives as typed text, not as keys (readline's bracketed paste, on by default since 8.1).
# No incremental history search (Ctrl-R, Ctrl-S): with bytes that are not UTF-8 in the line it
# crashed GNU readline 8 (SIGSEGV) under tests/cli/test_terminal_fuzz.py; Up and Down still walk the
# history. Bytes with the high bit set are text, never Alt+key (convert-meta off).
READLINE_BINDINGS = (r'"\e\C-m": accept-line', r'"\e\C-j": accept-line', "set enable-bracketed-paste on",
                     "set bell-style none", r'"\C-r": redraw-current-line', r'"\C-s": redraw-current-line',
                     "set input-meta on", "set output-meta on", "set convert-meta off")
_editing: Optional[bool] = None


def line_editing() -> bool:
    """Load the standard library's readline once, where the platform has it: `input()` at a
    terminal then edits its line (Left/Right, Home/End, Ctrl-U, Ctrl-W) and keeps a history of
    this session's answers (Up/Down). Ctrl-C still raises KeyboardInterrupt. False without it
    (then `typed` still keeps escape bytes out of an answer)."""
    global _editing
    if _editing is None:
        try:
            import readline
        except ImportError:  # Windows, or a Python built without it
            _editing = False
        else:
            readline.set_completer(lambda text, state: None)  # Tab completes no file names
            if "libedit" not in (readline.__doc__ or ""):  # macOS' libedit reads other syntax
                for binding in READLINE_BINDINGS:
                    readline.parse_and_bind(binding)
            _editing = True
    return _editing


# What keys a terminal sends besides text: CSI (arrows, Home/End, F-keys, a mouse report, a
# paste's brackets), SS3 (keypad arrows and F1-F4), OSC (a title) and Alt+key.
_KEY_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|O[^\x1b]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[^\x1b])?",
                           re.S)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x80-\x9f]")


def typed(text: str) -> str:
    """A line typed at a terminal, without the keys that are no text: escape sequences the
    line editor did not take (an unbound key, Ctrl-V Esc) and other control bytes; a tab is a
    space. No escape byte reaches an answer."""
    return _CONTROL.sub("", _KEY_SEQUENCE.sub("", text)).replace("\t", " ")


def ask_wrapped(prompt: str) -> str:
    """`input(prompt)` with a long prompt wrapped: its first lines printed, the last one asked.
    At a terminal the line can be edited (line_editing) and no escape byte reaches the answer."""
    width = width_now()
    lines = wrap(prompt, width - 8)  # room to start typing on the prompt's own line
    for line in lines[:-1]:
        print(line, flush=True)
    last = lines[-1] + (" " if prompt.endswith(" ") else "")
    at_terminal = _is_terminal(sys.stdin) and _is_terminal(sys.stdout)
    if at_terminal:
        line_editing()
    answer = input(last)
    return typed(answer) if at_terminal else answer


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
