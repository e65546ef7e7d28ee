"""An LED that plays blink patterns without blocking.

A pattern is a flat tuple of durations in ms, alternating on, off, on, off...
    led = Indicator(Pin(25, Pin.OUT))
    led.start(now, Indicator.LOW_BATTERY)   # then led.update(now) every tick
"""
from time import ticks_add, ticks_diff


class Indicator:
    """Blink patterns on one output pin (1 = lit)."""

    LOW_BATTERY = (600, 200, 600, 200, 600, 1000)  # three long blinks
    FAULT = (100, 100, 100, 100, 100, 100, 100, 700)

    def __init__(self, pin) -> None:
        self._pin = pin
        self._pattern = self.FAULT
        self._step = 0
        self._at = 0
        self.busy = False
        pin.value(0)

    def on(self) -> None:
        """Steady on (stops a pattern)."""
        self.busy = False
        self._pin.value(1)

    def off(self) -> None:
        """Steady off (stops a pattern)."""
        self.busy = False
        self._pin.value(0)

    def start(self, now: int, pattern) -> None:
        """Play a pattern once."""
        self._pattern = pattern
        self._step = 0
        self._at = now
        self.busy = True
        self._pin.value(1)

    def update(self, now: int) -> None:
        """Advance the pattern."""
        if not self.busy:
            return
        while ticks_diff(now, self._at) >= self._pattern[self._step]:
            self._at = ticks_add(self._at, self._pattern[self._step])  # type: ignore[type-var]
            self._step += 1
            if self._step >= len(self._pattern):
                self.off()
                return
            self._pin.value(1 - (self._step & 1))
