"""Chime drivers: a piezo bell melody on one PWM, or a solenoid striking a real bell.

Both share one interface:
    chime.start(now_ms, pattern=None)   begin (pattern: melody or strike count, None = default)
    chime.update(now_ms)                call every tick; advances notes / strikes
    chime.busy                          True while playing
    chime.silence()                     stop at once, output off

PiezoChime keeps one PWM for its whole life and silences it with duty 0
(re-creating PWM objects leaks on some ports). A melody is a flat tuple
(freq_hz, ms, freq_hz, ms, ...), freq 0 is a rest. SolenoidChime pulses an
output pin; the pulse length is capped by MAX_PULSE_MS whatever the caller
asks, so a stuck program cannot cook the coil.
"""
from time import ticks_add, ticks_diff

from micropython import const

_HALF = const(32768)  # 50 % duty: loudest square wave for a piezo
MAX_PULSE_MS = const(60)

# Every tone lies in a piezo's loud band, PIEZO_LOW_HZ..PIEZO_HIGH_HZ: a 27 mm disc resonates
# at 4.6 kHz (Murata 7BB-27-4 datasheet) and a 12 mm buzzer is rated at 4 kHz (TDK PS1240P02BT
# datasheet); both curves fall off steeply below about 2 kHz, where a few hundred Hz is barely
# heard. Datasheet figures, not measured here. tests/firmware/test_sounds.py checks every prop's sounds
# (the SOUNDS tables) against this band; the table of all sounds is in hardware/README.md.
PIEZO_LOW_HZ = const(2000)
PIEZO_HIGH_HZ = const(5000)

# A clock-tower bell: three strikes, each a high partial then a lower hum (G7 then D7).
BELL = (3136, 180, 2349, 420, 0, 150,
        3136, 180, 2349, 420, 0, 150,
        3136, 180, 2349, 900)
# Low double beeps (C7, the band's bottom): "cannot start" (battery low).
ALARM = (2093, 120, 0, 80, 2093, 120, 0, 400, 2093, 120, 0, 80, 2093, 120)
# The clock's sounds on a piezo (the self-test plays each): (name, melody).
CLOCK_SOUNDS = (("bell", BELL), ("alarm", ALARM))


class PiezoChime:
    """A melody on a piezo driven by one long-lived PWM."""

    def __init__(self, pwm, melody=BELL) -> None:
        self._pwm = pwm
        self.melody = melody
        self._playing = melody
        self._note = 0
        self._note_at = 0
        self.busy = False
        pwm.duty_u16(0)

    def _sound(self, freq: int) -> None:
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(_HALF)
        else:
            self._pwm.duty_u16(0)

    def start(self, now: int, pattern=None) -> None:
        """Play `pattern` (a melody tuple) or the default melody from the start."""
        self._playing = self.melody if pattern is None else pattern
        self._note = 0
        self._note_at = now
        self.busy = True
        self._sound(self._playing[0])

    def update(self, now: int) -> None:
        """Move to the next note when the current one is over."""
        if not self.busy:
            return
        melody = self._playing
        while ticks_diff(now, self._note_at) >= melody[self._note + 1]:
            self._note_at = ticks_add(self._note_at, melody[self._note + 1])  # type: ignore[type-var]
            self._note += 2
            if self._note >= len(melody):
                self.silence()
                return
            self._sound(melody[self._note])

    def silence(self) -> None:
        """Stop at once: duty 0, the PWM stays allocated."""
        self._pwm.duty_u16(0)
        self.busy = False


class SolenoidChime:
    """Strikes a bell with a solenoid on `pin` (through a MOSFET, with a flyback diode)."""

    def __init__(self, pin, strikes: int = 3, pulse_ms: int = 30, gap_ms: int = 600) -> None:
        self._pin = pin
        self.strikes = strikes
        self.pulse_ms = pulse_ms if pulse_ms < MAX_PULSE_MS else MAX_PULSE_MS
        self.gap_ms = gap_ms
        self._left = 0
        self._on = False
        self._at = 0
        self.busy = False
        pin.value(0)

    def start(self, now: int, pattern=None) -> None:
        """Strike `pattern` times (default: self.strikes)."""
        self._left = self.strikes if pattern is None else pattern
        self._at = now
        self._on = False
        self.busy = self._left > 0
        if self.busy:
            self._strike(now)

    def _strike(self, now: int) -> None:
        self._pin.value(1)
        self._on = True
        self._at = now
        self._left -= 1

    def update(self, now: int) -> None:
        """End a pulse after pulse_ms (never later than MAX_PULSE_MS), start the next after gap_ms."""
        if not self.busy:
            return
        elapsed = ticks_diff(now, self._at)
        if self._on:
            if elapsed >= self.pulse_ms or elapsed >= MAX_PULSE_MS:
                self._pin.value(0)
                self._on = False
                self._at = now
                if self._left <= 0:
                    self.busy = False
        elif elapsed >= self.gap_ms:
            self._strike(now)

    def silence(self) -> None:
        """Coil off at once."""
        self._pin.value(0)
        self._on = False
        self._left = 0
        self.busy = False
