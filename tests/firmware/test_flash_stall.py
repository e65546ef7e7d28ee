"""Flash writes stall a chip; the runtime keeps every deadline clear of them (MicroPython).

The virtual board's flash (host_tools/propctl/vboard/vflash.py) stalls board
time on every write, with nothing ticked or scanned meanwhile, as a Pico's
does (a 4 KB sector: typically 45 ms, at worst 400 ms, interrupts off). The
props run as link.startup runs them (tests/firmware/scenario_flash_stall.py): saves go
to a store that writes later, the runtime writes it and the boot guard's
counter where the app allows. With the worst stall and the smallest watchdog
a setting allows, every deadline must land as if the flash were free.
"""
import pytest

S = "scenario_flash_stall:"
WORST = 400        # ms: a W25Q16 sector erase at its worst
WATCHDOG_MIN = 500  # the smallest watchdog_ms the settings accept
DEBOUNCE = 20       # the fuse box's and the buttons' default debounce_ms
SCAN = 5            # the fuse box's default scan_ms


def folder(tmp_path):
    return str(tmp_path) + "/"


def stalls_within(seen, start, end):
    """The stalls that overlap board time start..end."""
    return [s for s in seen["stalls"] if s[0] < end and s[0] + s[1] > start]


def event(seen, name):
    found = [e for e in seen["events"] if e["event"] == name]
    assert len(found) == 1, (name, seen["events"])
    return found[0]


def test_the_flash_model_charges_a_sector_per_4_kb_written_and_per_rename_or_remove(
        vboard_process, tmp_path):
    seen = vboard_process.call(S + "flash_model", folder(tmp_path), None)
    # the default: 45 ms a sector; 3,000 bytes start one sector, 2,000 more reach a second
    assert seen["elapsed"] == [45, 90, 135, 135, 180] and seen["size"] == 5000
    worst = vboard_process.call(S + "flash_model", folder(tmp_path), WORST)
    assert worst["elapsed"] == [400, 800, 1200, 1200, 1600]


def test_the_clocks_stop_lands_on_plan_though_the_guard_and_saves_fall_due_in_the_round(
        vboard_process, tmp_path):
    seen = vboard_process.call(S + "clock_round", folder(tmp_path), WORST, WATCHDOG_MIN)
    start, stop, idle = event(seen, "start"), event(seen, "stop"), event(seen, "idle")
    assert 0 <= stop["at_ms"] - stop["planned_ms"] <= 1, stop
    assert 0 <= stop["t"] - (start["t"] + stop["planned_ms"]) <= 1, (start, stop)
    # the boot guard fell due (1 s) and two new_game saves and a report came while the hand
    # turned or the bell rang: every write waited until the clock stood idle
    assert stalls_within(seen, start["t"], idle["t"]) == []
    assert seen["resets"] == 0 and seen["boot_count"] == 0 and not seen["waiting"]
    assert seen["saved"]["players"] == 3 and seen["saved"]["rounds"] == [[1]], seen["saved"]
    assert len(seen["stalls"]) >= 4  # the boot's count, the guard's clear, the save's two


def on_and_off(log):
    """[(on, off), ...] board times from an output's [t, signal, value] log (value > 0 is on)."""
    spans, since = [], None
    for t, _, value in log:
        if value > 0 and since is None:
            since = t
        elif value <= 0 and since is not None:
            spans.append((since, t))
            since = None
    return spans


def test_the_relay_pulse_and_the_buzzer_end_on_time_though_a_save_falls_due_during_them(
        vboard_process, tmp_path):
    seen = vboard_process.call(S + "fusebox_blow", folder(tmp_path), WORST, WATCHDOG_MIN)
    blown = event(seen, "fuse_blown")
    assert on_and_off(seen["relay"]) == [(blown["t"], blown["t"] + 1000)]  # relay_ms
    buzz = [span for span in on_and_off(seen["piezo"]) if span[0] == blown["t"]]
    # BLOWN_SOUND: five 120 ms notes and a 700 ms one
    assert buzz == [(blown["t"], blown["t"] + 5 * 120 + 700)], on_and_off(seen["piezo"])
    assert stalls_within(seen, blown["t"], blown["t"] + 1300) == []
    assert event(seen, "scored")["t"] == blown["t"] + 900  # the report itself was not held back
    assert seen["saved"]["game"]["scores"] == [0, 10, 0] and not seen["waiting"]
    assert seen["resets"] == 0


@pytest.mark.parametrize("stall_ms", [45, WORST])
def test_no_window_change_that_outlasts_a_stall_and_the_debounce_is_lost(
        vboard_process, tmp_path, stall_ms):
    last = stall_ms + DEBOUNCE + 2 * SCAN
    seen = vboard_process.call(S + "fusebox_windows", folder(tmp_path), stall_ms, WATCHDOG_MIN,
                               last, 4)
    assert [is_open for _, is_open in seen["windows"]] == [True, False] * 4, seen["windows"]
    # not vacuous: each save's writes began while the window was open or opening
    for i in range(4):
        at = 2000 + 1500 * i
        assert stalls_within(seen, at, at + 10 + last), (at, seen["stalls"])
    assert seen["saved"]["game"]["players"] == 2 and not seen["waiting"]
    assert seen["resets"] == 0


def test_the_kick_count_keeps_its_beat_though_the_kick_saves_the_game(vboard_process, tmp_path):
    seen = vboard_process.call(S + "football_kick", folder(tmp_path), WORST, WATCHDOG_MIN, 3)
    press = seen["press"]
    tones = seen["tones"]
    go = tones[0][0]
    assert press + DEBOUNCE <= go <= press + DEBOUNCE + 10  # the go sounds at the debounced press
    assert [t - go for t, _ in tones] == [0, 1000, 2000, 3000], tones
    lengths = [off - on for on, off in on_and_off(seen["piezo"]) if on >= go]
    assert lengths == [150, 100, 100, 600]  # GO, two BEATs, END
    assert stalls_within(seen, press, go + 3600) == []
    steps = [(e["step"], e["at_ms"]) for e in seen["events"] if e["event"] == "kick_count"]
    assert steps == [("go", 0), ("beep", 1000), ("beep", 2000), ("end", 3000)]
    assert seen["resets"] == 0 and not seen["waiting"] and seen["boot_count"] == 0
