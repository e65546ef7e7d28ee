"""The real fuse-box firmware on the virtual board, under MicroPython.

Each session runs in tests/fusebox/scenario_fusebox_vboard.py inside the unix port
with the fake `machine`; these tests judge events and output logs. Bolt
windows are read from the sample deck's CSV here, not from the firmware.
"""
import csv

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from propctl.cards.container import build_pack
from propctl.cards.load import load_deck
from propctl.sim.runner import REPO_FIRMWARE_LIB

S = "scenario_fusebox_vboard:"
DECK = REPO_FIRMWARE_LIB.parents[1] / "host_tools" / "propctl" / "data" / "decks" / "taskcards.en.csv"
DEBOUNCE = 20
SCAN = 5


def bolts_from_csv():
    """card id -> bolt window 0..7, straight from the deck file (people write 1..8)."""
    with open(DECK, encoding="utf-8-sig", newline="") as f:
        return {row["id"]: int(row["bolt"]) - 1 for row in csv.DictReader(f)}


BOLTS = bolts_from_csv()
CARD_IDS = sorted(BOLTS)


@pytest.fixture(scope="module")
def pack_path(tmp_path_factory):
    deck = load_deck([str(DECK)])
    assert not deck.problems
    data = build_pack(deck.kind.CODE, deck.kind.VERSION, [deck.kind.encode(c) for c in deck.cards])
    path = tmp_path_factory.mktemp("fusebox") / "taskcards.bin"
    path.write_bytes(data)
    return str(path)


def with_pack(pack_path, **more):
    fusebox = {"pack": pack_path}
    fusebox.update(more)
    return {"fusebox": fusebox}


def named(result, name):
    return [e for e in result["events"] if e["event"] == name]


def window_events(result):
    return [(e["t"], e["window"] - 1, e["open"]) for e in named(result, "window")]  # the link counts 1-8


def last_level(log, at=None):
    """Level of an output at time `at` (default: at the end) from its [t, signal, value] log."""
    value = 0
    for t, _, v in log:
        if at is None or t <= at:
            value = v
    return value


def sess(vboard_process, overrides, script=(), actions=(), until_ms=500, **options):
    result = vboard_process.call(S + "session", overrides, list(script), list(actions), until_ms, options)
    assert result["error"] is None, result["error"]
    assert not result["overflow"]
    return result


# --- debouncing: one event per real change ----------------------------------

def bounce_script(changes, level_for_open):
    """Raw levels for each real change: the bounce edges, then the new level, held."""
    script, expected = [], []
    for window, start, gaps, is_open in changes:
        t = start
        final = level_for_open[is_open]
        # an odd number of edges before the final one would end on the wrong level: the
        # bounce alternates, starting with the new level
        levels = [final if i % 2 == 0 else 1 - final for i in range(len(gaps))]
        for gap, level in zip(gaps, levels):
            script.append([t, window, level])
            t += gap
        script.append([t, window, final])
        expected.append((window, t, is_open))
    return script, expected


def clip(gaps):
    """Contact bounce ends inside the debounce time: drop edges past 18 ms."""
    out, total = [], 0
    for gap in gaps:
        if total + gap > DEBOUNCE - 2:
            break
        out.append(gap)
        total += gap
    return out


changes_strategy = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 60),
              # bounce: up to 8 edges 1-9 ms apart (so scans 5 ms apart do see the glitches),
              # over before the debounce time
              st.lists(st.integers(1, 9), max_size=8).map(clip)),
    min_size=1, max_size=12)


def plan_changes(raw):
    """Per window, alternate open/close; each change starts after the last one settled."""
    at = [20] * 8
    state = [False] * 8
    out = []
    for window, pause, gaps in raw:
        start = at[window] + pause
        state[window] = not state[window]
        out.append((window, start, gaps, state[window]))
        at[window] = start + sum(gaps) + DEBOUNCE + 2 * SCAN + 1
    return out


def check_one_event_per_change(result, expected):
    got = window_events(result)
    for window in range(8):
        mine = [(t, is_open) for t, w, is_open in got if w == window]
        wanted = [(t, is_open) for w, t, is_open in expected if w == window]
        assert [o for _, o in mine] == [o for _, o in wanted], (window, mine, wanted)
        for (t_event, _), (t_settled, _) in zip(mine, wanted):
            # the new level is stable from t_settled: the event comes within debounce + one scan
            assert t_settled <= t_event <= t_settled + DEBOUNCE + SCAN, (window, t_event, t_settled)
    assert named(result, "sensor_fault") == []


