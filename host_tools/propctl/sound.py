"""The piezo's tones, as the firmware drove them, played as the board plays them and written to a WAV.

The virtual board records every PWM change of the piezo pin ("<pin>.freq" and
"<pin>.duty"); a tone sounds while the duty is above 0, at the last frequency
set. `ToneTracker` turns those changes into (start_ms, end_ms, freq_hz) notes,
`render` makes any stretch of them a square wave (what a piezo on a 50 % duty
PWM plays) and `write_wav` a WAV with the standard library's `wave`.

A sim learns of a melody only note by note, as the board plays it, so `Piezo`
hands it to a player while it is being played: at the first note it starts a
player that reads a raw stream on stdin (aplay, paplay, ffplay) and feeds it
the samples up to each board time the sim learns of. Where the only player
takes files (afplay), a melody is played once a pause has ended it; with no
player at all the terminal bell rings when it starts.
"""
import io
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import wave
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Tuple

from propctl.atomic import write_atomic

RATE = 22050     # samples per second: plenty for piezo tones up to a few kHz
LEVEL = 9000     # amplitude of the square wave (of 32767): loud enough, not harsh
PLAYERS = (("aplay", "-q"), ("paplay",), ("afplay",),
           ("ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet"))
DRAIN_S = 10     # at the end of a sim the players get at most this long to take their last samples


def stream_command(lead_ms: int) -> Optional[list]:
    """The first player found that plays 16-bit mono samples at RATE from stdin, as a command
    line that starts playing once `lead_ms` of them are in (None: there is none)."""
    commands = (
        ["aplay", "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(RATE),
         "--start-delay=%d" % (lead_ms * 1000)],
        ["paplay", "--raw", "--format=s16le", "--channels=1", "--rate=%d" % RATE,
         "--latency-msec=%d" % lead_ms],
        ["ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet", "-f", "s16le", "-ar", str(RATE), "-i", "-"],
    )
    for command in commands:
        if shutil.which(command[0]):
            return command
    return None


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


