"""Event text knows the prop (from hello): one describer per prop, robust to any field types."""
import io

from hypothesis import given
from hypothesis import strategies as st
from test_link_client import FakeSerial, board_line

from propctl.describe import PROPS, describe_event
from propctl.props.clock.describe import describe_clock_score
from propctl.serial_link.linkclient import LinkClient
from propctl.serial_link.monitor import Printer

# as the board sends it: windows 1-8, players 1-n
FUSEBOX_SCORED = {"window": 3, "chooser": 1, "bolt": False, "opened": [3], "points": {"2": 1},
                  "away": [], "round_over": False, "scores": [0, 1, 0], "game_over": False}


def test_a_fusebox_score_is_not_read_as_a_ghost_clock_score():
    text = describe_event("fusebox", "scored", FUSEBOX_SCORED)
    assert text == "score: window 3 was safe: player 2 +1; scores player 1 0, player 2 1, player 3 0"
    assert "ghost" not in text
    assert "ghost spaces" in describe_event("clock", "scored", {"round_winners": [1], "banked": [1, 0],
                                                               "before": [0, 0]})


def test_the_monitor_picks_the_describer_from_the_boards_hello():
    out = io.StringIO()
    printer = Printer(out)
    client = LinkClient(FakeSerial([board_line(1, ev="boot", data={"prop": "fusebox", "mode": "run"}),
                                    board_line(2, ev="scored", data=FUSEBOX_SCORED),
                                    board_line(3, ev="window",
                                               data={"window": 8, "open": True, "opened": 1})]))
    for line in client.lines(timeout=0.1):
        printer(line)
    text = out.getvalue()
    assert "#2 score: window 3 was safe" in text and "ghost" not in text
    assert "#3 window 8 opened (1 opened this round)" in text


def test_clock_scores_are_read_with_the_rules_core_players_counted_from_1():
    # the board sends players 1-n (round_winners, winners); banked has one entry per player
    text = describe_clock_score({"round_winners": [3], "banked": [1, 0, 2], "before": [1, 0, 1],
                                 "over": False, "winners": []})
    assert text == ("round won by player 3; ghost spaces 1-0-2 (player 3 +1); "
                    "one more round win ends the game for player 3")
    text = describe_clock_score({"round_winners": [1, 2], "banked": [3, 3], "before": [2, 2], "over": True,
                                 "winners": [1, 2]})
    assert "GAME OVER: player 1, player 2 won" in text
    assert describe_clock_score({"round_winners": [], "banked": [0, 0], "before": [0, 0]}).startswith(
        "round won by nobody")


def test_the_monitor_names_fuse_box_windows_and_players_as_printed():
    # windows 1-8 and players 1-n come from the board as printed on the box: shown as they came
    assert describe_event("fusebox", "window", {"window": 1, "open": True, "opened": 1}) == (
        "window 1 opened (1 opened this round)")
    assert describe_event("fusebox", "fuse_blown", {"window": 8, "opened": 3}) == "FUSE BLOWN at window 8"
    assert describe_event("fusebox", "sensor_fault", {"window": -1, "fault": "i2c"}) == (
        "sensor fault: the MCP23017 (I2C) i2c")
    assert describe_event("fusebox", "windows_not_closed", {"windows": [1, 8]}) == (
        "close every window first: open 1, 8")
    text = describe_event("fusebox", "scored", {"window": 3, "bolt": False, "chooser": 1,
                                                "points": {"2": 1, "3": 1, "10": 1}, "scores": [0, 1, 1]})
    assert text == ("score: window 3 was safe: player 2 +1, player 3 +1, player 10 +1; "
                    "scores player 1 0, player 2 1, player 3 1")


def test_unknown_events_show_their_fields():
    assert describe_event("clock", "unknown_thing", {"b": 1, "a": "x"}) == "unknown_thing a=x b=1"
    assert describe_event(None, "chime", {"round": 1}) == "chime round=1"  # no hello yet: no prop


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=12)
FIELDS = ["round", "seed", "segments", "duration_ms", "direction", "at_ms", "capped", "banked", "before",
          "round_winners", "winners", "over", "window", "open", "opened", "points", "scores", "bolt",
          "windows", "mode", "cards", "why", "fix", "step", "beat", "team", "score", "quarter", "winner",
          "down", "line", "kind", "good", "late", "error", "action", "prop", "msg", "id", "game_over"]
EVENTS = sorted({name for table in PROPS.values() for name in table}
                | {"boot", "hello", "safe_mode", "fault", "config_error", "button"})


@given(st.sampled_from(sorted(PROPS) + [None]), st.sampled_from(EVENTS) | JSON,
       st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=8) | JSON)
def test_any_field_types_give_a_line_never_a_traceback(prop, name, data):
    text = describe_event(prop, name, data)
    assert isinstance(text, str) and text
    assert all(" " <= ch != "\x7f" for ch in text)  # one line, no terminal control codes


def test_the_monitor_prints_events_with_unexpected_field_types():
    out = io.StringIO()
    printer = Printer(out, prop="clock")
    client = LinkClient(FakeSerial([board_line(1, ev="scored", data={"banked": ["x", 2], "before": 3,
                                                                     "round_winners": "0"}),
                                    board_line(2, ev="stop", data={"at_ms": "late", "capped": [1]}),
                                    board_line(3, ev="reverse", data=[1, 2])]))
    for line in client.lines(timeout=0.1):
        printer(line)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and "#2 hand stops at ?" in lines[1] and "#3 reverse [1, 2]" in lines[2]


def test_venue_modes_net_events_read_as_sentences():
    assert describe_event("clock", "net", {"state": "up", "broker": "10.0.0.5:1883", "id": "clock1"}) == (
        "network: on the broker 10.0.0.5:1883 as clock1")
    refused = {"state": "refused", "why": "not authorised", "retry_ms": 5210}
    assert describe_event("fusebox", "net", refused) == "network refused: not authorised; next try in 5.2 s"
    assert describe_event(None, "net", {"state": "wifi_lost", "why": "Wi-Fi cafe dropped"}) == (
        "network wifi lost: Wi-Fi cafe dropped")