@settings(max_examples=25)
@given(raw=changes_strategy)
def test_bouncing_sensors_give_one_event_per_real_change(vboard_process, raw):
    changes = plan_changes(raw)
    script, expected = bounce_script(changes, {True: 1, False: 0})  # reed closed while shut: open = 1
    end = max(t for _, t, _ in expected) + 100
    result = sess(vboard_process, {}, script, (), end)
    check_one_event_per_change(result, expected)


@settings(max_examples=10)
@given(raw=changes_strategy)
def test_bouncing_sensors_on_the_mcp23017(vboard_process, raw):
    changes = plan_changes(raw)
    script, expected = bounce_script(changes, {True: 1, False: 0})
    end = max(t for _, t, _ in expected) + 100
    result = sess(vboard_process, {"fusebox": {"inputs": "mcp23017"}}, script, (), end)
    check_one_event_per_change(result, expected)
    assert result["pullups"] == 0x7F7F  # pull-ups on GPA0-6 and GPB0-6, the pins read as inputs
    assert result["mcp_reads"] >= end // SCAN  # one register read per scan


def test_mcp23017_window_8_is_on_gpb0_and_gpa7_gpb7_are_outputs(vboard_process):
    # GPA7/GPB7 are output-only (Microchip DS20001952 rev D): the virtual chip refuses a sensor
    # there, so a firmware that reads window 8 on GPA7 cannot pass this session.
    assert "GPA7 is output-only" in vboard_process.call(S + "mcp23017_refuses", 7)
    assert "GPB7 is output-only" in vboard_process.call(S + "mcp23017_refuses", 15)
    assert vboard_process.call(S + "mcp23017_refuses", 8) is None
    result = sess(vboard_process, {"fusebox": {"inputs": "mcp23017"}},
                  [[100, 7, 1], [300, 7, 0], [400, 6, 1]], (), 500)
    assert result["error"] is None, result["error"]
    assert window_events(result) == [(120, 7, True), (320, 7, False), (420, 6, True)]
    assert result["iodir"] == 0x7F7F  # GPA7 and GPB7 outputs (driven low), every other pin an input


def test_microswitch_wiring_open_when_active(vboard_process):
    # a microswitch pressed by the open slider: active (pin low) means open
    result = sess(vboard_process, {"fusebox": {"open_when_active": True}},
                  [[100, 3, 0], [300, 3, 1]], (), 400)
    assert window_events(result) == [(120, 3, True), (320, 3, False)]


# --- the card and the fuse ----------------------------------------------------

@settings(max_examples=25)
@given(card=st.sampled_from(CARD_IDS), order=st.permutations(range(8)), count=st.integers(1, 8),
       bounce=st.lists(st.integers(1, 3), max_size=4))
def test_the_fuse_blows_exactly_when_the_bolt_window_opens(vboard_process, pack_path, card, order, count,
                                                           bounce):
    bolt = BOLTS[card]
    opened = list(order[:count])
    moves, t = [], 700  # after the green "card accepted" blinks
    for window in opened:
        for i, gap in enumerate(bounce):
            moves.append([t, window, 1 - i % 2])
            t += gap
        moves.append([t, window, 1])
        t += 150
    result = sess(vboard_process, with_pack(pack_path), moves, [[100, "cmd", "select_card", card]], t + 3000)
    assert named(result, "card")[0]["id"] == card and named(result, "card")[0]["bolt_known"] is True
    open_times = {w: t for t, w, is_open in window_events(result) if is_open}
    blown = named(result, "fuse_blown")
    safe = named(result, "safe")
    if bolt in opened:
        assert len(blown) == 1
        assert blown[0]["window"] == bolt + 1 and blown[0]["t"] == open_times[bolt]
        before = opened[:opened.index(bolt)]
        assert [e["window"] - 1 for e in safe] == before
        assert blown[0]["opened"] == len(before) + 1
        # red light and buzzer from the blow on, and not before
        assert last_level(result["red"], blown[0]["t"] - 1) == 0
        assert last_level(result["red"]) == 1
        assert any(v > 0 and t >= blown[0]["t"] for t, _, v in result["piezo"])
        assert result["snapshot"]["state"] == "blown"
    else:
        assert blown == []
        assert [e["window"] - 1 for e in safe] == opened
        assert last_level(result["red"]) == 0
        assert result["snapshot"]["state"] == "round"
    # each safe window: a click and a green flash at its opening
    for e in safe:
        assert last_level(result["green"], e["t"]) == 1
        assert last_level(result["piezo"], e["t"]) > 0
    assert result["relay"] == []  # no relay unless configured


