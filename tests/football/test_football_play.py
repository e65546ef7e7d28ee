"""`propctl sim football` played by a person: keys through a pseudo-terminal at 80x24 and 120x40,
the panel that fits, the piezo's tones in a WAV, and what the keys do in each phase."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import wave
from types import SimpleNamespace

import pytest
from pty_terminal import Terminal, chunks, read_until, spawn, stop
from test_football_box_sim import runner_lines
from waits import WAIT_S

from propctl.props.football import reports as football_reports
from propctl.props.football import sim as football
from propctl.sim import runner

BORDER = "+" + "-" * 18 + "+"
IN_FIELD = "stopped on the field at a yard line (1-99)"


def key_for(term, label):
    """The number key the panel shows for a report."""
    found = re.search(r"(\d)  " + re.escape(label), term.text())
    assert found, term.text()
    return found.group(1).encode()


def score_on_panel(term):
    """[home, away] read off the OLED's first line on the panel."""
    for line in term.text().splitlines():
        found = re.match(r"\| [ >]HOME +(\d+)[ >]AWAY +(\d+) \|", line)
        if found:
            return [int(found.group(1)), int(found.group(2))]
    raise AssertionError(term.text())


def fits(term):
    """Nothing drawn past the terminal, nothing scrolled, exactly one panel on the screen."""
    assert term.scrolled == 0 and term.overlong == 0, term.text()
    screen = term.text().splitlines()
    assert sum(1 for line in screen if line.startswith(BORDER)) == 2, term.text()


def settle(fd, term):
    """Read until the sim has been quiet for 0.1 s: a frame read half-drawn would mix two phases
    (at most WAIT_S: a sim that never goes quiet fails the test's next check, not hangs it)."""
    for data in chunks(fd, WAIT_S):
        if not data:
            return
        term.feed(data)


def press(fd, term, key, seen, timeout=WAIT_S):
    os.write(fd, key)
    assert read_until(fd, term, lambda t: seen in t.text(), timeout), (key, seen, term.text())
    settle(fd, term)


def read_wav(path):
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    return rate, [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw), 2)]


def frequency(samples, rate):
    """A square wave's frequency from its zero crossings: half periods between the first and the
    last crossing (exact to a sample, however short the stretch)."""
    crossings = [i for i in range(1, len(samples)) if (samples[i - 1] < 0) != (samples[i] < 0)]
    if len(crossings) < 3:
        return 0.0
    return (len(crossings) - 1) / 2 / ((crossings[-1] - crossings[0]) / rate)


def note_end(samples, start):
    """The first silent sample from `start` on (a note is a run of samples that are not 0)."""
    return next((i for i in range(start, len(samples)) if not samples[i]), len(samples))


