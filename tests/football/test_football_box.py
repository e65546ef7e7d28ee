"""The Finger Football box firmware on the virtual board (MicroPython), judged from CPython.

The scenarios in tests/football/scenario_football_box.py run props.football with its
real drivers on the fake `machine` and a fake SSD1306; the score is read off
the OLED's pixels, the count's timing off the recorded piezo outputs.
"""
import re

import firmware_sounds
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from propctl.shared.rules.fingerfootball_field import DEFAULT_LANE_DIE, ZONE_FACES
from propctl.shared.rules.rng import Rng

S = "scenario_football_box:"
KICK_MS = 3000  # "go, one thousand one, one thousand two, one thousand three" (the issue)


def events(trace, name):
    return [e for e in trace["events"] if e["event"] == name]


def screen_score(lines):
    """(home, away) read off the scoreboard's first line, e.g. '>HOME 14 AWAY  7'."""
    found = re.findall(r"([A-Z]{1,4})\s*(\d+)", lines[0])
    assert len(found) == 2, lines
    return [int(found[0][1]), int(found[1][1])]


# --- the 3-second count ---------------------------------------------------------------

@pytest.mark.parametrize("step_ms", [10, 7, 3])
def test_count_beeps_on_the_beats_and_ends_within_one_tick_of_3000_ms(vboard_process, step_ms):
    trace = vboard_process.call(S + "kick_count", 3, step_ms, None, 0, "link")
    steps = [(e["step"], e["t"]) for e in events(trace, "kick_count")]
    assert [s for s, _ in steps] == ["go", "beep", "beep", "end"]
    go = steps[0][1]
    for (_, t), beat in zip(steps, (0, 1000, 2000, KICK_MS)):
        assert 0 <= t - go - beat < step_ms, steps
    # The piezo itself: four tones, on the same beats, the final one lower and longer.
    tones = [tone for tone in trace["tones"] if tone[0] >= go]
    assert len(tones) == 4, tones
    assert tones[0][0] == go
    assert 0 <= tones[3][0] - go - KICK_MS < step_ms
    assert tones[3][1] < min(f for _, f in tones[:3])
    # No report before the end: no good, and the other team takes over.
    result = events(trace, "kick_result")
    assert len(result) == 1 and result[0]["good"] is False
    assert trace["score"] == [0, 0]
    assert trace["phase"] == "scrimmage" and trace["offense"] != trace["before"]["offense"]
    assert trace["during"][3] == "KICK!"


@pytest.mark.parametrize("via,at_ms", [("button", 1500), ("link", 2990), ("button", 250)])
def test_good_reported_before_the_end_scores_three(vboard_process, via, at_ms):
    trace = vboard_process.call(S + "kick_count", 4, 10, "good", at_ms, via)
    kicker = trace["before"]["offense"]
    result = events(trace, "kick_result")
    assert len(result) == 1 and result[0]["good"] is True and result[0]["at_ms"] < KICK_MS
    expected = [0, 0]
    expected[kicker] = 3
    assert trace["score"] == expected
    assert screen_score(trace["after"]) == expected and screen_score(trace["before"]["screen"]) == [0, 0]
    # The count stops at the report: no final tone.
    go = events(trace, "kick_count")[0]["t"]
    assert [e["step"] for e in events(trace, "kick_count")][-1] != "end"
    assert all(t < go + KICK_MS for t, _ in trace["tones"])


@pytest.mark.parametrize("via,at_ms", [("link", 3000), ("link", 3400), ("button", 3100)])
def test_good_reported_at_or_after_the_end_is_no_good(vboard_process, via, at_ms):
    trace = vboard_process.call(S + "kick_count", 5, 10, "good", at_ms, via)
    result = events(trace, "kick_result")
    assert len(result) == 1 and result[0]["good"] is False
    assert trace["score"] == [0, 0] and screen_score(trace["after"]) == [0, 0]
    assert [e["step"] for e in events(trace, "kick_count")] == ["go", "beep", "beep", "end"]
    # Reported after the final tone: the kick was already settled, the report is refused.
    late = 1 if at_ms > KICK_MS + 10 else 0
    refused_presses = [e for e in events(trace, "refused") if e["button"] == "good"]
    if via == "link":
        assert len(trace["refusals"]) == late and refused_presses == []
    else:
        assert len(refused_presses) == late and trace["refusals"] == []


@settings(max_examples=25)
@given(at_ms=st.integers(min_value=0, max_value=4500), seed=st.integers(min_value=0, max_value=10**6))
def test_a_link_report_is_good_exactly_when_it_comes_before_3000_ms(vboard_process, at_ms, seed):
    trace = vboard_process.call(S + "kick_count", seed, 10, "good", at_ms, "link")
    good = at_ms < KICK_MS
    result = events(trace, "kick_result")
    assert len(result) == 1 and result[0]["good"] is good
    assert sum(trace["score"]) == (3 if good else 0)


