"""Debounced polling of up to 30 on/off inputs, with press, release and long-press events.

A *source* reads all inputs at once as a bitmap (bit i set = input i active,
i.e. switch closed / button pressed / window sensor triggered):

    PinSource([Pin(14, Pin.IN, Pin.PULL_UP)], active_low=True)
    Mcp23017Source(i2c, address=0x20, count=14, active_low=True)

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
_MCP_IODIRA = const(0x00)  # register pairs A, B side by side (IOCON.BANK = 0, the default)
_MCP_GPPUA = const(0x0C)
_MCP_GPIOA = const(0x12)
_MCP_SPAN = const(_MCP_GPIOA + 2 - _MCP_GPPUA)  # GPPUA/B, INTFA/B, INTCAPA/B, GPIOA/B: one read
_MCP_GPIO_AT = const(_MCP_GPIOA - _MCP_GPPUA)
MCP_INPUTS = const(14)     # GPA0-GPA6 and GPB0-GPB6: GPA7/GPB7 are output-only


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


def mcp23017_pin(index: int) -> int:
    """The MCP23017 pin that Mcp23017Source reads as input `index` (0..13).

    Pins are numbered 0-7 = GPA0-GPA7, 8-15 = GPB0-GPB7. Inputs 0-6 are
    GPA0-GPA6 and inputs 7-13 are GPB0-GPB6: Microchip's datasheet
    (DS20001952 rev D) makes GPA7 and GPB7 output-only, because a changing
    input there can corrupt SDA during a read.
    """
    if index < 0 or index >= MCP_INPUTS:
        raise ValueError("an MCP23017 has %d inputs, not input %d" % (MCP_INPUTS, index))
    return index if index < 7 else index + 1


class Mcp23017Source:
    """Reads up to 14 inputs of an MCP23017 I2C expander (bit i = pin mcp23017_pin(i)).

    The expander forgets its set-up when it loses power (every pin an input,
    pull-ups off: open windows float, and GPA7/GPB7 are inputs again, the
    case that can corrupt SDA). So the set-up (enable_pullups()) is written
    before the first read, again before the first read after any bus error,
    and whenever a scan finds it gone: each read() takes GPPU with the pins
    in one 8-byte transfer (GPPUA..GPIOB are adjacent), so even a brown-out
    that caused no bus error is repaired within one scan.
    """

    def __init__(self, i2c, address: int = 0x20, count: int = MCP_INPUTS, active_low: bool = True) -> None:
        if count < 1 or count > MCP_INPUTS:
            raise ValueError("an MCP23017 has %d inputs, not %d" % (MCP_INPUTS, count))
        self._i2c = i2c
        self._address = address
        self._mask = (1 << count) - 1
        self._invert = self._mask if active_low else 0
        self._buf = bytearray(_MCP_SPAN)
        self._set_up = False
        self.set_ups = 0  # how often the set-up was written (1 after a clean start)

    def enable_pullups(self) -> None:
        """The set-up: pull-ups on the 14 inputs; GPA7/GPB7 outputs (driven low), never inputs.

        All pins are inputs at power-on: until this runs, nothing may drive
        GPA7/GPB7 (leave them unconnected). OSError if the chip does not answer.
        """
        self._set_up = False
        self._i2c.writeto_mem(self._address, _MCP_IODIRA, b"\x7f\x7f")
        self._i2c.writeto_mem(self._address, _MCP_GPPUA, b"\x7f\x7f")
        self._set_up = True
        self.set_ups += 1

    def read(self) -> int:
        """The current raw bitmap, from one 8-byte register read (GPPUA .. GPIOA, GPIOB).

        OSError while the chip does not answer; the next read() sets it up again first.
        """
        buf = self._buf
        try:
            if not self._set_up:
                self.enable_pullups()
            self._i2c.readfrom_mem_into(self._address, _MCP_GPPUA, buf)
            if buf[0] != 0x7F or buf[1] != 0x7F:
                # the pull-ups are gone: the chip reset without a bus error; these pin
                # levels float, so set it up and read again
                self.enable_pullups()
                self._i2c.readfrom_mem_into(self._address, _MCP_GPPUA, buf)
        except OSError:
            self._set_up = False
            raise
        bits = (buf[_MCP_GPIO_AT] & 0x7F) | ((buf[_MCP_GPIO_AT + 1] & 0x7F) << 7)
        return (bits ^ self._invert) & self._mask


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

    @property
    def settled(self) -> bool:
        """True when no input is being debounced (the last reading is the debounced state)."""
        return self._raw == self._state

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
