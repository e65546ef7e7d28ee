"""The piezo's tones, as the firmware drove them, rendered to a WAV and played.

The virtual board records every PWM change of the piezo pin ("<pin>.freq" and
"<pin>.duty"); a tone sounds while the duty is above 0, at the last frequency
set. `tones` turns those changes into (start_ms, end_ms, freq_hz) notes,
`write_wav` renders them as a square wave (what a piezo on a 50 % duty PWM
plays) with the standard library's `wave`, and `play` hands the file to the
first player the machine has (aplay, paplay, afplay, ffplay), else rings the
terminal bell.
"""
import shutil
import struct
import subprocess
import wave
from typing import Iterable, List, Optional, Tuple

RATE = 22050     # samples per second: plenty for piezo tones up to a few kHz
LEVEL = 9000     # amplitude of the square wave (of 32767): loud enough, not harsh
PLAYERS = (("aplay", "-q"), ("paplay",), ("afplay",),
           ("ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet"))

Tone = Tuple[int, int, int]  # start_ms, end_ms, freq_hz


class ToneTracker:
    """Notes from PWM changes fed one at a time (in time order) with `change`."""

    def __init__(self) -> None:
        self.freq = 0
        self.on_since: Optional[int] = None  # when the current note started, None while silent
        self.notes: List[Tone] = []

    def _end_note(self, t: int) -> None:
        if self.on_since is not None and t > self.on_since and self.freq > 0:
            self.notes.append((self.on_since, t, self.freq))
        self.on_since = None

    def change(self, t: int, what: str, value: int) -> None:
        """One recorded change: what is "freq" or "duty"; a duty of -1 (reset) is silence."""
        if what == "freq":
            if value != self.freq and self.on_since is not None:
                self._end_note(t)
                self.freq = value
                self.on_since = t
            self.freq = value
        elif what == "duty":
            if value > 0 and self.on_since is None:
                self.on_since = t
            elif value <= 0:
                self._end_note(t)

    def close(self, t: int) -> List[Tone]:
        """The notes, a note still sounding at `t` ended there."""
        self._end_note(t)
        return self.notes


def tones(changes: Iterable, pin: str) -> List[Tone]:
    """Notes from a recorder log ([t, signal, value], ...) for the piezo on `pin`."""
    tracker = ToneTracker()
    last = 0
    for t, signal, value in changes:
        name, _, what = str(signal).partition(".")
        if name == pin and what in ("freq", "duty"):
            tracker.change(t, what, value)
        last = max(last, t)
    return tracker.close(last)


def write_wav(notes: List[Tone], path, rate: int = RATE) -> float:
    """Render `notes` as a mono 16-bit square wave from time 0 of the first note; its length in s."""
    if not notes:
        start = end = 0
    else:
        start = notes[0][0]
        end = max(note[1] for note in notes)
    total = (end - start) * rate // 1000
    samples = bytearray(2 * total)
    high, low = struct.pack("<h", LEVEL), struct.pack("<h", -LEVEL)
    for begin, stop, freq in notes:
        first = (begin - start) * rate // 1000
        last = (stop - start) * rate // 1000
        for n in range(first, last):
            # the phase runs from the note's start: each note begins on a rising edge
            half = int(2 * freq * (n - first) / rate)
            samples[2 * n:2 * n + 2] = high if half % 2 == 0 else low
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(samples))
    return total / rate


def player() -> Optional[list]:
    """The command line (without the file) of the first audio player found, or None."""
    for command in PLAYERS:
        if shutil.which(command[0]):
            return list(command)
    return None


def play(path, bell=None) -> Optional[subprocess.Popen]:
    """Start playing the WAV in the background; without a player, ring the bell (callable) instead."""
    command = player()
    if command is None:
        if bell is not None:
            bell()
        return None
    return subprocess.Popen(command + [str(path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