def render(notes: List[Tone], origin: int, first: int, count: int, rate: int = RATE) -> bytes:
    """Samples first .. first + count - 1 (sample 0 at board time `origin` ms) of `notes` as a
    mono 16-bit square wave, silence between them. Each note begins on a rising edge, so a note
    rendered in pieces is the same wave as one rendered whole."""
    samples = bytearray(2 * count)
    high, low = struct.pack("<h", LEVEL), struct.pack("<h", -LEVEL)
    for begin, stop, freq in notes:
        start = (begin - origin) * rate // 1000
        for n in range(max(start, first), min((stop - origin) * rate // 1000, first + count)):
            half = 2 * freq * (n - start) // rate
            samples[2 * (n - first):2 * (n - first) + 2] = high if half % 2 == 0 else low
    return bytes(samples)


def write_wav(notes: List[Tone], path, rate: int = RATE) -> float:
    """Render `notes` as a mono 16-bit square wave from time 0 of the first note; its length in s."""
    start = notes[0][0] if notes else 0
    end = max(note[1] for note in notes) if notes else 0
    total = (end - start) * rate // 1000
    _write_samples(render(notes, start, 0, total, rate), path, rate)
    return total / rate


def _write_samples(samples: bytes, path, rate: int = RATE) -> None:
    # made in memory, then written whole (propctl.atomic): a FIFO or a device is refused before
    # it is opened, and a failed write leaves no half WAV
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples)
    write_atomic(path, buffer.getvalue())


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


class Stream:
    """A player reading samples on its stdin, fed without ever blocking the sim: what the pipe
    cannot take now (the board may run faster than the player plays) goes with the next write."""

    def __init__(self, command: list) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        assert self.proc.stdin is not None
        self.pipe = self.proc.stdin
        os.set_blocking(self.pipe.fileno(), False)
        self.pending = bytearray()
        self.closing = False

    @property
    def done(self) -> bool:
        """The player has every sample it will get."""
        return self.pipe.closed

    def write(self, data: bytes = b"") -> None:
        """Samples for the player (none: pass on what waits)."""
        if self.pipe.closed:
            return
        self.pending += data
        while self.pending:
            try:
                written = os.write(self.pipe.fileno(), self.pending)
            except BlockingIOError:
                return
            except OSError:  # the player has gone
                self.pending.clear()
                break
            del self.pending[:written]
        if self.closing:
            self.pipe.close()

    def close(self) -> None:
        """No more samples: the player plays what it has (once it has taken it), then ends."""
        self.closing = True
        self.write()

    def drain(self, deadline: float) -> None:
        """Close, waiting until the player has taken every sample; past `deadline` (monotonic s)
        it is stopped."""
        self.close()
        while not self.pipe.closed and time.monotonic() < deadline:
            select.select([], [self.pipe.fileno()], [], 0.1)
            self.write()
        if not self.pipe.closed:
            self.kill()

    def kill(self) -> None:
        """Stop the player at once."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.pending.clear()
        self.pipe.close()


class _Melody:
    """The melody sounding now: from board time `origin`, its notes from `first` in the tracker's."""

    def __init__(self, origin: int, first: int) -> None:
        self.origin = origin
        self.first = first
        self.sent = 0                            # its samples handed on so far
        self.stream: Optional[Stream] = None     # its streaming player
        self.samples: Optional[bytearray] = None  # kept for a player that takes files only


class Piezo:
    """A sim's piezo, heard as the board drives it: `change` takes the runner's pwm records,
    `at` each board time the sim learns of. A melody's player starts at its first note and gets
    the samples up to each board time (see the module's doc), unless `mute`; `finish` writes all
    the run's tones to `wav` (a path, or None) and lets the players go.

    pause_ms: the silence that ends a melody (its player is then let go; a file-only player plays
    it then). lead_ms: the silence a melody's stream starts with, a little more than the longest
    real time between two board times the sim passes on, so the player does not run dry."""

    def __init__(self, mute: bool, wav: Optional[str], bell: Optional[Callable[[], object]],
                 pause_ms: int, lead_ms: int) -> None:
        self.mute = mute
        self.wav = wav
        self.bell = bell
        self.pause_ms = pause_ms
        self.lead_ms = lead_ms
        self.tracker = ToneTracker()
        self.melody: Optional[_Melody] = None
        self.streams: List[Stream] = []   # players still taking samples
        self.workdir: Optional[str] = None  # the WAVs of a file-only player, made when needed
        self.now = 0
        self.wav_problem = ""  # why `wav` could not be written at the end ("": it was, or none asked)

    def change(self, record: dict) -> None:
        """One pwm record of the runner ({"t", "what", "value"})."""
        t = record["t"]
        self.at(t)
        self.tracker.change(t, record["what"], record["value"])
        if self.melody is None and not self.mute and self.tracker.on_since is not None:
            self._start(t)

    def at(self, t: int) -> None:
        """Board time has reached t: the sound up to t goes to the player."""
        self.now = max(self.now, t)
        for stream in self.streams:
            stream.write()
        self.streams = [stream for stream in self.streams if not stream.done]
        melody = self.melody
        if melody is None:
            return
        if self.tracker.on_since is None:
            notes = self.tracker.notes
            last = notes[-1][1] if len(notes) > melody.first else melody.origin
            if t - last >= self.pause_ms:
                self._send(last)
                self._end()
                return
        self._send(t)

    def _start(self, t: int) -> None:
        melody = self.melody = _Melody(t, len(self.tracker.notes))
        command = stream_command(self.lead_ms)
        if command is not None:
            melody.stream = Stream(command)
            melody.stream.write(bytes(2 * (self.lead_ms * RATE // 1000)))
            self.streams.append(melody.stream)
        elif player() is not None:
            melody.samples = bytearray()
        elif self.bell is not None:
            self.bell()

    def _send(self, t: int) -> None:
        melody = self.melody
        assert melody is not None
        count = (t - melody.origin) * RATE // 1000 - melody.sent
        if count <= 0 or (melody.stream is None and melody.samples is None):
            return
        tracker = self.tracker
        notes = tracker.notes[melody.first:]
        if tracker.on_since is not None and tracker.freq > 0:
            notes = notes + [(tracker.on_since, t, tracker.freq)]
        samples = render(notes, melody.origin, melody.sent, count)
        melody.sent += count
        if melody.stream is not None:
            melody.stream.write(samples)
        elif melody.samples is not None:
            melody.samples += samples

    def _end(self) -> None:
        melody, self.melody = self.melody, None
        if melody is None:
            return
        if melody.stream is not None:
            melody.stream.close()
        elif melody.samples:
            if self.workdir is None:
                self.workdir = tempfile.mkdtemp(prefix="propctl-sound-")
            path = Path(self.workdir) / ("melody%d.wav" % melody.first)
            _write_samples(bytes(melody.samples), path)
            play(path, self.bell)

    def finish(self, abort: bool = False) -> None:
        """The run is over: the melody sounding ends where the board left it; the players get
        the rest of their samples (abort: are stopped at once); --wav is written; no file is left."""
        if self.melody is not None:
            self._send(self.now)
            self._end()
        deadline = time.monotonic() + DRAIN_S
        for stream in self.streams:
            if abort:
                stream.kill()
            else:
                stream.drain(deadline)
        self.streams = []
        if self.wav:
            last = self.tracker.notes[-1][1] if self.tracker.notes else 0
            try:
                write_wav(self.tracker.close(max(last, self.tracker.on_since or 0)), self.wav)
            except OSError as exc:
                from propctl.termsafe import printable
                self.wav_problem = "cannot write the recording %s: %s" % (printable(self.wav),
                                                                         exc.strerror or exc)
        if self.workdir:  # a player may still have a file open: unlinking it is fine on POSIX
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None


class Sound(Piezo):
    """A sim's piezo (Piezo): each melody heard from its first note, unless --mute; all of them
    written to --wav FILE at the end. 500 ms of silence end a melody."""

    PAUSE_MS = 500  # longer than any rest inside a melody

    def __init__(self, args, bell, lead_ms: int = 150) -> None:
        super().__init__(args.mute, args.wav, bell, self.PAUSE_MS, lead_ms)
