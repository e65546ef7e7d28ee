"""Drivers (switches, motors, chimes, battery, LED) on the virtual board, under MicroPython."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

D = "scenario_clock_drivers:"
RELEASED, PRESSED, LONG = 0, 1, 2


# --- switches ---------------------------------------------------------------

def test_clean_press_and_release_after_the_debounce_time(vboard_process):
    # active low: 0 = pressed
    script = [[100, 0, 0], [400, 0, 1]]
    events = vboard_process.call(D + "switch_events", 1, script, 20, 0, 600)
    assert events == [[120, 0, PRESSED], [420, 0, RELEASED]]


def test_bounces_shorter_than_the_debounce_time_give_no_event(vboard_process):
    # 8 ms of contact bounce, then a clean 30 ms press, then 5 ms glitches only.
    bounce = [[100 + i, 0, i % 2] for i in range(8)]
    script = bounce + [[108, 0, 0], [138, 0, 1], [300, 0, 0], [305, 0, 1], [400, 0, 0], [404, 0, 1]]
    events = vboard_process.call(D + "switch_events", 1, script, 20, 0, 600)
    assert events == [[128, 0, PRESSED], [158, 0, RELEASED]]


@settings(max_examples=30)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 60)), min_size=1, max_size=25))
def test_events_alternate_and_match_stable_levels(vboard_process, toggles):
    """Any toggle pattern on 8 inputs: per input, events alternate pressed/released,
    every event follows a level that then stayed stable for the debounce time."""
    script, t, level = [], 10, [1] * 8
    for index, gap in toggles:
        level[index] ^= 1
        script.append([t, index, level[index]])
        t += gap
    events = vboard_process.call(D + "switch_events", 8, script, 15, 0, t + 100)
    for index in range(8):
        kinds = [k for _, i, k in events if i == index]
        assert kinds == [PRESSED, RELEASED] * (len(kinds) // 2) + [PRESSED] * (len(kinds) % 2)
        changes = [(when, lvl) for when, i, lvl in script if i == index]
        for when, i, kind in events:
            if i != index:
                continue
            wanted = 0 if kind == PRESSED else 1
            last_change = max((c for c in changes if c[0] <= when), default=None)
            assert last_change is not None and last_change[1] == wanted
            assert when - last_change[0] >= 15
        final = changes[-1][1] if changes else 1
        assert (kinds[-1] == PRESSED if kinds else False) == (final == 0)


def test_long_press_comes_once_per_hold(vboard_process):
    script = [[100, 0, 0], [2500, 0, 1], [3000, 0, 0], [3500, 0, 1]]
    events = vboard_process.call(D + "switch_events", 1, script, 20, 1500, 4000)
    assert events == [[120, 0, PRESSED], [1620, 0, LONG], [2520, 0, RELEASED],
                      [3020, 0, PRESSED], [3520, 0, RELEASED]]


def test_active_high_inputs(vboard_process):
    script = [[50, 2, 1], [200, 2, 0]]
    events = vboard_process.call(D + "switch_events", 3, script, 10, 0, 300, False)
    assert events == [[60, 2, PRESSED], [210, 2, RELEASED]]


def test_input_closed_at_power_up_is_not_a_press(vboard_process):
    events = vboard_process.call(D + "switch_events", 2, [[0, 1, 0]], 10, 0, 200)
    assert events == []


def test_mcp23017_source_reads_14_inputs_over_i2c_skipping_gpa7_and_gpb7(vboard_process):
    # GPA0 (input 0), GPB0 (input 7) and GPB6 (input 13) go low (pressed) at different times;
    # GPA7 and GPB7 (output-only pins) toggling must not show as any input.
    script = [[0, 0xFFFF], [100, 0xFFFE], [150, 0x7F7E], [200, 0x3E7E], [300, 0xBEFE], [400, 0xFFFF]]
    result = vboard_process.call(D + "mcp23017_events", script, 500)
    assert result["pullups"] == 0x7F7F
    assert result["events"] == [[110, 0, PRESSED], [210, 7, PRESSED], [210, 13, PRESSED],
                                [410, 0, RELEASED], [410, 7, RELEASED], [410, 13, RELEASED]]


# --- motors -------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["drv8833", "tb6612", "stepper"])
def test_direct_reversal_requests_brake_and_dwell(vboard_process, kind):
    script = [[0, 1000], [500, -1000], [1200, 600], [2000, -600], [2010, 600], [2800, 0]]
    r = vboard_process.call(D + "motor_script", kind, script, 3500, 2, {"dwell_ms": 150, "ramp_ms": 100})
    assert r["forbidden"] == 0 and r["skipped"] == 0
    # -1000, +600, and the 10 ms flicker to -600 is never driven (it changes its mind while ramping down)
    assert r["reversals"] == 2 and r["quick_reversals"] == 0 and r["min_reverse_gap"] >= 150
    speeds = r["speeds"]
    # Applied speed never jumps across zero, and ramps no faster than 1000 per ramp_ms.
    assert all((a >= 0 and b >= 0) or (a <= 0 and b <= 0) for a, b in zip(speeds, speeds[1:]))
    assert all(abs(b - a) <= 1000 * 2 // 100 + 1 for a, b in zip(speeds, speeds[1:]))
    # Standing at the end: braked, then released after the dwell.
    assert r["energised"] is False and r["motor_energised"] is False


@pytest.mark.parametrize("kind", ["drv8833", "tb6612"])
def test_stop_brakes_at_once_and_release_coasts(vboard_process, kind):
    r = vboard_process.call(D + "motor_script", kind, [[0, 800], [1000, "stop"]], 1100, 10, {})
    assert r["speeds"][100] == 0  # the tick right after stop()
    assert r["energised"] is True  # still braking inside the dwell
    r = vboard_process.call(D + "motor_script", kind, [[0, 800], [1000, "stop"]], 1400, 10, {})
    assert r["energised"] is False  # dwell over: released
    r = vboard_process.call(D + "motor_script", kind, [[0, 800], [1000, "release"]], 1000, 10, {})
    assert r["energised"] is False


@pytest.mark.parametrize("kind", ["drv8833", "tb6612", "stepper"])
def test_the_dwell_counts_from_the_brake_not_from_the_last_update(vboard_process, kind):
    # A slow control loop: updates every 100 ms; stop() comes 90 ms after the last one and the
    # reverse drive 1 ms later. The motor must stand dwell_ms from the brake itself.
    script = [[0, 1000], [1090, "stop"], [1091, -1000]]
    r = vboard_process.call(D + "motor_script", kind, script, 2000, 100, {"dwell_ms": 150, "ramp_ms": 100})
    assert r["reversals"] == 1 and r["quick_reversals"] == 0
    assert r["min_reverse_gap"] >= 150


def test_bridge_only_ever_sees_legal_input_combinations(vboard_process):
    # DRV8833: every logged (IN1, IN2) pair is coast, brake, or a slow-decay drive (one input
    # full, the other at full minus the duty), never fast decay (one side partial, the other 0),
    # and a drive one way never follows one the other way without a brake or coast between.
    script = [[t * 50, s] for t, s in enumerate([300, -1000, 1000, 0, -50, 700, "stop", 900, "release"])]
    r = vboard_process.call(D + "motor_script", "drv8833", script, 600, 1, {"ramp_ms": 30, "dwell_ms": 20})
    full = 65535
    a = b = 0
    last = 0  # direction of the last drive state, 0 after a brake or coast
    seen = set()
    for _, name, value in r["log"]:
        if name == "16.duty":
            a = value
        elif name == "17.duty":
            b = value
        else:
            continue
        assert a in (0, full) or b in (0, full), (a, b)
        assert not (0 < a < full and b == 0) and not (0 < b < full and a == 0), ("fast decay", a, b)
        if (a, b) in ((0, 0), (full, full)):
            direction = 0
        else:
            direction = 1 if a == full and b < full or b == 0 else -1
        assert direction == 0 or last in (0, direction), ("the other direction in between", a, b)
        last = direction
        seen.add(direction)
    assert seen == {-1, 0, 1}
    # TB6612: the direction pins only change while PWM is 0.
    r = vboard_process.call(D + "motor_script", "tb6612", script, 600, 1, {"ramp_ms": 30, "dwell_ms": 20})
    duty = 0
    for _, name, value in r["log"]:
        if name == "18.duty":
            duty = value
        elif name in ("16", "17"):
            assert duty == 0, "direction pin changed under power"


def test_duty_is_capped_for_a_low_voltage_motor(vboard_process):
    r = vboard_process.call(D + "motor_script", "drv8833", [[0, 1000]], 500, 10, {"max_permille": 660})
    # slow decay forward: IN1 full, IN2 at full minus the duty
    assert max(v for _, name, v in r["log"] if name == "16.duty") == 65535
    duties = [65535 - v for _, name, v in r["log"] if name == "17.duty" and v > 0]
    assert max(duties) == 660 * 65535 // 1000


def test_stepper_half_steps_at_the_set_rate_and_releases_the_coils(vboard_process):
    r = vboard_process.call(D + "motor_script", "stepper", [[0, 1000], [2000, 0]], 3000, 1,
                            {"max_steps_per_s": 500, "ramp_ms": 1})
    # 2 s at 500 half-steps/s, give or take the ramp.
    assert 990 <= r["position"] <= 1000
    assert r["skipped"] == 0
    assert r["angle_mdeg"] == r["position"] * 360000 * 405 // 1650688  # 4075.77 half-steps a turn
    assert r["energised"] is False


def test_a_28byj48_output_turn_is_4075_77_half_steps_not_4096(vboard_process):
    # Gear train 32/9 x 22/11 x 26/9 x 31/10 = 63.684:1, x 64 half-steps per motor turn.
    angles = vboard_process.call(D + "stepper_angles", [4075, 4076, -4076, 2038, 81515, 81516])
    assert angles[0] < 360000 <= angles[1]          # one turn lies between 4075 and 4076
    assert angles[2] == -angles[1] - 1              # floored, also backwards
    assert angles[3] == 180010                      # half a turn: 2037.89 half-steps
    assert angles[4] < 20 * 360000 <= angles[5]     # 20 turns = 81515.46 half-steps, no drift


# --- chimes, battery, LED -------------------------------------------------------

def test_solenoid_pulse_is_capped_in_code(vboard_process):
    r = vboard_process.call(D + "solenoid_pulses", 5000, 300, 3, 5)
    assert len(r["pulses"]) == 3 and not r["busy"]
    assert all(0 < length <= 60 for _, length in r["pulses"])
    r = vboard_process.call(D + "solenoid_pulses", 25, 300, 2, 5)
    assert [length for _, length in r["pulses"]] == [25, 25]


def test_piezo_plays_the_melody_on_one_pwm_and_ends_silent(vboard_process):
    melody = [880, 200, 0, 100, 660, 300]
    r = vboard_process.call(D + "piezo_melody", melody, 10)
    assert r["notes"] == [[880, 0, 200], [660, 300, 300]]
    assert r["new_outputs"] == 0  # no PWM created while playing
    assert r["final_duty"] == 0


@pytest.mark.parametrize("pack_mv", [3000, 3600, 4500])
@pytest.mark.parametrize("divider", [2000, 3128])  # 100k/100k, and 100k over 47k (3.128, not a whole number)
def test_battery_reads_the_pack_through_the_divider(vboard_process, pack_mv, divider):
    r = vboard_process.call(D + "battery_reading", pack_mv, 3300, divider)
    assert abs(r["mv"] - pack_mv) <= 6
    assert r["ok_3600"] == (r["mv"] >= 3600) and r["ok_0"] is True


@pytest.mark.parametrize("chip_full_mv", [2950, 3300])
def test_calibrated_read_uv_ignores_the_chip_to_chip_reference_spread(vboard_process, chip_full_mv):
    # An ESP32 whose real full scale is not the profile's 3100 mV: read_u16 scaled by 3100 is off
    # by ~5-6 %, read_uv() (the port's eFuse calibration) is not.
    uv = vboard_process.call(D + "battery_reading", 3650, 3100, 2000, True, chip_full_mv)
    u16 = vboard_process.call(D + "battery_reading", 3650, 3100, 2000, False, chip_full_mv)
    assert abs(uv["mv"] - 3650) <= 2 and uv["ok_3600"] is True
    assert abs(u16["mv"] - 3650) > 150


def test_indicator_blinks_the_pattern_once(vboard_process):
    assert vboard_process.call(D + "indicator_pattern", [300, 100, 300, 500], 10) == [[0, 300], [400, 300]]


@pytest.mark.parametrize("kind", ["drv8833", "tb6612"])
def test_the_hand_model_catches_bad_driving(vboard_process, kind):
    # The checks used on the firmware above must be able to fail.
    r = vboard_process.call(D + "physics_catches_bad_driving", kind)
    assert r["forbidden"] >= 1 and r["first_forbidden_ms"] == 100
    assert r["reversals"] == 1 and r["quick_reversals"] == 1


actions = st.one_of(st.integers(-1000, 1000), st.sampled_from(["stop", "release", 0, 1000, -1000]))


@settings(max_examples=25)
@given(kind=st.sampled_from(["drv8833", "tb6612", "stepper"]),
       steps=st.lists(st.tuples(st.integers(1, 400), actions), min_size=1, max_size=12))
def test_any_speed_script_keeps_the_bridge_rules(vboard_process, kind, steps):
    script, t = [], 0
    for gap, action in steps:
        t += gap
        script.append([t, action])
    script.append([t + 1, 0])
    r = vboard_process.call(D + "motor_script", kind, script, t + 600, 2, {"dwell_ms": 100, "ramp_ms": 80})
    assert r["forbidden"] == 0 and r["skipped"] == 0
    assert r["quick_reversals"] == 0
    speeds = r["speeds"]
    assert all(abs(s) <= 1000 for s in speeds)
    assert all((a >= 0 and b >= 0) or (a <= 0 and b <= 0) for a, b in zip(speeds, speeds[1:]))
    # Asked to stand at the end: released after ramp + dwell.
    assert r["energised"] is False
