"""The link over the board's USB serial: the firmware's own stdin and stdout.

Board-only glue: polls stdin without blocking the prop's loop, hands bytes to
a Link, and writes the Link's lines to stdout.
"""
import select
import sys
import time

CTRL_C = 0x03


def _streams():
    # On boards and the unix port the binary streams hang off sys.stdin/stdout.
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)
    return stdin, stdout


def write_line(data: bytes) -> None:
    """Send one finished line to the desktop."""
    stdout = _streams()[1]
    stdout.write(data)
    flush = getattr(stdout, "flush", None)
    if flush:
        flush()


class StdioPort:
    """Moves bytes between stdin/stdout and a Link without ever blocking long."""

    def __init__(self, link, max_bytes: int = 256) -> None:
        self._link = link
        self._stdin = _streams()[0]
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)
        self._max_bytes = max_bytes
        self.closed = False

    def pump(self, timeout_ms: int = 0) -> int:
        """Wait up to timeout_ms for input, then handle what arrived. Returns bytes read."""
        if self.closed:
            # stdin ended (a pipe, never a board's USB): poll would return at once forever
            time.sleep_ms(timeout_ms)  # type: ignore[attr-defined]
            return 0
        count = 0
        wait = timeout_ms
        while count < self._max_bytes and self._poll.poll(wait):
            wait = 0
            data = self._stdin.read(1)
            if not data:
                self.closed = True
                break
            byte = data[0]
            if byte == CTRL_C:
                # A board's runtime turns Ctrl-C into KeyboardInterrupt by itself;
                # the unix port with a raw terminal does not, so mpremote's
                # interrupt would be lost without this.
                raise KeyboardInterrupt
            self._link.feed(data)
            count += 1
        return count