def test_relay_pulses_when_configured(vboard_process, pack_path):
    card = CARD_IDS[0]
    result = sess(vboard_process, with_pack(pack_path, relay=True, relay_ms=1500),
                  [[200, "open", BOLTS[card]]], [[100, "cmd", "select_card", card]], 3000)
    blow = named(result, "fuse_blown")[0]["t"]
    on = [t for t, _, v in result["relay"] if v == 1]
    off = [t for t, _, v in result["relay"] if v == 0 and t > 0]
    assert on == [blow] and len(off) == 1 and off[0] - blow in range(1500, 1500 + SCAN + 1)


def test_a_card_waits_until_every_window_is_shut(vboard_process, pack_path):
    card = CARD_IDS[3]
    # windows 2 and 6 (the 3rd and 7th) are open at power-up
    result = sess(vboard_process, with_pack(pack_path), [[400, "close", 2], [1100, "close", 6]],
                  [[100, "cmd", "select_card", card]], 1500, open_at_start=[2, 6])
    refused = named(result, "windows_not_closed")
    assert len(refused) == 1 and refused[0]["windows"] == [3, 7] and refused[0]["card"] == card
    accepted = named(result, "card")
    assert len(accepted) == 1 and accepted[0]["id"] == card
    last_close = [t for t, w, o in window_events(result) if w == 6 and not o][0]
    assert accepted[0]["t"] == last_close
    # the red LED blinked the first open window's number (3 blinks) before the card was accepted
    blinks = [t for t, _, v in result["red"] if v == 1 and 100 <= t < accepted[0]["t"]]
    assert len(blinks) == 3


def test_next_and_previous_buttons_walk_the_pack(vboard_process, pack_path):
    actions = [[100, "press", "btn_next"], [300, "press", "btn_next"], [500, "press", "btn_prev"],
               [700, "press", "btn_prev"]]
    result = sess(vboard_process, with_pack(pack_path), (), actions, 900)
    # the pack keeps the deck's order; the first "previous" from the first card wraps to the last
    deck_order = list(BOLTS)
    assert [e["id"] for e in named(result, "card")] == [deck_order[0], deck_order[1], deck_order[0],
                                                        deck_order[-1]]


def test_choices_reported_give_the_rules_result(vboard_process, pack_path):
    # Example 1 of the rulebook in spirit: three players, the chooser right, seats 1 and 2 wrong.
    card = CARD_IDS[5]
    bolt = BOLTS[card]
    safe = [w for w in range(8) if w != bolt]
    actions = [[50, "cmd", "new_game", 3], [100, "cmd", "select_card", card],
               [400, "cmd", "report_choices", [2]], [700, "cmd", "report_choices", []],
               [800, "cmd", "report_choices", []]]
    moves = [[200, "open", safe[0]], [500, "open", bolt]]
    result = sess(vboard_process, with_pack(pack_path), moves, actions, 1000)
    first, second, third = result["replies"][2:]
    # seat 0 chose window safe[0], seat 1 took fingers away: one window open, 1 point, out
    assert first["ok"]["window"] == safe[0] + 1 and first["ok"]["bolt"] is False
    assert first["ok"]["points"] == {"2": 1} and first["ok"]["scores"] == [0, 1, 0]
    # seat 2 chose next, hit the bolt; nobody away: no points, round over
    assert second["ok"]["window"] == bolt + 1 and second["ok"]["bolt"] is True
    assert second["ok"]["chooser"] == 3 and second["ok"]["round_over"] is True
    # the round is decided: the box says so (not "no window has been opened": it waits for none)
    assert "err" in third and "this round of the game is over" in third["err"]
    assert [e["window"] for e in named(result, "scored")] == [safe[0] + 1, bolt + 1]
    assert result["snapshot"]["game"]["rounds_played"] == 1