@pytest.mark.parametrize("cols,rows", [(80, 24), (120, 40)])
def test_a_person_plays_from_the_toss_to_a_touchdown_and_the_extra_point(cols, rows, tmp_path):
    term = Terminal(cols, rows)
    wav = tmp_path / "play.wav"
    pid, fd = spawn(cols, rows, "sim", "football", "--seed", "4", "--mute", "--wav", str(wav))
    try:
        # the screen may be drawn in pieces on a loaded host: wait for the keys' labels too
        assert read_until(fd, term, lambda t: "COIN TOSS" in t.text()
                          and "r  ROLL  toss the coin" in t.text() and "q  quit" in t.text(), 60), term.text()
        press(fd, term, b"r", "coin toss won by")        # the ROLL button tosses the coin
        winner = re.search(r"coin toss won by (\w+)", term.text()).group(1)
        press(fd, term, key_for(term, "kick off"), "PICK A GOAL")
        press(fd, term, key_for(term, "defend the north goal"), "KICKOFF")
        fits(term)
        # a yard line is typed; the box refuses one off the field, with its reason
        press(fd, term, key_for(term, IN_FIELD), "yard line: _")
        press(fd, term, b"0\r", "refused report in_field 0")
        assert "KICKOFF" in term.text()
        # the kickoff stops on the receiver's 99
        press(fd, term, key_for(term, IN_FIELD), "yard line: _")
        press(fd, term, b"99\r", "DOWN 1 OPP 1")
        press(fd, term, key_for(term, "go for a touchdown"), "FLICK")
        assert "g  GOOD  touchdown" in term.text()
        press(fd, term, b"g", "PAT OR 2 PT?")            # GOOD: the flick went in
        receiver = 1 if winner == "Home" else 0
        expected = [0, 0]
        expected[receiver] = 6
        assert score_on_panel(term) == expected
        assert "k  KICK  extra point: ready, go" in term.text()
        press(fd, term, b"k", "KICK!")                   # KICK starts the real 3-second count
        assert read_until(fd, term, lambda t: "kick count: one thousand one" in t.text(), 10), term.text()
        read_until(fd, term, lambda t: False, 0.25)      # the beep is over
        press(fd, term, b"g", "kick (extra point) GOOD")
        expected[receiver] = 7
        assert read_until(fd, term, lambda t: score_on_panel(t) == expected, 10), term.text()
        fits(term)
        os.write(fd, b"q")
        assert read_until(fd, term, lambda t: "done:" in t.text(), 30), term.text()
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0, term.text()
        assert term.overlong == 0
    finally:
        stop(pid, fd)
    # The count as the person heard it: "go", then "one thousand one" about a second later, each
    # at the firmware's pitch. The recording follows the real clock, so a loaded host moves and
    # shortens notes by what its scheduler costs; that the beats fall on their milliseconds is
    # asserted in virtual time (test_football_box: the count's tones on the beats).
    rate, samples = read_wav(wav)
    tones = firmware_tones()
    go, beep = tones["go"][0], tones["beep"][0]
    go_end = note_end(samples, 0)
    assert abs(frequency(samples[:go_end], rate) - go) < go * 0.02, go_end / rate
    beat = next(i for i in range(go_end, len(samples)) if samples[i])
    assert 0.5 < beat / rate < 1.9, beat / rate  # the first beat, not "go" and not the second
    beat_end = note_end(samples, beat)
    assert abs(frequency(samples[beat:beat_end], rate) - beep) < beep * 0.02, (beat_end - beat) / rate


@pytest.mark.parametrize("hold", ["key repeat", "R"])
def test_holding_roll_after_the_final_whistle_starts_a_new_game(hold):
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "football", "--seed", "4", "--mute",
                    "--set", "football.plays_per_quarter=1", "--set", "football.quarters=2")
    try:
        assert read_until(fd, term, lambda t: "COIN TOSS" in t.text(), 60), term.text()
        press(fd, term, b"r", "KICK/RECEIVE?")
        press(fd, term, key_for(term, "receive"), "PICK A GOAL")
        press(fd, term, key_for(term, "defend the south goal"), "KICKOFF")
        press(fd, term, key_for(term, "into the end zone (touchback)"), "DOWN 1 OWN 20")
        press(fd, term, key_for(term, "punt"), "PUNT")   # the quarter's one play
        press(fd, term, key_for(term, "into the end zone (touchback)"), "HALF TIME")
        press(fd, term, key_for(term, "kick off"), "KICKOFF")
        press(fd, term, key_for(term, "out of bounds (the receiver's 40)"), "DOWN 1 OWN 40")
        press(fd, term, b"r", "dice: zone")
        # whatever the dice say: the flick missed, the second quarter's one play is used
        for _ in range(4):  # CHOICE: announce the first play the panel offers, word by word
            read_until(fd, term, lambda t: False, 0.5)
            if "now: the offence must announce its play" not in term.text():
                break
            os.write(fd, b"1")
        assert "now: waiting for where the slider stopped" in term.text(), term.text()
        press(fd, term, b"m", "COIN TOSS")               # a tie: overtime starts with a new toss
        press(fd, term, b"r", "KICK/RECEIVE?")
        press(fd, term, key_for(term, "receive"), "KICKOFF")
        press(fd, term, key_for(term, IN_FIELD), "yard line: _")
        press(fd, term, b"99\r", "DOWN 1 OPP 1")
        press(fd, term, key_for(term, "go for a touchdown"), "FLICK")
        press(fd, term, b"g", "PAT OR 2 PT?")
        press(fd, term, key_for(term, "two-point try"), "TWO POINT TRY")
        press(fd, term, b"m", "FINAL")
        assert "r  ROLL  hold (R): a new game" in term.text()
        if hold == "R":
            os.write(fd, b"r")  # a tap is no new game
            read_until(fd, term, lambda t: False, 2.5)
            assert "FINAL" in term.text() and "COIN TOSS" not in term.text()
            os.write(fd, b"R")
        else:  # a held key repeats: r every 50 ms for two seconds holds ROLL past long_press_ms
            for _ in range(40):
                os.write(fd, b"r")
                time.sleep(0.05)
        assert read_until(fd, term, lambda t: "COIN TOSS" in t.text(), 20), term.text()
        assert score_on_panel(term) == [0, 0] and "Q1 PLAY 0/1" in term.text()
        fits(term)
        os.write(fd, b"q")
        assert read_until(fd, term, lambda t: "done:" in t.text(), 30), term.text()
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        stop(pid, fd)


