"""The piezo's tones, as the clock firmware drove them on the virtual board, rendered to a WAV:
the notes' frequencies (Goertzel) and timing in the file match the melody the firmware played."""
import math
import subprocess
import sys
import wave

import pytest

from propctl import sound


def _firmware_bell():
    """drivers.chime.BELL, the clock's default melody, read from the source: (freq_hz, ms) pairs,
    0 a rest."""
    import ast
    from pathlib import Path
    source = Path(__file__).resolve().parents[2] / "firmware" / "lib" / "drivers" / "chime.py"
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BELL":
            return ast.literal_eval(node.value)
    raise AssertionError("no BELL in drivers/chime.py")


BELL = _firmware_bell()
HIGH, LOW = BELL[0], BELL[2]


def goertzel(samples, rate, freq):
    """Power of `freq` in `samples` (normalised by length)."""
    k = 2 * math.cos(2 * math.pi * freq / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + k * s1 - s2, s1
    return (s1 * s1 + s2 * s2 - k * s1 * s2) / max(1, len(samples)) ** 2


def read_wav(path):
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    return rate, [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw), 2)]


def expected_notes():
    notes, t = [], 0
    for i in range(0, len(BELL), 2):
        if BELL[i]:
            notes.append((t, t + BELL[i + 1], BELL[i]))
        t += BELL[i + 1]
    return notes


def test_tones_from_pwm_changes():
    log = [[0, "15.duty", 0], [100, "15.freq", 1319], [100, "15.duty", 32768], [280, "15.freq", 988],
           [700, "15.duty", 0], [850, "15.freq", 440], [850, "15.duty", 32768], [900, "15.duty", -1],
           [900, "16.duty", 32768]]
    assert sound.tones(log, "15") == [(100, 280, 1319), (280, 700, 988), (850, 900, 440)]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    wav = tmp_path_factory.mktemp("sound") / "round.wav"
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--non-interactive",
                           "--seed", "3", "--wav", str(wav), "--set",
                           'clock.limits={"round_min_ms": 3000, "round_max_ms": 5000}'],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "chime" in done.stdout
    return read_wav(wav)


def test_the_wav_plays_the_firmware_melody_in_time(played):
    rate, samples = played
    notes = expected_notes()
    assert abs(len(samples) / rate * 1000 - notes[-1][1]) <= 20  # first note to the end of the last
    for start, end, freq in notes:
        # the middle of each note: its own frequency dominates the other note's by far
        chunk = samples[(start + 20) * rate // 1000:(end - 20) * rate // 1000]
        other = LOW if freq == HIGH else HIGH
        assert goertzel(chunk, rate, freq) > 50 * goertzel(chunk, rate, other), (start, freq)
        # and the zero crossings count the frequency within 2 %
        crossings = sum(1 for a, b in zip(chunk, chunk[1:]) if (a < 0) != (b < 0))
        measured = crossings / 2 / (len(chunk) / rate)
        assert abs(measured - freq) / freq < 0.02, (start, freq, measured)
    for rest_start, rest_end in [(600, 750), (1350, 1500)]:
        rest = samples[(rest_start + 10) * rate // 1000:(rest_end - 10) * rate // 1000]
        assert rest and max(abs(x) for x in rest) == 0


def test_no_player_rings_the_bell(monkeypatch, tmp_path):
    monkeypatch.setattr(sound, "player", lambda: None)
    rang = []
    assert sound.play(tmp_path / "x.wav", bell=lambda: rang.append(1)) is None and rang == [1]