def test_miss_during_the_count_is_no_good(vboard_process):
    trace = vboard_process.call(S + "kick_count", 6, 10, "miss", 800, "button")
    result = events(trace, "kick_result")
    assert len(result) == 1 and result[0]["good"] is False and result[0]["late"] is False
    assert trace["score"] == [0, 0]


def test_the_count_and_idle_ticks_allocate_nothing(each_vboard_process):
    assert each_vboard_process.call("scenario_heap_lock:heap_lock_is_armed") is True
    for step_ms in (10, 1):
        result = each_vboard_process.call(S + "heap_locked_count", 7, step_ms)
        assert result["idle_ok"], result
        assert result["count_ok"], "allocation in the count: " + result["where"]
        assert result["events_in_lock"] == 3  # beep, beep, end emitted under the lock
        assert result["resets"] == 0  # the runtime's passes fed the watchdog throughout
        assert [r["good"] for r in result["results"]] == [False]
        assert result["phase"] == "scrimmage"


# --- the dice -------------------------------------------------------------------------

SEEDS = list(range(12))
ROLLS_PER_SEED = 500
# Critical values of the chi-square distribution at p = 0.001 (tables; scipy is not a
# dependency). The seeds are fixed, so the test is deterministic: the level only says
# how unlikely it was that a fair die's sample would fail, and at 6,000 rolls a die
# with one face at 1/5 instead of 1/6 gives about 48, far past the 5-df line.
CHI2_001 = {4: 18.467, 5: 20.515, 35: 66.619}


def chi_square(counts, probabilities):
    total = sum(counts)
    return sum((c - total * p) ** 2 / (total * p) for c, p in zip(counts, probabilities))


def parse_log(text):
    """The scenario's compact log: ["toss", team] and ["roll", zone face, lane face] entries."""
    out = []
    for item in text.split():
        if item[0] == "t":
            out.append(["toss", int(item[1:])])
        else:
            out.append(["roll", ZONE_FACES[int(item[0])], item[1:]])
    return out


def expected_stream(seed, log):
    """Replay the seed's shared PRNG: the coin is below(2), a roll is two below(6) draws."""
    rng = Rng(seed)
    out = []
    for entry in log:
        if entry[0] == "toss":
            out.append(["toss", rng.below(2)])
        else:
            out.append(["roll", ZONE_FACES[rng.below(6)], DEFAULT_LANE_DIE[rng.below(6)]])
    return out


@pytest.fixture(scope="module")
def dice(vboard_process):
    raw = vboard_process.call(S + "dice_rolls", SEEDS, ROLLS_PER_SEED)
    return {seed: parse_log(raw[seed]) for seed in raw}


def test_coin_and_dice_come_from_the_shared_prng(dice):
    for seed in SEEDS:
        log = dice[str(seed)]
        assert len([e for e in log if e[0] == "roll"]) == ROLLS_PER_SEED
        assert log[0][0] == "toss"
        assert log == expected_stream(seed, log)


def test_dice_are_fair_over_many_rolls(dice):
    rolls = [e for seed in SEEDS for e in dice[str(seed)] if e[0] == "roll"]
    zones = [ZONE_FACES.index(r[1]) for r in rolls]
    zone_counts = [zones.count(i) for i in range(6)]
    assert chi_square(zone_counts, [1 / 6] * 6) < CHI2_001[5], zone_counts
    lanes = sorted(set(DEFAULT_LANE_DIE))
    lane_counts = [sum(1 for r in rolls if r[2] == name) for name in lanes]
    lane_p = [DEFAULT_LANE_DIE.count(name) / 6 for name in lanes]
    assert chi_square(lane_counts, lane_p) < CHI2_001[4], lane_counts
    # Successive rolls are independent: pairs of zone faces spread over all 36 cells.
    pair_counts = [0] * 36
    for seed in SEEDS:
        z = [ZONE_FACES.index(e[1]) for e in dice[str(seed)] if e[0] == "roll"]
        for a, b in zip(z, z[1:]):
            pair_counts[a * 6 + b] += 1
    assert chi_square(pair_counts, [1 / 36] * 36) < CHI2_001[35], pair_counts


def test_the_fairness_check_catches_a_loaded_die():
    # The same statistic, same sample size, on a die whose face 0 comes up 2/7 of the time.
    rng = Rng(99)
    n = len(SEEDS) * ROLLS_PER_SEED
    faces = [max(0, rng.below(7) - 1) for _ in range(n)]
    counts = [faces.count(i) for i in range(6)]
    assert chi_square(counts, [1 / 6] * 6) > CHI2_001[5]