def test_a_new_card_mid_round_abandons_the_round_and_passes_the_start_card(vboard_process, pack_path):
    # Rulebook, "New Round": every new card passes the start card; the unfinished round scores nothing
    card, other = CARD_IDS[5], CARD_IDS[6]
    safe = [w for w in range(8) if w != BOLTS[card]]
    actions = [[50, "cmd", "new_game", 3], [100, "cmd", "select_card", card],
               [400, "cmd", "report_choices", [2]], [700, "cmd", "select_card", other]]
    moves = [[200, "open", safe[0]], [500, "close", safe[0]]]
    result = sess(vboard_process, with_pack(pack_path), moves, actions, 1000)
    cards = named(result, "card")
    assert [c["id"] for c in cards] == [card, other]
    assert [c["dropped_round"] for c in cards] == [False, True]
    game = result["snapshot"]["game"]
    # the start card passed from player 1 to player 2 (players count from 1 on the link)
    assert game["rounds_played"] == 1 and game["starter"] == 2 and game["chooser"] == 2
    assert game["round_active"] and game["in_round"] == [1, 2, 3] and game["opened"] == []
    assert game["scores"] == [0, 1, 0]  # what the abandoned round had scored stays; nothing more


def test_bad_choices_are_refused_and_change_nothing(vboard_process, pack_path):
    card = CARD_IDS[1]
    safe = [w for w in range(8) if w != BOLTS[card]][0]
    actions = [[50, "cmd", "new_game", 4], [100, "cmd", "select_card", card],
               [400, "cmd", "report_choices", [1]], [450, "cmd", "report_choices", [8]],
               [500, "cmd", "report_choices", [3, 4]], [550, "cmd", "select_card", "NOPE-99"],
               [600, "cmd", "new_game", 9]]
    result = sess(vboard_process, with_pack(pack_path), [[200, "open", safe]], actions, 700)
    r = result["replies"]
    # in the players' words: numbered from 1, no rules-core seat (it said "seat 0 chose ...")
    assert r[2]["err"].startswith("player 1 chose this statement") and "seat" not in r[2]["err"]
    assert "players are numbered 1 to 4, not 8" in r[3]["err"]
    assert r[4]["ok"]["points"] == {"3": 1, "4": 1}
    assert "no card NOPE-99" in r[5]["err"]
    assert "2 to 8 players" in r[6]["err"]
    assert result["snapshot"]["game"]["scores"] == [0, 0, 1, 1]


# --- manual mode and a damaged pack ------------------------------------------

def test_without_a_pack_the_bolt_button_blows_the_fuse(vboard_process):
    actions = [[50, "cmd", "new_game", 2], [300, "press", "btn_bolt"], [500, "cmd", "report_choices", [2]],
               [600, "cmd", "next_card"]]
    result = sess(vboard_process, {}, [[200, "open", 4]], actions, 800)
    assert named(result, "mode")[0]["mode"] == "manual"
    assert named(result, "card")[0]["bolt_known"] is False
    assert named(result, "safe") == [] and named(result, "fuse_blown")[0]["window"] == 5
    scored = result["replies"][1]["ok"]
    # player 1 opened the bolt window; player 2 kept fingers away: 10 points
    assert scored["bolt"] is True and scored["points"] == {"2": 10}
    assert "manual mode" in result["replies"][2]["err"]
    assert last_level(result["red"]) == 1


def test_manual_mode_safe_window_scores_as_safe(vboard_process):
    actions = [[50, "cmd", "new_game", 3], [400, "cmd", "report_choices", [3]]]
    # window 0: the stand-in bolt of manual mode must not make a safe window a bolt
    result = sess(vboard_process, {}, [[200, "open", 0]], actions, 500)
    scored = result["replies"][1]["ok"]
    assert scored["bolt"] is False and scored["points"] == {"3": 1}


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage"])
def test_a_corrupt_pack_gives_manual_mode_with_an_error_and_keeps_running(vboard_process, pack_path,
                                                                       tmp_path, damage):
    data = bytearray(open(pack_path, "rb").read())
    if damage == "flip":
        data[len(data) // 2] ^= 0x40
    elif damage == "truncate":
        data = data[:len(data) - 100]
    else:
        data = bytearray(b"this is not a card pack at all" * 10)
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(data))
    actions = [[100, "cmd", "select_card", CARD_IDS[0]], [400, "press", "btn_bolt"]]
    result = sess(vboard_process, with_pack(str(bad)), [[300, "open", 5], [900, "close", 5]], actions, 1200)
    errors = named(result, "pack_error")
    assert len(errors) == 1 and "bad.bin" in errors[0]["error"]
    assert named(result, "mode")[0]["mode"] == "manual"
    assert "manual mode" in result["replies"][0]["err"]
    # and the box still works: window events, the bolt button, a new round once the window is shut
    assert [(w, o) for _, w, o in window_events(result)] == [(5, True), (5, False)]
    assert named(result, "fuse_blown")[0]["window"] == 6
    assert len(named(result, "card")) == 2
    assert result["snapshot"]["mode"] == "manual" and result["snapshot"]["pack_error"]


