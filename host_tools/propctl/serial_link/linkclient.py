"""The desktop's end of the link: requests, replies, events, lost-line detection.

    with LinkClient.open("/dev/ttyACM0") as board:
        info = board.hello()                 # refuses a protocol propctl does not speak
        board.request("start_round", {"seed": 7})
        for line in board.lines(timeout=30): ...

Uses the same framing and message format as the board (the `link` package).
Lines that are not link messages (tracebacks, print output, the REPL) are
passed on as console text.
"""
import errno
import json
import time

from propctl.shared.link import protocol
from propctl.shared.link.framing import OVERLONG, LineBuffer

# Protocol versions this propctl speaks.
SUPPORTED_PROTOCOLS = (1,)
HOST_MAX_LINE = 16384


class LinkFailure(Exception):
    """The board did not answer as the protocol says (timeout, version, refused request)."""


class ProtocolMismatch(LinkFailure):
    """The board speaks a protocol version this propctl does not."""


def compatibility_problem(info: dict):
    """None if propctl can talk to a board that said `info` in its hello, else what to update."""
    version = info.get("protocol")
    if version in SUPPORTED_PROTOCOLS:
        return None
    if isinstance(version, int) and version > max(SUPPORTED_PROTOCOLS):
        return ("the board speaks link protocol %d, this propctl only %s: update propctl "
                "(pip install -U game-props, or git pull and make setup)"
                % (version, ", ".join(str(v) for v in SUPPORTED_PROTOCOLS)))
    return ("the board's firmware speaks link protocol %r, this propctl needs %s: update the firmware "
            "with `propctl deploy --port PORT --prop PROP --board BOARD`"
            % (version, " or ".join(str(v) for v in SUPPORTED_PROTOCOLS)))


class Line:
    """One line from the board: a link message (`message`) or console text (`text`)."""

    def __init__(self, message=None, text=None, lost: int = 0, restarted: bool = False) -> None:
        self.message = message
        self.text = text
        self.lost = lost            # lines missing before this one (sequence gap)
        self.restarted = restarted  # seq went back to 1: the board was reset

    @property
    def event(self):
        return self.message.get("ev") if self.message else None


class LinkClient:
    """Talks the link protocol over a byte stream with read(n)/write(b)/in_waiting (pyserial)."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self._frames = LineBuffer(HOST_MAX_LINE)
        self._pending: list = []
        self._next_id = 1
        self.last_seq = None
        self.lost_total = 0

    @classmethod
    def open(cls, port: str, baudrate: int = 115200, wait_s: float = 0.0) -> "LinkClient":
        """Open a serial port (retrying up to wait_s: a board re-enumerates after a reset)."""
        import serial
        deadline = time.monotonic() + wait_s
        while True:
            try:
                # write_timeout: a board that stopped reading must not hang the desktop
                stream = serial.Serial(port, baudrate=baudrate, timeout=0.05, write_timeout=10,
                                       exclusive=True)
                break
            except (serial.SerialException, OSError) as exc:
                # a device that is no terminal (/dev/null) will not become one: no waiting
                if time.monotonic() >= deadline or "(%d, " % errno.ENOTTY in str(exc):
                    raise
                time.sleep(0.1)
        # End any line another program left open (mpremote's interrupt is data to a running
        # prop): else our first request would be glued to it. An empty line gets no reply.
        stream.write(b"\n")
        return cls(stream)

    def close(self) -> None:
        self.stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- reading -------------------------------------------------------
    def _classify(self, raw: bytes) -> Line:
        if raw == OVERLONG:
            return Line(text="<a line longer than %d bytes was dropped>" % HOST_MAX_LINE)
        text = raw.decode("utf-8", "replace")
        try:
            message = json.loads(text)
        except ValueError:
            return Line(text=text)
        if not isinstance(message, dict) or not isinstance(message.get("seq"), int) or isinstance(
                message.get("seq"), bool):
            return Line(text=text)
        seq = message["seq"]
        line = Line(message=message)
        if seq == 0:
            return line  # an unnumbered emergency line
        if self.last_seq is not None:
            expected = self.last_seq % protocol.SEQ_WRAP + 1
            if seq == 1 and expected != 1:
                line.restarted = True
            elif seq != expected:
                line.lost = (seq - expected) % protocol.SEQ_WRAP
                self.lost_total += line.lost
        self.last_seq = seq
        return line

    def read_line(self, timeout: float):
        """The next Line, or None after `timeout` seconds without one."""
        deadline = time.monotonic() + timeout
        while not self._pending:
            data = self.stream.read(max(1, getattr(self.stream, "in_waiting", 0) or 1))
            if data:
                for raw in self._frames.feed(data):
                    if raw:
                        self._pending.append(self._classify(raw))
            elif time.monotonic() >= deadline:
                return None
        return self._pending.pop(0)

    def lines(self, timeout: float):
        """Yield Lines until `timeout` seconds pass without one."""
        while True:
            line = self.read_line(timeout)
            if line is None:
                return
            yield line

    # --- requests ------------------------------------------------------
    def send(self, cmd: str, args=None) -> int:
        """Send a request; returns its id (the reply carries it in `re`)."""
        request_id = self._next_id
        self._next_id += 1
        self.stream.write(protocol.encode(protocol.request(cmd, args, request_id)))
        return request_id

    def request(self, cmd: str, args=None, timeout: float = 3.0, on_line=None):
        """Send a request and return its `ok` value; LinkFailure on error or timeout.

        Lines that arrive meanwhile (events, console text) go to on_line(Line).
        """
        request_id = self.send(cmd, args)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            line = self.read_line(max(0.0, left)) if left > 0 else None
            if line is None:
                raise LinkFailure("no answer to %s within %.1f s" % (cmd, timeout))
            message = line.message
            if message is not None and message.get("re") == request_id and "ev" not in message:
                if on_line is not None and line.lost:
                    on_line(line)
                if "err" in message:
                    raise LinkFailure("%s refused: %s (%s)" % (cmd, message.get("msg"), message.get("err")))
                return message.get("ok")
            if on_line is not None:
                on_line(line)

    def hello(self, timeout: float = 3.0, on_line=None) -> dict:
        """Ask who the board is; ProtocolMismatch if propctl cannot talk to it."""
        info = self.request("hello", {"protocol": max(SUPPORTED_PROTOCOLS)}, timeout, on_line)
        if not isinstance(info, dict):
            raise LinkFailure("the board's hello was not understood: %r" % (info,))
        problem = compatibility_problem(info)
        if problem:
            raise ProtocolMismatch(problem)
        return info

    def wait_for(self, predicate, timeout: float, on_line=None):
        """Read lines until predicate(line) is true; return that line, or None on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            line = self.read_line(left)
            if line is None:
                return None
            if on_line is not None:
                on_line(line)
            if predicate(line):
                return line