def test_roll_button_shows_the_dice_on_the_display(vboard_process):
    result = vboard_process.call(S + "roll_button", 21, 12)
    assert len(result["rolls"]) == 12
    for (zone, lane, screen), event in zip(result["shown"], result["rolls"]):
        assert [zone, lane] == event
        assert screen[3] == ("%s %s" % (zone, lane)).upper()


# --- a whole game -----------------------------------------------------------------------

@pytest.mark.parametrize("seed,height", [(5, 32), (8, 64), (13, 32)])
def test_a_scripted_game_drives_the_display_to_the_right_score(vboard_process, seed, height):
    game = vboard_process.call(S + "scripted_game", seed, height)
    assert game["phase"] == "over" and not game["overflow"]
    counts = game["counts"]
    assert counts["td"] >= 4 and counts["fg"] >= 2 and counts["late"] >= 1, counts
    assert game["checks"], "the script never scored"
    for check in game["checks"]:
        assert screen_score(check["screen"]) == check["tally"], check
    tally = game["tally"]
    final = game["final"]
    assert screen_score(final) == tally
    assert tally[0] != tally[1]
    winner = "HOME" if tally[0] > tally[1] else "AWAY"
    assert final[3] == "FINAL %s WINS" % winner
    assert len(final) == height // 8
    if height == 64:
        assert "wins" in " ".join(final[4:])  # the referee's last sentence below the board
    # Each late "good" press was refused (the kick was already no good), nothing else.
    assert len(game["refused"]) == counts["late"]
    assert all(e["event"] == "refused" and e["button"] == "good" for e in game["refused"])
    added = [0, 0]
    for e in game["scores"]:
        added[e["team"]] += e["points"]
    assert added == tally
    assert game["quarters"][-1]["over"] is True


# --- smaller behaviours ----------------------------------------------------------------------

def test_refused_presses_change_nothing_and_sound_low(vboard_process):
    result = vboard_process.call(S + "refused_press", 3)
    assert result["same"] and result["screen_same"]
    refused = result["refused"]
    assert [e["button"] for e in refused] == ["kick", "good"]
    assert "50" in refused[0]["error"]
    refused_hz = firmware_sounds.tuples("props/football/constants.py")["REFUSED_TONE"][0]
    assert [f for _, f in result["tones"]] == [refused_hz, refused_hz]
    # the lowest sound the box makes ("sound low"), and still in the piezo's band
    low, _ = firmware_sounds.band()
    assert refused_hz == low


def test_led_display_shows_possession_downs_and_the_count(vboard_process):
    seen = vboard_process.call(S + "led_display", 2)
    assert all(v == 0 for v in seen["start"].values())
    team = "led_home" if seen["receiver"] == 0 else "led_away"
    other = "led_away" if team == "led_home" else "led_home"
    first = seen["first_down"]
    assert first[team] == 1 and first[other] == 0
    assert [first["led_down%d" % i] for i in (1, 2, 3, 4)] == [1, 0, 0, 0]
    assert [seen["second_down"]["led_down%d" % i] for i in (1, 2, 3, 4)] == [1, 1, 0, 0]
    assert seen["counting"]["led_kick"] == 1 and seen["after_kick"]["led_kick"] == 0
    assert seen["errors"] == []


def test_missing_oled_falls_back_to_leds_and_says_so(vboard_process):
    result = vboard_process.call(S + "missing_oled", 1)
    assert result["display"] == "LedDisplay"
    assert any("no OLED" in message for message in result["errors"])
    assert "toss" in result["events"]


def test_the_game_survives_a_restart(vboard_process, tmp_path):
    result = vboard_process.call(S + "saved_game", 30, str(tmp_path / "football_state.json"))
    assert result["errors"] == []
    assert result["after"] == result["before"]
    assert sum(result["after"]["snap"]["score"]) == 3


@pytest.mark.parametrize("height", [32, 64])
def test_oled_is_initialised_as_the_datasheet_says(vboard_process, height):
    result = vboard_process.call(S + "oled_protocol", height)
    assert result["first"] == 0xAE  # display off while configuring
    assert result["on"] and result["charge_pump"] and result["mux"] == height
    assert result["mode"] == 0 and result["errors"] == []
    assert result["frames"] >= 2  # the cleared frame, then the scoreboard
    assert result["screen"][0] == " HOME  0 AWAY  0" and result["screen"][3] == "COIN TOSS"
    assert result["commands"] > 20 and not result["allocates"]  # the virtual chip takes no heap


