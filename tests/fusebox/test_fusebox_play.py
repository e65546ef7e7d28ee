"""`propctl sim fusebox` played at a terminal: board time runs in real time between keys, so the
lights, the relay and the buzzer end on their own; the screen fits the terminal and redraws in
place; the piezo's tones go to --wav as the firmware played them.

The pseudo-terminal is replayed with the clock sim tests' VT model (tests/sim/test_sim_terminal.py)."""
import ast
import os
import re
import subprocess
import sys
import wave
from pathlib import Path

import pytest
from pty_terminal import Terminal, read_until, spawn, stop
from test_fusebox_sim import bolt_window

ROOT = Path(__file__).resolve().parents[2]
PARTS = ROOT / "firmware" / "lib" / "props" / "fusebox" / "constants.py"
CARD = "GEO-01"
RELAY_MS = 1500


def firmware_melody(name):
    """A melody of props/fusebox/constants.py, read from the source: [(start_ms, end_ms, freq_hz)]."""
    tree = ast.parse(PARTS.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]:
            melody = ast.literal_eval(node.value)
            break
    else:
        raise AssertionError("%s not in %s" % (name, PARTS))
    notes, t = [], 0
    for i in range(0, len(melody), 2):
        if melody[i]:
            notes.append((t, t + melody[i + 1], melody[i]))
        t += melody[i + 1]
    return notes


def decoded_tones(path):
    """The square-wave notes in a WAV: [(start_ms, end_ms, freq_hz)], from its zero crossings.

    A note is a run of half-waves of one length (within 1.5 samples); silence is exact zeros."""
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    samples = [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw), 2)]
    sign = [(x > 0) - (x < 0) for x in samples]
    notes = []  # [start, end, half-waves]
    start = 0
    for i in range(1, len(sign) + 1):
        if i < len(sign) and sign[i] == sign[start]:
            continue
        length = i - start
        if sign[start] != 0:
            last = notes[-1] if notes else None
            if last and last[1] == start and abs(length - (last[1] - last[0]) / last[2]) <= 1.5:
                last[1], last[2] = i, last[2] + 1
            else:
                notes.append([start, i, 1])
        start = i
    tones = []
    for begin, end, halves in notes:
        if end - begin < rate * 3 // 1000:  # the cut-off half-wave where one note gives way to the next
            continue
        tones.append((begin * 1000 / rate, end * 1000 / rate, halves * rate / 2 / (end - begin)))
    return tones


def same_melody(decoded, expected, at_ms):
    """The decoded notes are the expected ones, moved to start at at_ms: within 2 ms and 2 %."""
    assert len(decoded) == len(expected), (decoded, expected)
    for (start, end, freq), (want_start, want_end, want_freq) in zip(decoded, expected):
        assert abs(start - (at_ms + want_start)) <= 2 and abs(end - (at_ms + want_end)) <= 2, \
            (start, end, want_start + at_ms, want_end + at_ms)
        assert abs(freq - want_freq) / want_freq < 0.02, (freq, want_freq)


def board_seconds(term):
    found = re.search(r"board time (\d+) s", term.text())
    return int(found.group(1)) if found else -1


def lamps(term):
    """The lights line, e.g. {"red": "ON", "green": "off", "buzzer": "off", "relay": "off"}."""
    found = re.search(r"red (\S+)\s+green (\S+)\s+buzzer (\S+)\s+relay (\S+)", term.text())
    return dict(zip(("red", "green", "buzzer", "relay"), found.groups())) if found else {}