def test_a_missing_pack_is_manual_mode_without_an_error(vboard_process, tmp_path):
    result = sess(vboard_process, with_pack(str(tmp_path / "none.bin")), (), (), 100)
    assert named(result, "pack_error") == []
    assert named(result, "mode")[0]["mode"] == "manual"


# --- faulty sensors -------------------------------------------------------------

def test_a_sensor_open_for_too_long_is_reported_once(vboard_process):
    result = sess(vboard_process, {"fusebox": {"stuck_open_ms": 2000}}, [[100, "open", 6]], (), 6000)
    faults = named(result, "sensor_fault")
    assert [(f["window"], f["fault"]) for f in faults] == [(7, "stuck_open")]
    assert 2100 <= faults[0]["t"] <= 2100 + SCAN
    assert result["snapshot"]["faulty"] == [7]


def test_a_sensor_disconnected_at_power_up_is_reported(vboard_process):
    result = sess(vboard_process, {"fusebox": {"stuck_open_ms": 1000}}, (), (), 1500, open_at_start=[7])
    assert [(f["window"], f["fault"]) for f in named(result, "sensor_fault")] == [(8, "stuck_open")]


def test_a_flickering_sensor_is_reported(vboard_process):
    # toggles every 7 ms for 2 s: never stable for the debounce time
    script = [[100 + 7 * i, 2, i % 2] for i in range(300)]
    result = sess(vboard_process, {}, script, (), 2600)
    faults = named(result, "sensor_fault")
    assert [(f["window"], f["fault"]) for f in faults] == [(3, "flicker")]
    assert 1100 <= faults[0]["t"] <= 1100 + 2 * SCAN
    # no window event while it flickers; one when it finally stays open (last edge at 2193)
    events = window_events(result)
    assert len(events) == 1 and events[0][1:] == (2, True)
    assert 2193 + DEBOUNCE <= events[0][0] <= 2193 + DEBOUNCE + SCAN


# --- persistence, allocation ------------------------------------------------------

def test_game_and_card_survive_a_restart(vboard_process, pack_path, tmp_path):
    state = str(tmp_path / "fusebox_state.json")
    card = CARD_IDS[7]
    safe = [w for w in range(8) if w != BOLTS[card]][0]
    actions = [[50, "cmd", "new_game", 3], [100, "cmd", "select_card", card],
               [400, "cmd", "report_choices", [2]]]
    first = sess(vboard_process, with_pack(pack_path), [[200, "open", safe]], actions, 500, state_path=state)
    assert first["snapshot"]["game"]["scores"] == [0, 1, 0]
    again = vboard_process.call(S + "restart", with_pack(pack_path), state, 100)
    assert again["snapshot"]["game"]["scores"] == [0, 1, 0]
    assert again["snapshot"]["game"]["players"] == 3
    assert again["snapshot"]["card"] == card
    assert [e["id"] for e in again["events"] if e["event"] == "card"] == [card]


def test_window_scans_and_the_blown_fuse_allocate_nothing(each_vboard_process, pack_path):
    assert each_vboard_process.call("scenario_heap_lock:heap_lock_is_armed") is True
    card = CARD_IDS[2]
    bolt = BOLTS[card]
    safe = [w for w in range(8) if w != bolt]
    moves = [[10, safe[0], 1], [11, safe[0], 0], [13, safe[0], 1], [200, safe[1], 1], [400, safe[1], 0],
             [600, bolt, 1], [601, bolt, 0], [602, bolt, 1]]
    for overrides in (with_pack(pack_path, relay=True),
                      with_pack(pack_path, relay=True, inputs="mcp23017")):
        result = each_vboard_process.call(S + "heap_locked_round", overrides, card, moves)
        assert result["ok"], result
        assert result["state"] == "blown"
        assert result["events"] >= 6  # window x4, safe, fuse_blown were emitted under the lock


# --- behind the link -----------------------------------------------------------------

