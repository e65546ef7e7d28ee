"""Keys from a terminal read byte by byte (cbreak mode), and a line typed on one row.

`KeyDecoder` turns the bytes into keys: characters (UTF-8 decoded; bytes that
are not UTF-8 are dropped), control keys as their character ("\\x03" Ctrl-C,
"\\r" Enter, "\\x7f" Backspace), ESC for the Escape key alone, and nothing for
the sequences arrow, function and other keys send (ESC [ ... or ESC O x):
an arrow key must never count as the letters and digits inside its sequence.
A lone Escape is only told from the start of a sequence by what follows, so
it is reported once ESC_WAIT_S passed with nothing after it (`flush`).

`LineEditor` is a prompt's line: printable keys are typed, Backspace, Ctrl-U
and Ctrl-W edit, Enter ends it, and Esc, Ctrl-C, Ctrl-D or Enter on an empty
line cancel it. Nothing here reads the terminal: the sims feed it.
"""
import codecs
import termios
from typing import List, Optional

ESC = "ESC"           # the Escape key alone
ESC_WAIT_S = 0.05     # a sequence's bytes arrive together; a person's next key takes longer
MAX_SEQUENCE = 32     # a longer "escape sequence" is junk: it ends there
DONE, CANCELLED = "done", "cancelled"


class KeyDecoder:
    """Bytes in, keys out (see the module docstring)."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        self._sequence: Optional[str] = None  # characters of an escape sequence read so far
        self._esc_at = 0.0

    def feed(self, data: bytes, now: float) -> List[str]:
        keys: List[str] = []
        for ch in self._utf8.decode(data):
            self._char(ch, now, keys)
        return keys

    def flush(self, now: float) -> List[str]:
        """[ESC] when an Escape has waited ESC_WAIT_S with nothing after it, else []."""
        if self._sequence == "\x1b" and now - self._esc_at >= ESC_WAIT_S:
            self._sequence = None
            return [ESC]
        return []

    def waiting(self) -> bool:
        """An Escape may still be the start of a sequence: call flush again soon."""
        return self._sequence == "\x1b"

    def _char(self, ch: str, now: float, keys: List[str]) -> None:
        seq = self._sequence
        if seq is None:
            if ch == "\x1b":
                self._sequence, self._esc_at = ch, now
            else:
                keys.append(ch)
            return
        if seq == "\x1b":
            if ch in "[O":
                self._sequence = seq + ch
            elif ch == "\x1b":  # Esc twice: the first one was alone
                keys.append(ESC)
                self._esc_at = now
            else:  # Esc, then a key (Alt+key): both count, nothing is eaten
                self._sequence = None
                keys.append(ESC)
                keys.append(ch)
            return
        if ch == "\x1b":  # a new sequence starts inside a broken one
            self._sequence, self._esc_at = ch, now
            return
        seq += ch
        if seq[1] == "O":  # ESC O x: one key of the keypad or F1-F4
            ended = True
        else:  # ESC [ parameters... final: the final is a character from @ to ~
            ended = "@" <= ch <= "~" or len(seq) > MAX_SEQUENCE
        self._sequence = None if ended else seq


class LineEditor:
    """A line typed at a prompt (see the module docstring); `key` says DONE, CANCELLED or None."""

    def __init__(self, limit: int = 64) -> None:
        self.text = ""
        self.limit = limit

    def key(self, key: str) -> Optional[str]:
        if key in (ESC, "\x03", "\x04", "\x07"):
            return CANCELLED
        if key in ("\r", "\n"):
            return DONE if self.text.strip() else CANCELLED
        if key in ("\x7f", "\x08"):
            self.text = self.text[:-1]
        elif key == "\x15":  # Ctrl-U: the whole line
            self.text = ""
        elif key == "\x17":  # Ctrl-W: the last word
            self.text = self.text.rstrip()
            self.text = self.text[:self.text.rfind(" ") + 1]
        elif len(key) == 1 and key.isprintable() and len(self.text) < self.limit:
            self.text += key
        return None


def keys_mode(fd: int) -> list:
    """Cbreak mode without signals: keys one at a time, not echoed, and Ctrl-C, Ctrl-Z and Ctrl-\\
    arrive as keys (the sim decides: leave a prompt, or quit with its summary; the board's process
    is never interrupted by them). Returns the mode to restore."""
    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    mode[0] &= ~(termios.IXON | termios.ICRNL)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSADRAIN, mode)
    return saved