def test_link_commands_drive_the_box(vboard_process, tmp_path):
    requests = [
        {"id": 1, "cmd": "roll"},
        {"id": 2, "cmd": "report", "args": {"action": "kick"}},
        {"id": 3, "cmd": "report", "args": {"action": "goal", "pick": "north"}},
        {"id": 4, "cmd": "report", "args": {"action": "in_field", "yards": 55}},
        {"id": 5, "cmd": "kick_start"},
        {"id": 6, "cmd": "report", "args": {"action": "good"}},
        {"id": 7, "cmd": "roll", "args": {"zone": "7-run", "lane": "left"}},
        {"id": 8, "cmd": "state"},
        {"id": 9, "cmd": "report", "args": {"action": "punt", "yards": 3}},
    ]
    lines = vboard_process.call(S + "link_session", str(tmp_path) + "/", requests)
    replies = {line["re"]: line for line in lines if "re" in line}
    assert all("ok" in replies[i] for i in (1, 2, 3, 4, 5, 6, 8)), replies
    assert replies[5]["ok"]["box"] == "counting"
    assert replies[6]["ok"]["box"] == "idle"
    assert replies[7]["err"] == "refused"  # a kickoff is due, not dice
    assert replies[9]["err"] == "refused"
    assert sum(replies[8]["ok"]["score"]) == 3
    names = [line["ev"] for line in lines if "ev" in line]
    assert "kick_count" in names and "kick_result" in names and "score" in names
    assert (tmp_path / "football_state.json").exists()


def test_a_new_game_seed_outside_the_settings_range_is_refused_by_name(vboard_process, tmp_path):
    requests = [{"id": 1, "cmd": "new_game", "args": {"seed": -1}},
                {"id": 2, "cmd": "new_game", "args": {"seed": 4294967296}},
                {"id": 3, "cmd": "new_game", "args": {"seed": 4294967295}}]  # football.seed's top
    lines = vboard_process.call(S + "link_session", str(tmp_path) + "/", requests)
    replies = {line["re"]: line for line in lines if "re" in line}
    for i in (1, 2):
        assert replies[i]["err"] == "bad_args", replies
        assert replies[i]["msg"] == "seed must be a whole number 0..4294967295", replies
    assert "ok" in replies[3], replies
    games = [line["data"] for line in lines if line.get("ev") == "play"]
    assert [game["seed"] for game in games if game["action"] == "new_game"] == [4294967295]


def test_an_exception_in_the_count_silences_the_box_and_reports_a_fault(vboard_process):
    result = vboard_process.call(S + "fault_in_count", 12)
    assert result["error"] == "injected fault"
    assert result["state"] == "fault" and result["last_duty"] == 0
    assert len(result["fault"]) == 1 and "injected fault" in result["fault"][0]["error"]
    assert result["fault"][0]["state"] == "counting"


def test_bad_box_settings_fall_back_to_defaults_and_say_why(vboard_process):
    section = {"seed": 4, "names": "Reds", "plays_per_quarter": "20", "colour": "red",
               "oled_height": 48, "quarters": 3}
    result = vboard_process.call(S + "bad_settings", section)
    errors = " / ".join(result["errors"])
    for key in ("names", "plays_per_quarter", "colour", "oled_height", "quarters"):
        assert "football." + key in errors, errors
    # the box's specs (settings) refuse them by key: a 48-row panel does not exist, halves need even quarters
    assert "football.oled_height: 48 is not one of 32, 64" in errors, errors
    assert "football.quarters: 3 is not one of 2, 4, 6, 8" in errors, errors
    assert result["cfg"]["seed"] == 4 and result["cfg"]["names"] == ["Home", "Away"]
    assert result["cfg"]["oled_height"] == 32 and result["display"] == "OledDisplay"


def test_holding_roll_after_the_final_whistle_starts_a_new_game(vboard_process):
    short = {"plays_per_quarter": 4, "quarters": 2, "long_press_ms": 1500}
    quick = vboard_process.call(S + "scripted_game", 21, 32, short, 600)
    assert quick["phase"] == "over"
    assert quick["after_hold"]["phase"] == "over"  # a short press is not enough ...
    game = vboard_process.call(S + "scripted_game", 21, 32, short, 2000)
    assert game["phase"] == "over" and screen_score(game["final"]) == game["tally"]
    after = game["after_hold"]
    assert after["phase"] == "toss" and after["score"] == [0, 0]  # ... a hold is
    assert after["screen"][0] == " HOME  0 AWAY  0" and after["screen"][3] == "COIN TOSS"
    assert quick["refused"] == game["refused"]  # and neither press was taken as a mistake
