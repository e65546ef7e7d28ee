"""Faulty-sensor detection for on/off sensors, wrapped around a switch source.

    watch = SensorWatch(PinSource(pins), 8, debounce_ms=20, flicker_ms=1000,
                        stuck_ms=1800000, open_bits=0xFF)
    switches = Switches(watch, 8, debounce_ms=20)
    watch.now = now; switches.update(now)      # every scan
    fault = watch.pop()                        # -1 or an event, see fault_index/fault_kind

It passes the raw bitmap through unchanged and looks at every raw reading:
    FLICKER  the input kept changing and was never stable for debounce_ms
             during flicker_ms (bounce that debouncing cannot settle);
    STUCK    the input read its "open" level at every scan for stuck_ms
             (a broken wire or a lost magnet reads open for ever).
Each fault is reported once; the input may report again after it has been
stable (flicker) or has changed (stuck). Nothing allocates after construction.
"""
from time import ticks_diff

from micropython import const

from drivers.eventqueue import EventQueue

FLICKER = const(0)
STUCK = const(1)
KIND_NAMES = ("flicker", "stuck_open")
_QUEUE = const(16)


def fault_index(event: int) -> int:
    """Which input a fault event is about."""
    return event >> 1


def fault_kind(event: int) -> int:
    """FLICKER or STUCK."""
    return event & 1


class SensorWatch:
    """A switch source that also reports faulty sensors (see the module docstring).

    open_bits: the raw bitmap that every input shows when open: 0 when an
    active input means closed (reed held shut by the magnet), all ones when
    an active input means open.
    """

    def __init__(self, source, count: int, debounce_ms: int, flicker_ms: int, stuck_ms: int,
                 open_bits: int = 0) -> None:
        self._source = source
        self._count = count
        self.debounce_ms = debounce_ms
        self.flicker_ms = flicker_ms
        self.stuck_ms = stuck_ms
        self._open_bits = open_bits
        self.now = 0              # set by the caller before each scan
        self._raw = 0
        self._started = False
        self._unsettled = 0       # inputs changing without being stable for debounce_ms yet
        self._flicker_sent = 0
        self._stuck_sent = 0
        self.faulty = 0           # inputs with a fault reported and not yet cleared
        self._last_edge = [0] * count
        self._unsettled_since = [0] * count
        self._queue = EventQueue(_QUEUE)

    def pending(self) -> int:
        """How many fault events wait."""
        return len(self._queue)

    def pop(self) -> int:
        """The oldest fault event, or -1."""
        return self._queue.pop()

    def _push(self, index: int, kind: int) -> None:
        self._queue.push((index << 1) | kind)

    def read(self) -> int:
        """The source's raw bitmap, after checking it for faults at time `self.now`."""
        raw = self._source.read()
        now = self.now
        if not self._started:
            self._started = True
            self._raw = raw
            i = 0
            while i < self._count:
                self._last_edge[i] = now
                i += 1
            return raw
        changed = raw ^ self._raw
        self._raw = raw
        i = 0
        while i < self._count:
            bit = 1 << i
            if changed & bit:
                if not self._unsettled & bit:
                    self._unsettled |= bit
                    self._unsettled_since[i] = now
                self._last_edge[i] = now
                if self._stuck_sent & bit:
                    self._stuck_sent &= ~bit
                    self.faulty &= ~bit
            else:
                quiet = ticks_diff(now, self._last_edge[i])
                if self._unsettled & bit and quiet >= self.debounce_ms:
                    self._unsettled &= ~bit
                    if self._flicker_sent & bit:
                        self._flicker_sent &= ~bit
                        self.faulty &= ~bit
                if (not self._stuck_sent & bit and self.stuck_ms > 0 and quiet >= self.stuck_ms
                        and (raw & bit) == (self._open_bits & bit)):
                    self._stuck_sent |= bit
                    self.faulty |= bit
                    self._push(i, STUCK)
            if (self._unsettled & bit and not self._flicker_sent & bit and self.flicker_ms > 0
                    and ticks_diff(now, self._unsettled_since[i]) >= self.flicker_ms):
                self._flicker_sent |= bit
                self.faulty |= bit
                self._push(i, FLICKER)
            i += 1
        return raw
