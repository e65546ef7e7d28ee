"""`propctl play fingerfootball --port`: a whole Finger Football game refereed against the served
football box, over a pseudo-terminal, the box's buttons pressed by its virtual person.

Before: `play fingerfootball` had no --port; with a real box everything its buttons cannot say had
to be typed as JSON (`propctl monitor --port auto --send report='{"action": "receive"}'`).
"""
import json
import os
import re
import select
import subprocess
import time

import pytest
from pty_terminal import spawn, stop
from sim_serve import PROPCTL, start_serve, stop_serve
from waits import WAIT_S

BUTTONS = {"ROLL": "btn_roll", "KICK": "btn_kick", "GOOD": "btn_good", "MISS": "btn_miss"}


@pytest.fixture
def served_football_box(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "vboard_world.json").write_text("{}")  # a virtual person works the buttons
    proc, _, port = start_serve(flash, "virtual board on ")
    try:
        assert port, "sim serve printed no port"
        sets = ["football.plays_per_quarter=2", "football.quarters=2", "football.seed=11",
                'football.names=["Red","Blue"]']
        done = subprocess.run(PROPCTL + ["deploy", "--port", port, "--prop", "football", "--board", "pico"]
                              + [word for value in sets for word in ("--set", value)],
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
        yield flash, port
    finally:
        stop_serve(proc)


class Hands:
    """The virtual person at the box (vboard/world.py): a button held, then let go."""

    def __init__(self, flash):
        self.flash = flash
        self.seq = 0

    def _act(self, acted):
        self.seq += 1
        tmp = self.flash / "vboard_hands.json.tmp"
        tmp.write_text(json.dumps({"seq": self.seq, "acted": acted}))
        os.replace(tmp, self.flash / "vboard_hands.json")
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                if json.loads((self.flash / "vboard_seen.json").read_text()).get("seq") == self.seq:
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        raise AssertionError("the virtual board never took the hands' move %r" % acted)

    def press(self, label):
        self._act([BUTTONS[label]])
        time.sleep(0.15)  # held past the debounce (20 ms), far from a long press (1.5 s)
        self._act([])


class Screen:
    def __init__(self, fd):
        self.fd = fd
        self.text = ""

    def settle(self, timeout=30.0, quiet=0.4):
        """Read until the output ends at a prompt and nothing more comes for `quiet` s."""
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:  # the referee ended
                    return "Final whistle" in self.text
                self.text += data.decode("utf-8", "replace")
                last = time.monotonic()
            elif time.monotonic() - last > quiet and (self.text.rstrip(" ").endswith(">")
                                                       or "Final whistle" in self.text[-400:]):
                return True
        return False

    def type(self, text):
        os.write(self.fd, text.encode() + b"\r")


def last_turn(text):
    """The lines of the last question: from the last board or question block to the prompt."""
    return text.replace("\r", "").split("\n")[-8:]


def test_a_whole_game_refereed_against_the_served_box(served_football_box):
    flash, port = served_football_box
    hands = Hands(flash)
    pid, fd = spawn(80, 24, "play", "fingerfootball", "--port", "auto")
    screen = Screen(fd)
    typed_words = pressed = answered_yards = 0
    try:
        assert screen.settle(60), screen.text
        assert "referee at the box on %s: Red v Blue" % port in screen.text.replace("\r\n", " ")
        for _turn in range(400):
            if "Final whistle" in screen.text:
                break
            lines = last_turn(screen.text)
            tail = "\n".join(lines)
            on_box = [line for line in lines if line.startswith("On the box: ")]
            roles = on_box[-1] if on_box else ""
            prompt = lines[-1]
            if prompt.endswith("back)> ") and "the yard line" in screen.text[-300:]:
                screen.type("35")
                answered_yards += 1
            elif "the count runs" in tail:
                hands.press("GOOD")
                pressed += 1
            elif "ROLL toss" in roles or "ROLL roll" in roles:
                hands.press("ROLL")
                pressed += 1
            elif "GOOD" in roles:
                hands.press("GOOD")
                pressed += 1
            elif "KICK" in roles:
                hands.press("KICK")
                pressed += 1
            elif re.search(r"1\) kick off \| 2\) receive", tail) and not typed_words:
                screen.type("receive")  # its words instead of its number
                typed_words += 1
            elif re.search(r"\d\) ", tail):
                screen.type("1")
            else:
                screen.type("")
            assert screen.settle(60), screen.text[-2000:]
            assert "Traceback" not in screen.text, screen.text[-3000:]
        assert "Final whistle" in screen.text, screen.text[-3000:]
        assert pressed >= 5 and answered_yards >= 1 and typed_words == 1
        # the board's own words reached the table: the dice and the box's refusals in words
        assert "box: " in screen.text
        final = re.findall(r"==== \S+ +play \d+/2 ====  Red (\d+) : (\d+) Blue", screen.text)[-1]
        _, status = os.waitpid(pid, 0)
        pid = None
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        if pid is not None:
            stop(pid, fd)
        else:
            os.close(fd)
    from propctl.serial_link.linkclient import LinkClient
    with LinkClient.open(port, wait_s=5) as client:
        snap = client.request("state", timeout=WAIT_S)
    # the box holds the game the referee showed: over, the same score
    assert snap["phase"] == "over" and [str(n) for n in snap["score"]] == list(final)


def test_port_refuses_the_options_of_a_game_kept_here(capsys):
    from propctl.cli import main
    assert main(["play", "fingerfootball", "--port", "auto", "--names", "A,B", "--resume", "x.json"]) == 2
    err = capsys.readouterr().err
    assert "--names and --resume cannot go with it" in err and "football.names" in err


class FakeBox:
    """A box that answers `state` from a real engine (or without its settings, as older firmware)."""

    def __init__(self, settings=True):
        from propctl.shared.rules.fingerfootball import FingerFootball
        self.game = FingerFootball(3, {"names": ["Red", "Blue"]})
        self.settings = settings
        self.sent = []

    def request(self, cmd, args=None, timeout=WAIT_S):
        self.sent.append((cmd, args))
        snap = self.game.snapshot()
        if not self.settings:
            del snap["settings"]
        snap["box"] = "idle"
        return snap


def test_a_box_with_older_firmware_is_told_to_deploy_again():
    from propctl.props.football.box_referee import BoxReferee
    from propctl.serial_link.linkclient import LinkFailure
    said = []
    referee = BoxReferee("/dev/ttyACM0", lambda prompt: "", said.append)
    referee.board = "pico"
    referee.box = FakeBox(settings=False)
    with pytest.raises(LinkFailure, match=r"deploy it again, `propctl deploy --port /dev/ttyACM0 "
                                          r"--prop football --board pico`"):
        referee.fetch()


def test_the_referee_asks_only_what_the_buttons_cannot_say():
    from propctl.props.football.box_referee import BoxReferee
    said = []
    referee = BoxReferee("/dev/ttyACM0", lambda prompt: said.append(prompt) or "", said.append)
    box = FakeBox()
    referee.box = box
    state, game = referee.fetch()
    referee.turn(state, game)  # the toss: ROLL on the box, nothing to type
    assert "On the box: ROLL toss the coin." in said and not [s for s in said if "1)" in s]
    box.game.act("toss", 0)  # the box tossed: Red won
    state, game = referee.fetch()
    said.clear()
    referee.ask = lambda prompt: said.append(prompt) or "receive"
    referee.turn(state, game)  # kick or receive: the box cannot know, the referee asks in words
    assert "Red: 1) kick off | 2) receive" in said
    assert box.sent[-1] == ("report", {"action": "receive"})


def test_a_box_move_wrapped_by_readline_still_ends_the_question():
    """GNU readline's input() can return the signal handler's BoxMoved wrapped in a SystemError
    (seen in CI: "returned a result with an exception set"); the question ends as a box move."""
    from propctl.props.football.box_referee import BoxMoved, BoxReferee

    def ask(prompt):
        try:
            raise BoxMoved()
        except BoxMoved as moved:
            raise SystemError("returned a result with an exception set") from moved

    referee = BoxReferee("PORT", ask, print)
    with pytest.raises(BoxMoved):
        referee.question("Red> ")
    other = BoxReferee("PORT", lambda prompt: (_ for _ in ()).throw(SystemError("other")), print)
    with pytest.raises(SystemError):
        other.question("Red> ")
