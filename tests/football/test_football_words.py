"""The Finger Football box in the players' words: no ROLL where the box refuses to roll, the log
names the team that acts, a kickoff reads as one, the yard-line prompt fits 80 columns, and any
key (a superscript two, an arrow key) is refused or ignored, never a traceback."""
import io

from propctl.describe import describe_event
from propctl.keys import KeyDecoder
from propctl.props.football import sim as football
from propctl.props.football.reports import button_roles
from propctl.shared.rules.fingerfootball import FingerFootball, make_settings


def game_in_opponents_zone_3():
    game = FingerFootball(5, make_settings({}))
    game.act("toss", 0)
    game.act("receive", None)   # Home receives, Away kicks off
    game.act("goal", "north")
    game.act("in_field", 88)    # the kickoff stops on the receiver's 88: the opponent's 12
    assert game.state["phase"] == "scrimmage" and game.state["offense"] == 0
    return game


def test_no_roll_is_shown_in_the_opponents_zone_3():
    game = game_in_opponents_zone_3()
    names = game.action_names()
    assert "roll" not in names and "go_for_td" in names
    hint, status = game.waiting_for()  # what the box's display shows (props.football.scoreboard)
    assert "ROLL" not in status and len(status) <= 16, status
    assert "Zone 3" in hint and "roll" not in hint
    state = {"phase": "scrimmage", "actions": game.actions(), "box": "idle"}
    assert button_roles(state)["roll"] == ""


def test_a_roll_says_that_the_defence_rolls():
    game = FingerFootball(5, make_settings({}))
    game.act("toss", 0)
    game.act("receive", None)
    game.act("goal", "north")
    game.act("in_field", 30)     # Home's ball on its own 30
    message = game.act("roll", None)[0]["message"]
    assert message.startswith("Away (the defence) rolls"), message


def test_a_kickoff_reads_as_a_kickoff():
    game = FingerFootball(5, make_settings({}))
    game.act("toss", 1)
    events = game.act("kick", None)  # Away kicks off (once Home has picked a goal)
    possession = [e for e in events if e["event"] == "possession"]
    assert possession and possession[0].get("kickoff") is True
    fields = {k: v for k, v in possession[0].items() if k != "event"}
    text = describe_event("football", "possession", dict(fields, names=["Home", "Away"]))
    assert text == "Away kicks off", text
    assert "own 0" not in text and "down" not in text
    later = describe_event("football", "possession", {"team": 1, "down": 1, "line": "own 35"})
    assert later == "away team has the ball, 1st down on the own 35"


def test_the_yard_line_prompt_fits_80_columns():
    keys = football.Keys(lambda line: None, 1500)
    keys.typing = ("yards", "in_field", 1, 99)
    keys.typed = "3"
    screen = football.Screen(io.StringIO(), "Finger Football box, virtual pico (seed 4)", 8)
    screen.notice = keys.prompt()
    lines = screen.lines(80, 24)
    assert all(len(line) < 80 for line in lines)
    shown = " ".join(" ".join(lines).split())
    assert " ".join(keys.prompt().split()) in shown  # every word of it, wrapped, none cut


def test_a_superscript_digit_or_an_arrow_key_is_no_report():
    sent = []
    keys = football.Keys(sent.append, 1500)
    decoder = KeyDecoder()
    for ch in decoder.feed("²³¹٣\x1b[A\x1b[2~\xff".encode("utf-8", "surrogateescape") + b"\xc3(", 0):
        keys.key(ch, 0)
    assert sent == [] and not keys.quit
    keys.typing = ("yards", "in_field", 1, 99)
    for ch in "²3\r":
        keys.key(ch, 0)
    assert sent == ["report in_field 3"]
