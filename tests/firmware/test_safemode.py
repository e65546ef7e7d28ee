"""Boot modes: three crashed boots in a row give safe mode; a stable run or a deploy clears it."""
import sys

from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))  # board-only modules, as the board imports them

import safemode  # noqa: E402
from scenario_link_store import Flash  # noqa: E402


def guard(flash):
    return safemode.BootGuard(fs=flash)


def test_three_boots_that_never_became_stable_start_safe_mode():
    flash = Flash({})
    modes = [safemode.boot_mode(guard(flash)) for _ in range(5)]
    assert modes == ["run", "run", "run", "safe", "safe"]
    assert guard(flash).count() == 3


def test_a_stable_run_resets_the_count():
    flash = Flash({})
    for _ in range(2):
        assert safemode.boot_mode(guard(flash)) == "run"
    guard(flash).stable()
    assert guard(flash).count() == 0
    assert [safemode.boot_mode(guard(flash)) for _ in range(3)] == ["run"] * 3


def test_clearing_leaves_safe_mode():
    flash = Flash({safemode.DEFAULT_PATH: b"3\n"})
    assert safemode.boot_mode(guard(flash)) == "safe"
    guard(flash).clear()
    assert safemode.boot_mode(guard(flash)) == "run"


def test_a_damaged_counter_does_not_cause_safe_mode():
    flash = Flash({safemode.DEFAULT_PATH: b"\xff\x00garbage"})
    assert safemode.boot_mode(guard(flash)) == "run"


def test_maintenance_wins_over_everything_until_deploy_removes_the_flag():
    flash = Flash({safemode.DEFAULT_PATH: b"3\n"})
    safemode.request_maintenance(fs=flash)
    assert safemode.boot_mode(guard(flash)) == "maintenance"
    flash.remove(safemode.MAINTENANCE_FLAG)
    assert safemode.boot_mode(guard(flash)) == "safe"


def test_ending_maintenance_runs_the_prop_again_and_is_harmless_when_not_in_maintenance():
    flash = Flash({})
    safemode.end_maintenance(fs=flash)  # nothing to end: no error
    safemode.request_maintenance(fs=flash)
    assert [safemode.boot_mode(guard(flash)) for _ in range(2)] == ["maintenance"] * 2
    safemode.end_maintenance(fs=flash)
    assert safemode.boot_mode(guard(flash)) == "run"


def test_the_advice_says_what_happened_and_what_to_do():
    advice = safemode.advice(3)
    assert "3 boots in a row" in advice["why"] and "propctl deploy" in advice["fix"]


def test_why_names_the_last_crash_and_the_config_problems():
    flash = Flash({})
    safemode.note_fault("ValueError: ramp_ms must be >= 1", fs=flash)
    assert safemode.last_fault(fs=flash) == "ValueError: ramp_ms must be >= 1"
    advice = safemode.advice(3, ["clock.ramp_ms: 0 is not a whole number 1..5000; using the default 120"],
                             safemode.last_fault(fs=flash))
    assert "ramp_ms must be >= 1" in advice["why"] and "clock.ramp_ms: 0" in advice["why"]
    assert advice["config_errors"] and advice["fault"]


def test_a_stable_run_forgets_the_last_crash():
    flash = Flash({})
    assert safemode.boot_mode(guard(flash)) == "run"
    safemode.note_fault("OSError: 5", fs=flash)
    guard(flash).stable()
    assert safemode.last_fault(fs=flash) == ""
    assert "last crash" not in safemode.advice(3)["why"]