def test_the_box_answers_the_serial_link(vboard_process, pack_path):
    import json
    card = CARD_IDS[4]
    lines = ['{"id": 1, "cmd": "hello"}',
             '{"id": 2, "cmd": "new_game", "args": {"players": 3}}',
             '{"id": 3, "cmd": "select_card", "args": {"card": "%s"}}' % card,
             "open %d" % BOLTS[card],
             '{"id": 4, "cmd": "report_choices", "args": {"away": [2, 3]}}',
             '{"id": 5, "cmd": "report_choices", "args": {"away": "all"}}',
             '{"id": 6, "cmd": "select_card", "args": {"card": "NOPE"}}',
             '{"id": 7, "cmd": "state"}']
    out = [json.loads(line) for line in vboard_process.call(S + "link_session", with_pack(pack_path), lines)]
    replies = {m["re"]: m for m in out if "re" in m}
    assert {"select_card", "next_card", "prev_card", "bolt", "new_game", "report_choices",
            "state"} <= set(replies[1]["ok"]["caps"])
    assert replies[3]["ok"]["card"] == card
    assert replies[4]["ok"]["bolt"] is True and replies[4]["ok"]["points"] == {"2": 10, "3": 10}
    assert replies[5]["err"] == "bad_args"
    assert replies[6]["err"] == "refused" and "no card NOPE" in replies[6]["msg"]
    assert replies[7]["ok"]["game"]["scores"] == [0, 10, 10]
    events = [m["ev"] for m in out if "ev" in m]
    assert events[:1] == ["mode"] and "card" in events and "fuse_blown" in events and "scored" in events
    assert [m["seq"] for m in out] == list(range(1, len(out) + 1))


def test_a_lost_mcp23017_is_reported_once_and_the_box_keeps_running(vboard_process):
    result = vboard_process.call(S + "bus_gap", {"fusebox": {"inputs": "mcp23017"}}, 300, 800,
                                 [[100, "open", 1], [1000, "open", 4]], 1300)
    assert result["error"] is None, result["error"]
    faults = [(e["t"], e["window"], e["fault"]) for e in result["events"] if e["event"] == "sensor_fault"]
    assert len(faults) == 1 and faults[0][1:] == (-1, "i2c") and 300 <= faults[0][0] <= 300 + SCAN
    opened = [(e["window"], e["open"]) for e in result["events"] if e["event"] == "window"]
    assert opened == [(2, True), (5, True)]  # sensors read again once the chip answers
    assert result["snapshot"]["open"] == [2, 5]


@pytest.mark.parametrize("silent", [False, True], ids=["power-lost", "brown-out"])
def test_a_power_cycled_mcp23017_gets_its_pull_ups_and_directions_back_within_one_scan(
        vboard_process, silent):
    # The set-up was once written only at start; a chip that lost power came back with
    # every pin an input and no pull-ups, so the open window 2 floated and read shut.
    result = vboard_process.call(S + "mcp_power_cycle", {"fusebox": {"inputs": "mcp23017"}}, 300, 800,
                                 [[100, "open", 1], [1000, "open", 4]], 1300, silent)
    assert result["error"] is None, result["error"]
    assert 800 <= result["back_ms"] <= 800 + SCAN and result["scans"] == 1, result
    moves = [(e["window"], e["open"]) for e in result["events"] if e["event"] == "window"]
    assert moves == [(2, True), (5, True)]  # no phantom close of window 2 after the power cycle
    assert result["snapshot"]["open"] == [2, 5]


def test_the_link_counts_windows_1_to_8_and_players_1_to_n(vboard_process):
    # The top window is window 1 on the link, as printed on the box; players are 1-n.
    actions = [[50, "cmd", "new_game", 3], [400, "cmd", "report_choices", [2]]]
    result = sess(vboard_process, {}, [[200, "open", 0], [300, "open", 7]], actions, 600)
    assert [(e["window"], e["open"]) for e in named(result, "window")] == [(1, True), (8, True)]
    assert result["snapshot"]["open"] == [1, 8] and result["snapshot"]["to_report"] == [8]
    scored = result["replies"][1]["ok"]
    assert scored["window"] == 1 and scored["chooser"] == 1 and scored["away"] == [2]
    assert scored["points"] == {"2": 1} and scored["opened"] == [1]
    game = result["snapshot"]["game"]
    assert game["starter"] == 1 and game["players"] == 3
    assert all(1 <= p <= 3 for p in game["in_round"]) and game["opened"] == [1]
