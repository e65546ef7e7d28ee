"""Split a byte stream into lines with a hard length limit and fixed memory.

Used on both ends: the board reads requests with it, the desktop reads the
board's lines with it (with a larger limit).
"""

# Returned in place of a line that was longer than the limit; a real line can
# never contain a newline, so this cannot be mistaken for one.
OVERLONG = b"\n"


class LineBuffer:
    """Collects bytes into lines; a line over `limit` is dropped and reported once."""

    def __init__(self, limit: int) -> None:
        self._buf = bytearray(limit)
        self._limit = limit
        self._len = 0
        self._overflow = False

    def push(self, byte: int):
        """Add one byte; return a finished line (bytes), OVERLONG, or None."""
        if byte == 0x0A:
            if self._overflow:
                self._overflow = False
                self._len = 0
                return OVERLONG
            line = bytes(self._buf[:self._len])
            self._len = 0
            return line
        if self._overflow:
            return None
        if byte == 0x0D:
            return None  # terminals send CRLF; a CR never matters
        if self._len >= self._limit:
            self._overflow = True
            return None
        self._buf[self._len] = byte
        self._len += 1
        return None

    def feed(self, data) -> list:
        """Add many bytes; return the finished lines (bytes or OVERLONG), in order."""
        lines = []
        for byte in data:
            line = self.push(byte)
            if line is not None:
                lines.append(line)
        return lines

    def pending(self) -> int:
        """Bytes waiting for their newline."""
        return self._len
