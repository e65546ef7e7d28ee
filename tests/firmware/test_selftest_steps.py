"""The self-test names what to check for a dead motor or bell, and says when the motor supply is off.

Board side (selftest.session on the virtual board, through `vboard_process`): the pins of
each motor step, the question about its power, the pack's voltage as a pack-powered step
starts, the MCP23017 set up before the window steps. Host side (propctl.serial_link.selftest):
what the person reads.
"""
import re

import pytest
from micropython_harness import FIRMWARE_LIB

from propctl.serial_link import selftest

S = "scenario_selftest_steps:"


def steps_by_name(result):
    return {name: (prompt, ms, place) for name, prompt, ms, place in result["steps"]}


def test_a_dead_drv8833_motor_names_ain1_ain2_nsleep_and_asks_for_vm(vboard_process):
    result = vboard_process.call(S + "clock_steps", {"clock": {"chime": "solenoid"}}, 4600)
    steps = steps_by_name(result)
    assert steps["motor_cw"][2] == ("AIN1 on GP16 (pin 21), AIN2 on GP17 (pin 22), "
                                    "nSLEEP (EEP) on GP19 (pin 25)")
    started = result["started"]
    assert started["motor_cw"]["check"].startswith(
        "is VM powered (the battery pack's + at the DRV8833's VM pin)? if it hums but does not turn: "
        "this firmware drives the DRV8833 in slow decay")
    assert "fast decay" in started["motor_cw"]["check"]
    assert "supply_mv" not in started["motor_cw"]  # no divider wired: nothing to read
    assert started["solenoid"]["check"].startswith("is the solenoid powered")
    assert "check" not in started["led"] and "supply_mv" not in started["led"]
    detail = selftest.unseen(steps["motor_cw"][2], started["motor_cw"])
    assert detail == ("not seen: check the wires on AIN1 on GP16 (pin 21), AIN2 on GP17 (pin 22), "
                      "nSLEEP (EEP) on GP19 (pin 25); " + started["motor_cw"]["check"])


def test_a_dead_tb6612_motor_names_pwma_and_stby_too(vboard_process):
    result = vboard_process.call(S + "clock_steps", {"board": "esp32", "clock": {"bridge": "tb6612"}}, 4600)
    place = steps_by_name(result)["motor_ccw"][2]
    assert place == ("AIN1 on GPIO 26 (pin J1-10), AIN2 on GPIO 27 (pin J1-11), PWMA on GPIO 14 "
                     "(pin J1-12), STBY on GPIO 13 (pin J1-15)")
    assert result["started"]["motor_ccw"]["check"] == ("is VM powered (the battery pack's + at the "
                                                       "TB6612's VM pin)? if it hums but does not "
                                                       "turn: free the gearbox or raise speed_min")


def test_the_stepper_asks_for_the_uln2003s_supply(vboard_process):
    result = vboard_process.call(S + "clock_steps", {"clock": {"motor": "stepper"}}, 4600)
    assert steps_by_name(result)["motor_cw"][2].startswith("IN1-IN4 on GP2 (pin 4)")
    check = result["started"]["motor_cw"]["check"]
    assert check == "is the ULN2003 powered (the battery pack's + at its + pin)?"


@pytest.mark.parametrize("pack_mv,off", [(0, True), (120, True), (3300, False), (4800, False)])
def test_with_the_divider_a_pack_at_0v_is_the_motor_supply_off_not_the_wires(vboard_process, pack_mv, off):
    config = {"clock": {"chime": "solenoid", "battery_min_mv": 3600}}
    result = vboard_process.call(S + "clock_steps", config, pack_mv)
    steps = steps_by_name(result)
    for name in ("motor_cw", "motor_ccw", "solenoid"):
        started = result["started"][name]
        assert abs(started["supply_mv"] - pack_mv) <= 10, started
        detail = selftest.unseen(steps[name][2], started)
        if off:
            assert detail.startswith("not seen: the motor supply is off (the battery pack reads 0.")
            assert "wires" not in detail and "switch the pack on" in detail
        else:
            assert detail.startswith("not seen: check the wires on ")
    assert "supply_mv" not in result["started"]["led"]  # the LED runs from the board


def test_the_hosts_off_threshold_is_the_firmwares():
    source = (FIRMWARE_LIB / "drivers" / "battery.py").read_text(encoding="utf-8")
    assert int(re.search(r"^OFF_MV = const\((\d+)\)", source, re.M).group(1)) == selftest.SUPPLY_OFF_MV


def test_the_self_test_sets_the_mcp23017_up_before_the_window_steps(vboard_process):
    # Once the self-test read the windows through an expander it never set up (pull-ups
    # off after a power-cycle: open windows floated); now set up at begin and after a brown-out.
    result = vboard_process.call(S + "mcp_set_up", {"prop": "fusebox", "fusebox": {"inputs": "mcp23017"}})
    assert result == {"at_begin": True, "lost": False, "after_one_tick": True}


def test_the_self_test_and_the_prop_share_the_wirings_guards(vboard_process):
    """props.clock.wiring builds both: a rate the stepper driver refuses is replaced in the self-test
    too (it raised there: the guard was in build() only)."""
    seen = vboard_process.call(S + "guarded_stepper_rate", 5000)
    assert seen["prop"] == ["clock.stepper_steps_per_s: 5000 is not 1..1000; using 300"]
    assert seen["selftest"][:2] == ["motor_cw", "motor_ccw"]
