"""Debounced polling of up to 30 on/off inputs, with press, release and long-press events.

A *source* reads all inputs at once as a bitmap (bit i set = input i active,
i.e. switch closed / button pressed / window sensor triggered):

    PinSource([Pin(14, Pin.IN, Pin.PULL_UP)], active_low=True)
    Mcp23017Source(i2c, address=0x20, count=16, active_low=True)

`Switches(source, count)` polls it in `update(now_ms)`; an input changes its
debounced state only after the raw reading stayed the same for `debounce_ms`.
Events queue up in a fixed ring buffer and come out of `pop()` as one small
int: `event_index(e)`, `event_kind(e)` with kind PRESSED (= CLOSED),
RELEASED (= OPENED) or LONG (still pressed after `long_press_ms`, once per
hold). Nothing allocates after construction.
"""
from time import ticks_diff

from micropython import const

from drivers.eventqueue import EventQueue

RELEASED = const(0)
PRESSED = const(1)
LONG = const(2)
OPENED = RELEASED
CLOSED = PRESSED
KIND_NAMES = ("released", "pressed", "long")

_QUEUE = const(32)  # events; older ones are dropped when nobody pops
_MCP_GPIOA = const(0x12)  # GPIOA, GPIOB follow (IOCON.BANK = 0, the default)
_MCP_GPPUA = const(0x0C)


def event_index(event: int) -> int:
    """Which input an event from Switches.pop() is about."""
    return event >> 2


def event_kind(event: int) -> int:
    """RELEASED, PRESSED or LONG for an event from Switches.pop()."""
    return event & 3


class PinSource:
    """Reads a list of input Pins as a bitmap (bit i = pins[i] active)."""

    def __init__(self, pins, active_low: bool = True) -> None:
        self._pins = pins
        self._count = len(pins)
        self._invert = 1 if active_low else 0

    def read(self) -> int:
        """The current raw bitmap."""
        bits = 0
        i = 0
        pins = self._pins
        while i < self._count:
            if pins[i].value() ^ self._invert:
                bits |= 1 << i
            i += 1
        return bits


class Mcp23017Source:
    """Reads the 16 inputs of an MCP23017 I2C expander (GPIOA = bits 0-7, GPIOB = 8-15).

    All pins are inputs at power-on; call `enable_pullups()` once for
    switches to ground.
    """

    def __init__(self, i2c, address: int = 0x20, count: int = 16, active_low: bool = True) -> None:
        self._i2c = i2c
        self._address = address
        self._mask = (1 << count) - 1
        self._invert = self._mask if active_low else 0
        self._buf = bytearray(2)

    def enable_pullups(self) -> None:
        """Turn on the internal 100k pull-ups of all 16 pins (not in a hot path)."""
        self._i2c.writeto_mem(self._address, _MCP_GPPUA, b"\xff\xff")

    def read(self) -> int:
        """The current raw bitmap, from one 2-byte register read."""
        self._i2c.readfrom_mem_into(self._address, _MCP_GPIOA, self._buf)
        return ((self._buf[0] | (self._buf[1] << 8)) ^ self._invert) & self._mask


class Switches:
    """Debounced events from `count` inputs of `source` (see the module docstring)."""

    def __init__(self, source, count: int, debounce_ms: int = 20, long_press_ms: int = 1500) -> None:
        if count < 1 or count > 30:
            raise ValueError("Switches handles 1..30 inputs, not %d" % count)
        self._source = source
        self._count = count
        self.debounce_ms = debounce_ms
        self.long_press_ms = long_press_ms  # 0: no LONG events
        self._raw = 0           # last raw bitmap
        self._state = 0         # debounced bitmap
        self._long_sent = 0     # inputs whose current hold already gave LONG
        self._started = False
        self._changed_at = [0] * count   # when input i's raw value last changed
        self._pressed_at = [0] * count   # when input i became (debounced) active
        self._queue = EventQueue(_QUEUE)

    @property
    def state(self) -> int:
        """The debounced bitmap (bit i set = input i active)."""
        return self._state

    def pending(self) -> int:
        """How many events wait in the queue."""
        return len(self._queue)

    def pop(self) -> int:
        """The oldest event (see event_index/event_kind), or -1 if none."""
        return self._queue.pop()

    def clear(self) -> None:
        """Drop every queued event."""
        self._queue.clear()

    def _push(self, index: int, kind: int) -> None:
        self._queue.push((index << 2) | kind)

    def update(self, now: int) -> None:
        """Poll the source once and queue the events that became due."""
        raw = self._source.read()
        if not self._started:
            # The first reading is taken as settled: a switch already closed
            # at power-up is not a fresh press.
            self._started = True
            self._raw = raw
            self._state = raw
            self._long_sent = raw
            return
        changed = raw ^ self._raw
        self._raw = raw
        i = 0
        while i < self._count:
            bit = 1 << i
            if changed & bit:
                self._changed_at[i] = now
            elif (raw ^ self._state) & bit:
                if ticks_diff(now, self._changed_at[i]) >= self.debounce_ms:
                    self._state ^= bit
                    if raw & bit:
                        self._pressed_at[i] = now
                        self._long_sent &= ~bit
                        self._push(i, PRESSED)
                    else:
                        self._push(i, RELEASED)
            elif (self._state & bit and not self._long_sent & bit and self.long_press_ms
                  and ticks_diff(now, self._pressed_at[i]) >= self.long_press_ms):
                self._long_sent |= bit
                self._push(i, LONG)
            i += 1