@pytest.mark.parametrize("cols,rows", [(80, 24), (120, 40)])
def test_lights_relay_and_buzzer_end_on_their_own(cols, rows, tmp_path):
    bolt = bolt_window(CARD)
    safe = 1 if bolt != 1 else 2
    wav = tmp_path / "box.wav"
    term = Terminal(cols, rows)
    term.grid = [list("$ an old shell line".ljust(cols)) for _ in range(rows)]  # a terminal in use
    pid, fd = spawn(cols, rows, "sim", "fusebox", "--lang", "en", "--mute", "--wav", str(wav),
                    "--set", "fusebox.relay=true", "--set", "fusebox.relay_ms=%d" % RELAY_MS)
    try:
        assert read_until(fd, term, lambda t: "keys: 1-8" in t.text(), 60), term.text()
        assert "g new game" in term.text()
        assert "old shell line" not in term.text()
        os.write(fd, b"s")
        assert read_until(fd, term, lambda t: "card id:" in t.text(), 20), term.text()
        os.write(fd, CARD.encode() + b"\n")
        assert read_until(fd, term, lambda t: "card %s in the box" % CARD in t.text(), 20), term.text()
        assert "card id:" not in term.text()  # the prompt row is cleared when the box is drawn again

        # a safe window: click and green light; the light goes off with no further key
        os.write(fd, str(safe).encode())
        assert read_until(fd, term, lambda t: lamps(t).get("green") == "ON", 20), term.text()
        assert "window %d is safe" % safe in term.text()
        assert read_until(fd, term, lambda t: lamps(t).get("green") == "off", 20), term.text()

        # the bolt window: the fuse blows, buzzer and relay on; both end by themselves, red stays on
        os.write(fd, str(bolt).encode())
        assert read_until(fd, term, lambda t: lamps(t).get("buzzer") == "ON", 20), term.text()
        assert "FUSE BLOWN at window %d" % bolt in term.text()
        assert lamps(term)["relay"] == "ON" and lamps(term)["red"] == "ON"
        blown_at = board_seconds(term)
        ended = lambda t: lamps(t).get("buzzer") == "off" and lamps(t).get("relay") == "off"  # noqa: E731
        assert read_until(fd, term, ended, 30), term.text()
        assert lamps(term)["red"] == "ON" and "state blown" in term.text()
        assert board_seconds(term) >= blown_at + RELAY_MS // 1000  # board time ran with no key pressed

        screen = term.text().splitlines()
        assert len(screen) <= rows - 1 and max(len(line) for line in screen) < cols
        assert term.scrolled == 0 and term.overlong == 0
        os.write(fd, b"q")
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, term.text()
    finally:
        stop(pid, fd)
    # the tones of the session: the safe window's click, then the blown fuse's buzz
    tones = decoded_tones(wav)
    click = firmware_melody("CLICK")
    assert len(tones) == 1 + len(firmware_melody("BLOWN_SOUND")), tones
    assert abs(tones[0][2] - click[0][2]) / click[0][2] < 0.05, tones[0]
    same_melody(tones[1:], firmware_melody("BLOWN_SOUND"), tones[1][0])


def test_the_wav_holds_the_firmware_s_blown_fuse_melody(tmp_path):
    bolt = bolt_window(CARD)
    wav = tmp_path / "blown.wav"
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "fusebox", "--non-interactive",
                           "--lang", "en", "--wav", str(wav), "--script", "-"],
                          input="select %s\nopen %d\nwait 2000\n" % (CARD, bolt), capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "FUSE BLOWN at window %d" % bolt in done.stdout
    assert '"pwm"' not in done.stdout and "?:" not in done.stdout  # the script's log is as before
    # the WAV begins with the first note: the melody from 0, each note's frequency and length
    same_melody(decoded_tones(wav), firmware_melody("BLOWN_SOUND"), 0)


def test_the_decoder_tells_notes_and_rests_apart(tmp_path):
    from propctl import sound
    notes = [(0, 120, 196), (120, 240, 175), (300, 400, 3500)]
    sound.write_wav(notes, tmp_path / "x.wav")
    same_melody(decoded_tones(tmp_path / "x.wav"), notes, 0)
    with pytest.raises(AssertionError):
        same_melody(decoded_tones(tmp_path / "x.wav"), [(0, 240, 196), (300, 400, 3500)], 0)


