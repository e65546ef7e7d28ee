"""The link over the board's USB serial: the firmware's own stdin and stdout.

Board-only glue: polls stdin without blocking the prop's loop, hands bytes to
a Link, and writes the Link's lines to stdout. Reading allocates nothing
(`ipoll`, one preallocated byte), so the loop that runs forever stays
allocation-free while bytes arrive.

Ctrl-C: while a prop runs (`hold_repl()`), 0x03 is an ordinary byte, so
noise on the line cannot stop the prop. Only mpremote's own interrupt,
CR, Ctrl-C (once or more), CR, stops it: the port then raises
KeyboardInterrupt and leaves the Ctrl-A that follows unread, for the REPL
(`mpremote connect PORT resume exec ...` against a running prop). In safe
and maintenance mode every Ctrl-C gives the REPL, as deploy needs.
"""
import select
import sys
import time

CTRL_C = 0x03
CR = 0x0D


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


def _kbd_intr(char: int) -> None:
    import micropython
    set_key = getattr(micropython, "kbd_intr", None)  # CPython's stub has none
    if set_key is not None:
        set_key(char)


class StdioPort:
    """Moves bytes between stdin/stdout and a Link without ever blocking long.

    any_ctrl_c: True (safe/maintenance mode) makes every 0x03 a
    KeyboardInterrupt; False (a prop runs) only mpremote's CR Ctrl-C CR.
    stream: the input stream (default stdin), for tests.
    """

    def __init__(self, link, max_bytes: int = 256, any_ctrl_c: bool = True, stream=None) -> None:
        self._link = link
        self._stdin = stream if stream is not None else _streams()[0]
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)
        self._byte = bytearray(1)
        self._max_bytes = max_bytes
        self._any_ctrl_c = any_ctrl_c
        self._escape = 0   # 0: nothing, 1: after CR, 2: after CR and Ctrl-C
        self.closed = False

    def hold_repl(self) -> None:
        """A prop runs: Ctrl-C on the line is data (the board would raise KeyboardInterrupt)."""
        self._any_ctrl_c = False
        _kbd_intr(-1)

    def release_repl(self) -> None:
        """Ctrl-C interrupts again (the prop has ended)."""
        self._any_ctrl_c = True
        _kbd_intr(CTRL_C)

    def _ready(self, timeout_ms: int) -> bool:
        for _ in self._poll.ipoll(timeout_ms):
            return True
        return False

    def pump(self, timeout_ms: int = 0) -> int:
        """Wait up to timeout_ms for input, then handle what arrived. Returns bytes read."""
        if self.closed:
            # stdin ended (a pipe, never a board's USB): poll would return at once forever
            if timeout_ms > 0:
                time.sleep_ms(timeout_ms)  # type: ignore[attr-defined]
            return 0
        count = 0
        wait = timeout_ms
        byte_buf = self._byte
        while count < self._max_bytes and self._ready(wait):
            wait = 0
            if not self._stdin.readinto(byte_buf, 1):
                self.closed = True
                break
            byte = byte_buf[0]
            count += 1
            if self._interrupts(byte):
                # A board's runtime raises this by itself when kbd_intr is on;
                # the unix port with a raw terminal does not.
                raise KeyboardInterrupt
            self._link.feed_byte(byte)
        return count

    def _interrupts(self, byte: int) -> bool:
        if byte == CTRL_C:
            if self._any_ctrl_c:
                return True
            self._escape = 2 if self._escape else 0
        elif byte == CR:
            if self._escape == 2:
                self._escape = 0
                return True
            self._escape = 1
        else:
            self._escape = 0
        return False