def test_the_demo_at_a_terminal_fits_and_q_quits():
    term = Terminal(120, 40)
    pid, fd = spawn(120, 40, "sim", "football", "--demo", "--seed", "5", "--speed", "8", "--mute")
    try:
        assert read_until(fd, term, lambda t: "kick count: GO" in t.text(), 90), term.text()
        fits(term)
        os.write(fd, b"q")
        assert read_until(fd, term, lambda t: "stopped" in t.text(), 30), term.text()
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        stop(pid, fd)


def firmware_tones():
    """The box's own tone table, read by MicroPython from firmware/lib/props/football/constants.py."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "tones.py")
        with open(script, "w") as f:
            f.write("import json\nfrom props.football import constants as p\n"
                    "print(json.dumps([p.GO_TONE, p.BEAT_TONE, p.END_TONE, p.REFUSED_TONE]))\n")
        done = subprocess.run([runner.find_micropython(), script], capture_output=True, text=True,
                              env=runner.runner_env(runner.REPO_FIRMWARE_LIB), timeout=60)
    assert done.returncode == 0, done.stderr
    go, beat, end, refused = json.loads(done.stdout)
    return {"go": go, "beep": beat, "end": end, "refused": refused}


def test_the_demo_wav_plays_the_firmware_tone_table(tmp_path):
    tones = firmware_tones()
    wav = tmp_path / "demo.wav"
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "football", "--non-interactive",
                           "--seed", "2", "--wav", str(wav)], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    # What the firmware was told to play, from the same game's events: each count step and
    # refusal starts its tone; a kick result silences the count.
    expected = []
    for record in runner_lines(2):
        name = record.get("event")
        if name == "kick_count":
            freq, ms = tones[record["step"]]
            expected.append([record["t"], record["t"] + ms, freq])
        elif name == "refused":
            freq, ms = tones["refused"]
            expected.append([record["t"], record["t"] + ms, freq])
        elif name == "kick_result" and expected:
            expected[-1][1] = min(expected[-1][1], record["t"])
    assert len(expected) >= 8 and {n[2] for n in expected} >= {tones[k][0] for k in ("go", "beep", "end")}
    rate, samples = read_wav(wav)
    start = expected[0][0]
    last_end = max(n[1] for n in expected)
    assert abs(len(samples) / rate * 1000 - (last_end - start)) <= 20   # a tick at most
    checked = 0
    for begin, end, freq in expected:
        if end - begin < 60:
            continue  # a count stopped at once by the report
        chunk = samples[(begin - start + 20) * rate // 1000:(end - start - 20) * rate // 1000]
        measured = frequency(chunk, rate)
        assert abs(measured - freq) / freq < 0.02, (begin, freq, measured)
        checked += 1
        # and silence after it until the next note (the count's rests)
        gap = samples[(end - start + 20) * rate // 1000:(end - start + 60) * rate // 1000]
        later = [n for n in expected if end < n[0] < end + 60]
        if gap and not later:
            assert max(abs(x) for x in gap) == 0, (end, freq)
    assert checked >= 8


# --- what the keys do, without a terminal -------------------------------------------

def state(phase, actions, box="idle"):
    return {"phase": phase, "actions": actions, "box": box}


def test_buttons_and_reports_follow_the_phase():
    toss = state("toss", [["toss", "team", [0, 1]]])
    assert football_reports.button_roles(toss)["roll"] == "toss the coin"
    assert football_reports.reports(toss) == []
    kickoff = state("kickoff", [["in_field", "yards", [1, 99]], ["end_zone", "none", None],
                                ["out_of_bounds", "none", None], ["onside", "none", None]])
    entries = football_reports.reports(kickoff)
    assert [e[1] for e in entries] == [None, "report end_zone", "report out_of_bounds", "report onside"]
    assert entries[0][2] == ("yards", "in_field", 1, 99)
    assert not any(football_reports.button_roles(kickoff).values())
    counting = state("field_goal", [["good", "none", None], ["no_good", "none", None]], box="counting")
    roles = football_reports.button_roles(counting)
    assert roles["good"].startswith("the kick is good") and roles["kick"] == ""
    assert football_reports.reports(counting) == []
    scrimmage = state("scrimmage", [["roll", "dice", [[], []]], ["punt", "none", None],
                                    ["field_goal", "none", None]])
    assert [e[1] for e in football_reports.reports(scrimmage)] == ["report punt"]
    assert football_reports.button_roles(scrimmage)["kick"].startswith("field goal")


def test_an_announced_play_on_choice_is_picked_word_by_word():
    import propctl.shared.rules.fingerfootball_field as field
    options = field.all_choices(0)   # from the own Zone 3: every symbol ahead, or a touchdown
    choose = state("choose", [["target", "pick", options]])
    first = football_reports.reports(choose)
    assert len(options) == 31 and len(first) == 6
    assert first[-1][1] == "report target touchdown"
    opp2 = [e for e in first if e[0].startswith("announce opp2")][0]
    assert opp2[1] is None and opp2[2] == ("pick", "target", ("opp2",))
    second = football_reports.reports(choose, opp2[2][2])   # 6 plays left: listed whole
    assert [e[1] for e in second] == ["report target opp2_%s_%s" % (kind, lane) for kind in ("run", "pass")
                                      for lane in ("left", "middle", "right")]
    assert second[0][0] == "announce opp2 run left"


@pytest.mark.parametrize("cols,rows", [(80, 24), (120, 40), (40, 12)])
def test_the_panel_never_exceeds_the_terminal(cols, rows):
    screen = football.Screen(open(os.devnull, "w"), "Finger Football box, virtual pico (seed 4)", 8)
    screen.oled = ["x" * 16] * 8
    screen.keys = ["k  KICK  " + "y" * 80] * 12
    screen.status = "now: " + "z" * 200
    screen.log = ["%7.2f s  referee %s" % (i, "word " * 40) for i in range(50)]
    lines = screen.lines(cols, rows)
    assert len(lines) == rows - 1 and max(len(line) for line in lines) <= cols - 1
    assert lines[-1].strip()  # the latest log line is the one shown last


def keys_run(steps, seed=4):
    """run_football.py --keys driven by `steps`: (line, until) pairs; each line is sent once the
    runner is up and the step before has seen a record with until(record) (None: at once).
    All its records."""
    with tempfile.TemporaryDirectory() as folder:
        command = football.runner_command(SimpleNamespace(seed=seed, set=[], speed=1),
                                          runner.find_micropython(), folder, keys=True)
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=runner.runner_env(runner.REPO_FIRMWARE_LIB))
        out = []

        def read_until(until):
            end = time.monotonic() + 30
            while True:
                line = proc.stdout.readline()  # a "time" record comes every 250 ms at least
                assert line and time.monotonic() < end, [r for r in out if r["type"] != "time"]
                out.append(json.loads(line))
                if until(out[-1]):
                    return

        try:
            read_until(lambda r: r["type"] == "info")
            for line, until in steps:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
                if until is not None:
                    read_until(until)
            rest, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, out
    return out + [json.loads(line) for line in rest.splitlines()]


def button(kind):
    return lambda r: r.get("event") == "button" and r["kind"] == kind


def test_a_tap_during_a_long_press_lets_the_button_go():
    out = keys_run([("press roll 3000", button("pressed")), ("down roll", button("released")),
                    ("quit", None)])
    roll = [(r["kind"], r["t"]) for r in out if r.get("event") == "button" and r["button"] == "roll"]
    assert [kind for kind, _ in roll] == ["pressed", "released"], roll
    assert roll[1][1] - roll[0][1] < 2000  # let go after the tap, long before the 3 s hold ends
    assert [r["phase"] for r in out if r["type"] == "state"][-1] == "toss_choice"
    assert out[-1]["type"] == "end" and out[-1]["steps"] == 1


def test_the_runner_refuses_what_the_box_refuses():
    refused = lambda r: r["type"] == "refused"  # noqa: E731
    out = keys_run([("report kick", refused), ("report in_field 30", refused), ("dance", refused),
                    ("quit", None)])
    refusals = [r for r in out if r["type"] == "refused"]
    assert [r["command"] for r in refusals] == ["report kick", "report in_field 30", "dance"]
    assert "coin toss" in refusals[0]["error"]
    assert [r["phase"] for r in out if r["type"] == "state"] == ["toss"]