class FakePlayer:
    """subprocess.Popen for propctl.sound's players: the board time it was started at and the
    samples it was given (on its stdin, or as the WAV file named last on its command line)."""

    board_ms = 0        # the board time now, set by the test
    started: list = []  # every FakePlayer, in order

    def __init__(self, command, stdin=None, stdout=None, stderr=None):
        self.command = command
        self.at_ms = FakePlayer.board_ms
        self.samples = b""
        self.returncode = None
        self.stdin = None
        if stdin == subprocess.PIPE:
            read, write = os.pipe()
            os.set_blocking(read, False)
            self.pipe = read
            self.stdin = os.fdopen(write, "wb")
        else:
            with wave.open(command[-1]) as w:
                self.samples = w.readframes(w.getnframes())
        FakePlayer.started.append(self)

    def take(self):
        """Read what has reached the player's stdin so far; the milliseconds of sound it has."""
        if self.stdin is not None:
            while True:
                try:
                    data = os.read(self.pipe, 65536)
                except BlockingIOError:
                    break
                if not data:
                    break
                self.samples += data
        return len(self.samples) // 2 * 1000 // 22050

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        self.returncode = 0
        return 0

    def kill(self):
        self.returncode = -9


def board_pwm(melody, start):
    """The PWM changes drivers.chime.PiezoChime makes for `melody` from board time `start`."""
    changes = []
    for begin, _end, freq in melody:
        changes += [(start + begin, "freq", freq), (start + begin, "duty", 32768)]
    return changes + [(start + melody[-1][1], "duty", 0)]


def test_the_blown_fuse_buzz_starts_when_the_board_starts_it(monkeypatch, tmp_path):
    """The sim learns of the melody note by note, a tick of board time at a time (the runner's
    pwm records, then its status): the player starts at the tick that brings the first note, and
    at every tick it has the sound up to that tick."""
    import argparse

    from propctl import sound
    from propctl.props.fusebox import sim as fusebox
    monkeypatch.setattr(sound.shutil, "which", lambda name: "/usr/bin/aplay" if name == "aplay" else None)
    monkeypatch.setattr(sound.subprocess, "Popen", FakePlayer)
    monkeypatch.setattr(FakePlayer, "started", [])
    box = fusebox.Sound(argparse.Namespace(mute=False, wav=None), bell=None)
    blown = firmware_melody("BLOWN_SOUND")
    start, tick = 5003, 60  # the fuse blows inside a tick
    changes = board_pwm(blown, start)
    heard = []  # (board time of the tick, ms of sound the player has by then)
    for t in range(4700, start + blown[-1][1] + 1000, tick):
        FakePlayer.board_ms = t
        for when, what, value in changes:
            if t - tick < when <= t:
                box.change({"t": when, "what": what, "value": value})
        box.at(t)
        heard.append((t, sum(player.take() for player in FakePlayer.started)))
    box.finish()
    assert len(FakePlayer.started) == 1, [p.command for p in FakePlayer.started]
    player = FakePlayer.started[0]
    assert 0 <= player.at_ms - start < tick, (player.at_ms, start)  # started within the tick
    for t, ms in heard:
        if start <= t <= start + blown[-1][1]:
            assert ms >= t - start, (t, ms)  # the sound up to the board's time is there
    player.take()
    heard_wav = tmp_path / "heard.wav"
    with wave.open(str(heard_wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes(player.samples)
    tones = decoded_tones(heard_wav)
    same_melody(tones, blown, tones[0][0])  # after the stream's lead-in: the melody, once


def test_a_melody_with_rests_is_one_player_and_the_wav_holds_it(monkeypatch, tmp_path):
    import argparse

    from propctl import sound
    from propctl.props.fusebox import sim as fusebox
    monkeypatch.setattr(sound.shutil, "which", lambda name: "/usr/bin/aplay" if name == "aplay" else None)
    monkeypatch.setattr(sound.subprocess, "Popen", FakePlayer)
    monkeypatch.setattr(FakePlayer, "started", [])
    box = fusebox.Sound(argparse.Namespace(mute=False, wav=str(tmp_path / "all.wav")), bell=None)
    wrong = firmware_melody("WRONG")  # two beeps with a short rest between them
    for start, end, freq in wrong:
        box.change({"t": 1000 + start, "what": "freq", "value": freq})
        box.change({"t": 1000 + start, "what": "duty", "value": 32768})
        box.at(1000 + (start + end) // 2)
        box.change({"t": 1000 + end, "what": "duty", "value": 0})
        box.at(1000 + end + 10)
    box.at(1000 + wrong[-1][1] + 5 * fusebox.Sound.PAUSE_MS)
    assert len(FakePlayer.started) == 1  # the rest inside the melody did not end it
    assert FakePlayer.started[0].stdin.closed  # the pause after it did: the player plays it out
    box.finish()
    same_melody(decoded_tones(tmp_path / "all.wav"), wrong, 0)


def test_a_player_of_files_plays_each_melody_once_it_is_over(monkeypatch, tmp_path):
    """afplay takes no stream: it gets a melody's WAV once a pause has ended the melody."""
    import argparse

    from propctl import sound
    from propctl.props.fusebox import sim as fusebox
    monkeypatch.setattr(sound.shutil, "which", lambda name: "/usr/bin/afplay" if name == "afplay" else None)
    monkeypatch.setattr(sound.subprocess, "Popen", FakePlayer)
    monkeypatch.setattr(FakePlayer, "started", [])
    box = fusebox.Sound(argparse.Namespace(mute=False, wav=None), bell=None)
    wrong = firmware_melody("WRONG")
    for when, what, value in board_pwm(wrong, 1000):
        box.change({"t": when, "what": what, "value": value})
        box.at(when)
    assert FakePlayer.started == []
    box.at(1000 + wrong[-1][1] + fusebox.Sound.PAUSE_MS)
    box.at(1000 + wrong[-1][1] + 5 * fusebox.Sound.PAUSE_MS)  # once only
    assert [p.command[0] for p in FakePlayer.started] == ["afplay"]
    path = Path(FakePlayer.started[0].command[-1])
    with wave.open(str(path)) as w:
        assert w.getnframes() > 0
    box.finish()
    assert not path.parent.exists()  # the played melodies' files are gone


def test_without_a_player_the_bell_rings_when_a_melody_starts(monkeypatch):
    import argparse

    from propctl import sound
    from propctl.props.fusebox import sim as fusebox
    monkeypatch.setattr(sound.shutil, "which", lambda name: None)
    rang = []
    box = fusebox.Sound(argparse.Namespace(mute=False, wav=None), bell=lambda: rang.append(1))
    box.change({"t": 1000, "what": "freq", "value": 330})
    box.change({"t": 1000, "what": "duty", "value": 32768})
    assert rang == [1]
    box.at(1100)
    box.change({"t": 1120, "what": "duty", "value": 0})
    box.at(1150)
    box.change({"t": 1200, "what": "duty", "value": 32768})  # the same melody: no second bell
    assert rang == [1]
    box.finish()


def test_a_busy_box_fits_the_screen_and_keeps_room_for_events():
    from propctl.props.fusebox import terminal as fusebox_terminal
    status = {"mode": "pack", "card": "GEO-01", "pending": False, "text": "a long card text " * 6,
              "category": "geography", "statements": ["statement %d" % i for i in range(8)], "open": [2],
              "bolt_seen": None, "faulty": [3], "red": 1, "green": 0, "sound": False, "relay": 0,
              "state": "round", "t": 12345, "to_report": [2],
              "game": {"scores": [0, 1, 2, 3], "over": False, "chooser": 2, "in_round": [1, 2, 3, 4]}}
    log = ["%7.2f s  event %d" % (i, i) for i in range(30)]
    for cols, rows in [(80, 24), (120, 40), (40, 12), (10, 5)]:
        lines = fusebox_terminal.screen_lines("the heading " * 20, status, log, cols, rows)
        assert len(lines) <= rows - 2 and max(len(line) for line in lines) < cols, (cols, rows)
        if rows >= 24:
            assert lines[-1] == log[-1]
            assert sum(line in log for line in lines) >= fusebox_terminal.MIN_LOG_LINES
            assert "board time 12 s" in "\n".join(lines) and "keys: 1-8" in "\n".join(lines)


def test_a_virtual_board_that_dies_ends_the_sim_with_a_message():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "fusebox", "--lang", "en", "--mute")
    try:
        assert read_until(fd, term, lambda t: "keys: 1-8" in t.text(), 60), term.text()
        children = Path("/proc/%d/task/%d/children" % (pid, pid)).read_text().split()
        assert len(children) == 1, children  # the MicroPython runner
        os.kill(int(children[0]), 9)
        read_until(fd, term, lambda t: "the virtual board stopped" in t.text(), 20)
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, term.text()
        assert "the virtual board stopped" in term.text() and "Traceback" not in term.text()
    finally:
        stop(pid, fd)


def test_a_long_event_is_wrapped_not_cut():
    from propctl.props.fusebox import terminal as fusebox_terminal
    status = {"mode": "pack", "card": "GEO-01", "pending": False, "text": None, "statements": None,
              "open": [], "bolt_seen": None, "faulty": [], "red": 0, "green": 0, "sound": False, "relay": 0,
              "state": "round", "t": 0, "to_report": [], "game": None}
    long = ("   0.83 s  result  window 1 safe: player 2 +1, player 3 +1; scores player 1: 0, player 2: 1, "
            "player 3: 1, player 4: 0 points")
    lines = fusebox_terminal.screen_lines("heading", status, ["   0.10 s  older", long], 80, 24)
    tail = lines[-2:]  # the newest event, in two lines under the older one
    assert " ".join(" ".join(tail).split()) == " ".join(long.split())  # every word, in order
    assert all(len(line) < 80 for line in tail) and tail[1].startswith(" " * 11)
    assert lines[-3] == "   0.10 s  older"


def test_ctrl_c_leaves_like_q():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "fusebox", "--lang", "en", "--mute")
    try:
        assert read_until(fd, term, lambda t: "keys: 1-8" in t.text(), 60), term.text()
        os.write(fd, b"\x03")
        read_until(fd, term, lambda t: False, 1)
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, term.text()
        assert "Traceback" not in term.text() and "stopped" not in term.text()
    finally:
        stop(pid, fd)


def test_keys_without_a_terminal_say_what_to_do():
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "fusebox", "--interactive"],
                          input="3\n", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "--script" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_cjk_card_fits_the_screen_by_columns():
    # a card in Japanese passes `cards check`; cut by characters its lines were twice too wide
    from propctl.props.fusebox import terminal as fusebox_terminal
    from propctl.termtext import cells as width
    status = {"mode": "pack", "card": "T-1", "pending": False, "text": "奇数から指を離してください。" * 4,
              "category": "科学と自然", "statements": ["東京タワー%d" % i for i in range(8)], "open": [2],
              "bolt_seen": None, "faulty": [], "red": 0, "green": 0, "sound": False, "relay": 0,
              "state": "round", "t": 0, "to_report": [], "game": None}
    log = ["   0.10 s  card    T-1 [科学と自然] " + "奇数から指を離してください。" * 4]
    for cols, rows in [(80, 24), (40, 12)]:
        lines = fusebox_terminal.screen_lines("heading", status, log, cols, rows)
        assert max(width(line) for line in lines) < cols, [line for line in lines if width(line) >= cols]
