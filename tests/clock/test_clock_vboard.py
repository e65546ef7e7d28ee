"""The real ghost-clock firmware on the virtual board, round after round (MicroPython).

Every round is run by tests/clock/scenario_clock_vboard.py inside the MicroPython
unix port with the fake `machine`; these tests judge the returned trace:
the hand follows the plan, the stop is on time, the chime comes after the
stop and only then, the bridge never sees a forbidden state, reversals
dwell, and the motor is off at the end.
"""
import firmware_sounds
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROUND = "scenario_clock_vboard:round_trace"
HARD_MAX_RUN_MS = 120000  # props.clock.HARD_MAX_RUN_MS, restated: the test must not trust the code


def sign(x):
    return (x > 0) - (x < 0)


def event(trace, name):
    found = [e for e in trace["events"] if e["event"] == name]
    assert len(found) == 1, "expected one %r event, got %r" % (name, trace["events"])
    return found[0]


def segments(trace, t_start):
    """(start, end, speed) of each plan segment in board time."""
    out = []
    t = t_start
    for duration, speed in trace["plan"]:
        out.append((t, t + duration, speed))
        t += duration
    return out


def chime_on_times(trace):
    """Board times at which the bell output was switched on (piezo duty > 0 or solenoid high)."""
    return [t for t, name, value in trace["chime_log"]
            if value > 0 and (name.endswith(".duty") or "." not in name) and t > 0]


def check_round(trace):
    """Everything a normal round must satisfy; returns (start, stop) times."""
    assert trace["error"] is None, trace["error"]
    assert not trace["overflow"]
    names = [e["event"] for e in trace["events"] if e["event"] != "button"]
    assert names[0] == "start" and names[-3:] == ["stop", "chime", "idle"], names
    assert set(names[1:-3]) <= {"reverse"}, names
    tick = trace["tick_ms"]
    start = event(trace, "start")
    stop = event(trace, "stop")
    t0 = start["t"]
    planned = sum(d for d, _ in trace["plan"])
    assert start["duration_ms"] == planned and start["segments"] == len(trace["plan"])
    due = t0 + min(planned, trace["max_run_ms"])
    # The stop happens within one control tick of the planned time.
    assert 0 <= stop["t"] - due <= tick, (stop, due)

    # Reverse events exactly where the plan changes direction.
    expected, last = [], 0
    for seg_start, _, speed in segments(trace, t0):
        if speed and last and sign(speed) != last:
            expected.append(seg_start)
        if speed:
            last = sign(speed)
    reverses = [e["t"] for e in trace["events"] if e["event"] == "reverse"]
    assert len(reverses) == len(expected)
    assert all(0 <= got - want <= tick for got, want in zip(reverses, expected))

    # The hand follows the plan: inside each segment (after the ramp, brake
    # and dwell have settled) it turns the planned way, at a rate
    # proportional to the planned speed, and stands when the plan stands.
    samples = trace["samples"]
    settle = trace["ramp_ms"] + trace["dwell_ms"] + 2 * tick
    rates = []
    for seg_start, seg_end, speed in segments(trace, t0):
        window = [s for s in samples if seg_start + settle <= s[0] <= min(seg_end, stop["t"]) - tick]
        if len(window) < 2:
            continue
        moves = [b[1] - a[1] for a, b in zip(window, window[1:])]
        if speed == 0:
            assert all(m == 0 for m in moves), (seg_start, speed, moves[:5])
        else:
            assert all(sign(m) == sign(speed) for m in moves), (seg_start, speed, moves[:5])
            span = window[-1][0] - window[0][0]
            if span >= 500:
                rates.append((window[-1][1] - window[0][1]) / span / speed)
    if len(rates) >= 2:
        assert max(rates) <= min(rates) * 1.06, rates

    # Standing still after the stop, until the end of the trace.
    after = [s[1] for s in samples if s[0] >= stop["t"]]
    assert len(set(after)) == 1, after[:5]

    # The chime starts after the stop and only then.
    chime = event(trace, "chime")
    assert chime["t"] > stop["t"]
    on_times = chime_on_times(trace)
    assert on_times and min(on_times) >= chime["t"] > stop["t"]

    # The bridge rules and the end state.
    hand = trace["hand"]
    assert hand["forbidden"] == 0
    assert hand["quick_reversals"] == 0
    assert hand["skipped"] == 0
    if hand["reversals"]:
        assert hand["min_reverse_gap"] >= trace["dwell_ms"]
    assert hand["energised"] is False
    assert trace["state"] == "idle" and trace["completed"] == 1
    return t0, stop["t"]


@pytest.mark.parametrize("config,seeds", [
    ({"clock": {"bridge": "drv8833"}}, range(0, 25)),
    ({"clock": {"bridge": "tb6612", "chime": "solenoid"}}, range(100, 110)),
    ({"clock": {"motor": "stepper"}}, range(200, 210)),
    ({"board": "esp32", "clock": {"motor_max_permille": 660}}, range(300, 305)),
], ids=["drv8833", "tb6612-solenoid", "stepper", "esp32-3V-motor"])
def test_rounds_follow_the_plan(vboard_process, config, seeds):
    for seed in seeds:
        overrides = {k: dict(v) if isinstance(v, dict) else v for k, v in config.items()}
        overrides["clock"]["seed"] = seed
        trace = vboard_process.call(ROUND, overrides, {})
        check_round(trace)
        assert event(trace, "start")["seed"] == seed


@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       config=st.sampled_from([{}, {"bridge": "tb6612"}, {"motor": "stepper"}, {"chime": "solenoid"}]))
def test_any_seed_any_hardware(vboard_process, seed, config):
    overrides = {"clock": dict(config, seed=seed)}
    check_round(vboard_process.call(ROUND, overrides, {}))


def test_rounds_across_the_ticks_wraparound(vboard_process):
    # The board's ms counter wraps 15 s into the round: timing must not notice.
    for seed, motor in ((11, "dc"), (12, "stepper")):
        trace = vboard_process.call(ROUND, {"clock": {"seed": seed, "motor": motor}}, {"wrap_in_ms": 15000})
        assert trace["origin"] > 0
        t0, t_stop = check_round(trace)
        assert t0 < 15000 < t_stop


def test_same_seed_same_round_different_seeds_differ(vboard_process):
    a = vboard_process.call(ROUND, {"clock": {"seed": 42}}, {})
    b = vboard_process.call(ROUND, {"clock": {"seed": 42}}, {})
    c = vboard_process.call(ROUND, {"clock": {"seed": 43}}, {})
    assert a["plan"] == b["plan"] and a["hand"]["angle_mdeg"] == b["hand"]["angle_mdeg"]
    assert a["plan"] != c["plan"]


def test_without_a_seed_every_round_draws_fresh_entropy(vboard_process):
    seeds = {event(vboard_process.call(ROUND, {}, {}), "start")["seed"] for _ in range(3)}
    assert len(seeds) == 3


def test_hard_run_time_cap_beats_plan_and_settings(vboard_process):
    # A plan of 200 s and a setting asking for 1000 s: the firmware's cap wins.
    trace = vboard_process.call(ROUND, {"clock": {"seed": 1, "max_run_ms": 1000000}}, {"planner": "long"})
    assert trace["max_run_ms"] <= HARD_MAX_RUN_MS
    check_round(trace)
    stop = event(trace, "stop")
    assert stop["capped"] is True and stop["planned_ms"] == 200000
    assert stop["at_ms"] <= HARD_MAX_RUN_MS + trace["tick_ms"]


def test_setting_can_lower_the_cap(vboard_process):
    trace = vboard_process.call(ROUND, {"clock": {"seed": 1, "max_run_ms": 5000}}, {"planner": "long"})
    check_round(trace)
    assert 5000 <= event(trace, "stop")["at_ms"] <= 5000 + trace["tick_ms"]


def test_direct_reversals_in_a_plan_still_brake_and_dwell(vboard_process):
    # A plan that flips direction with no standing segment at all (one of
    # them only 20 ms long): the motor driver inserts brake + dwell itself.
    for motor in ("dc", "stepper"):
        trace = vboard_process.call(ROUND, {"clock": {"seed": 1, "motor": motor}}, {"planner": "direct"})
        assert trace["hand"]["reversals"] >= 3
        assert trace["hand"]["quick_reversals"] == 0
        assert trace["hand"]["min_reverse_gap"] >= trace["dwell_ms"]
        assert trace["hand"]["forbidden"] == 0


def test_injected_exception_releases_the_motor(vboard_process):
    for motor in ("dc", "stepper"):
        trace = vboard_process.call(ROUND, {"clock": {"seed": 4, "motor": motor}}, {"trip_at_ms": 5000})
        assert "injected fault" in trace["error"]
        assert trace["events"][-1]["event"] == "fault"
        assert trace["events"][-1]["state"] == "running"
        fault = trace["fault"]
        assert fault["energised"] is False
        # Nothing moves or switches any more once the firmware has stopped.
        assert fault["angle_after_mdeg"] == fault["angle_mdeg"]
        assert fault["writes_after"] == fault["writes"]
        assert "stop" not in [e["event"] for e in trace["events"]]


def test_watchdog_resets_a_hung_board_and_the_motor_stops(vboard_process):
    # Hang the pumped app 5 s into a round for 3 s; the watchdog is set to 500 ms.
    seen = vboard_process.call("scenario_clock_vboard:watchdog_hang", {"clock": {"seed": 5}},
                               5000, 3000, 500)
    assert seen["resets_before_hang"] == 0  # every runtime pass feeds the watchdog
    assert seen["energised_before"] is True
    assert seen["resets"] == 1 and seen["reason"] == "watchdog"
    assert seen["energised_after"] is False
    assert seen["angle_later"] == seen["angle_at_reset"]


def test_presses_while_running_are_ignored(vboard_process):
    presses = [[50, 100], [3000, 100], [6000, 300], [9000, 50]]
    trace = vboard_process.call(ROUND, {"clock": {"seed": 8}}, {"presses": presses})
    check_round(trace)
    assert [e["kind"] for e in trace["events"] if e["event"] == "button"] == ["pressed", "released"] * 4
    assert trace["round"] == 1


def test_holding_the_start_press_is_not_an_emergency_stop(vboard_process):
    trace = vboard_process.call(ROUND, {"clock": {"seed": 8}}, {"presses": [[50, 3000]]})
    check_round(trace)
    assert "estop" not in [e["event"] for e in trace["events"]]


def test_long_press_while_running_is_an_emergency_stop(vboard_process):
    presses = [[50, 100], [5000, 2000], [9000, 100]]
    trace = vboard_process.call(ROUND, {"clock": {"seed": 9, "long_press_ms": 1500}},
                                {"presses": presses, "run_ms": 12000})
    names = [e["event"] for e in trace["events"] if e["event"] != "button"]
    first_round = names[:names.index("idle") + 1]
    assert [n for n in first_round if n != "reverse"] == ["start", "estop", "idle"], names
    estop = event(trace, "estop")
    assert 5000 + 1500 <= estop["t"] <= 5000 + 1500 + 50
    # The hand stands from the emergency stop on (braked at once, no ramp).
    moving_after = [s for s in trace["samples"]
                    if estop["t"] + trace["tick_ms"] <= s[0] < 9000 and s[2] != 0]
    assert moving_after == []
    # The next press starts round 2.
    assert [e["round"] for e in trace["events"] if e["event"] == "start"] == [1, 2]


def test_low_battery_refuses_to_start_and_says_why(vboard_process):
    config = {"clock": {"seed": 2, "battery_min_mv": 3600}}
    trace = vboard_process.call(ROUND, config, {"battery_mv": 3300, "run_ms": 5000})
    names = [e["event"] for e in trace["events"] if e["event"] != "button"]
    assert names == ["battery_low"]
    low = event(trace, "battery_low")
    assert low["min_mv"] == 3600 and 3250 <= low["mv"] <= 3350
    assert trace["round"] == 0 and trace["hand"]["angle_mdeg"] == 0
    # Three long blinks on the LED, and low beeps on the piezo.
    blinks = [t for t, name, value in trace["led_log"] if value == 1]
    assert len(blinks) == 3
    alarm = firmware_sounds.tuples("drivers/chime.py")["ALARM"]
    assert {v for _, name, v in trace["chime_log"] if name.endswith(".freq")} >= {alarm[0]}
    fresh = vboard_process.call(ROUND, config, {"battery_mv": 4500})
    check_round(fresh)


@pytest.mark.parametrize("chip_full_mv", [2950, 3300])
def test_esp32_battery_check_uses_the_calibrated_reading(vboard_process, chip_full_mv):
    # 3.65 V on the pack, cutoff 3.6 V, on an ESP32 whose ADC reference is not the profile's
    # 3100 mV: the uncalibrated read_u16 would say ~3.43 V (refuse) or ~3.84 V (pass a flat pack).
    config = {"board": "esp32", "clock": {"seed": 2, "battery_min_mv": 3600}}
    trace = vboard_process.call(ROUND, config, {"battery_mv": 3650, "chip_full_mv": chip_full_mv})
    check_round(trace)
    low = vboard_process.call(ROUND, config, {"battery_mv": 3550, "chip_full_mv": chip_full_mv,
                                              "run_ms": 3000})
    assert 3540 <= event(low, "battery_low")["mv"] <= 3560 and low["round"] == 0


def test_bad_limits_in_the_config_fall_back_to_the_defaults(vboard_process):
    trace = vboard_process.call(ROUND, {"clock": {"seed": 3, "limits": {"speed_min": 5000}}}, {})
    assert any("clock.limits" in message for message in trace["errors"])
    check_round(trace)


@pytest.mark.parametrize("config", [{}, {"clock": {"motor": "stepper"}},
                                    {"clock": {"bridge": "tb6612", "chime": "solenoid"}},
                                    {"clock": {"battery_min_mv": 3000}},
                                    {"board": "esp32", "clock": {"battery_min_mv": 3000}}],
                         ids=["drv8833", "stepper", "tb6612-solenoid", "pack-read", "pack-read-uv"])
def test_a_whole_round_allocates_nothing_after_the_start(each_vboard_process, config):
    assert each_vboard_process.call("scenario_heap_lock:heap_lock_is_armed") is True
    result = each_vboard_process.call("scenario_clock_vboard:heap_locked_round", config, 77)
    assert result["started"]
    assert result["ok"], "allocation in the control tick: " + result["where"]
    assert result["state"] == "idle" and result["completed"] == 1
    assert result["events_in_lock"] >= 3  # stop, chime, idle were emitted under the lock too
    assert result["resets"] == 0  # the runtime's passes fed the watchdog throughout


@pytest.mark.parametrize("kind", ["switches", "drv8833", "tb6612", "stepper"])
def test_switch_scan_and_motor_update_allocate_nothing(each_vboard_process, kind):
    result = each_vboard_process.call("scenario_clock_vboard:heap_locked_drivers", kind)
    assert result["ok"], result


def test_link_commands_start_refuse_snapshot_and_emergency_stop(vboard_process):
    out = vboard_process.call("scenario_clock_vboard:link_commands", {})
    assert out["idle"]["state"] == "idle" and out["idle"]["round"] == 0
    assert "estop" not in out["idle_stop_events"], out["idle_stop_events"]  # no stop happened
    running = out["running"]
    assert running["state"] == "running" and running["round"] == 1 and running["seed"] == 123
    assert running["direction"] in (1, -1) and running["elapsed_ms"] >= 2900
    assert running["time_left_ms"] > 0
    assert running["elapsed_ms"] + running["time_left_ms"] <= running["max_run_ms"]
    assert "already turning" in out["refused"]
    assert out["stopped"]["state"] == "idle" and out["stopped"]["completed"] == 0
    assert [e for e in out["events"] if e != "reverse"] == ["start", "estop", "idle"]
    assert out["energised"] is False


def test_start_before_the_first_tick_is_refused(vboard_process):
    out = vboard_process.call("scenario_clock_vboard:start_before_first_tick", {})
    assert "starting up" in out["refused"]
    assert out["events"][0] == "start" and out["events"][-3:] == ["stop", "chime", "idle"]
    stop = out["stop"][0]
    assert 0 <= stop["at_ms"] - min(stop["planned_ms"], 60000) <= 10


@pytest.mark.parametrize("clock,rate", [({}, 300), ({"stepper_steps_per_s": 200}, 200)],
                         ids=["default-300", "set-200"])
def test_stepper_step_rate_is_a_setting(vboard_process, clock, rate):
    # 80 % speed for 5 s: 0.8 x rate half-steps a second once the ramp is done.
    config = {"clock": dict(clock, motor="stepper")}
    trace = vboard_process.call(ROUND, config, {"planner": "long", "run_ms": 5000})
    assert trace["errors"] == [] and trace["error"] is None
    assert trace["tick_ms"] == 1000 // rate
    start = event(trace, "start")["t"]
    expected = (5000 - start) * 8 * rate // 10000
    assert expected - rate // 5 <= trace["hand"]["position"] <= expected, trace["hand"]
    assert trace["hand"]["skipped"] == 0


def test_a_step_rate_the_driver_cannot_take_is_reported_and_replaced(vboard_process):
    trace = vboard_process.call(ROUND, {"clock": {"motor": "stepper", "stepper_steps_per_s": 5000}},
                                {"planner": "long", "run_ms": 1000})
    assert trace["error"] is None and trace["tick_ms"] == 1000 // 300
    # the clock's spec (settings) refuses it by key before the driver sees it
    assert trace["errors"] == ["clock.stepper_steps_per_s: 5000 is not a whole number 1..1000; "
                               "using the default 300"]


@pytest.mark.parametrize("bridge", ["drv8833", "tb6612"])
def test_the_bridge_sleeps_when_released_and_wakes_for_each_round(vboard_process, bridge):
    # Two rounds; nSLEEP / STBY must be low whenever the motor is released (the bridge draws
    # ~2 mA awake), high at least 1 ms before the first drive of a round.
    trace = vboard_process.call(ROUND, {"clock": {"bridge": bridge}},
                                {"planner": "direct", "presses": [[50, 100], [12000, 100]],
                                 "run_ms": 24000})
    assert trace["error"] is None and trace["completed"] == 2
    pins = trace["pins"]
    stby = str(pins["motor_stby"])
    drives = {str(pins["motor_pwm"]) + ".duty"} if bridge == "tb6612" else \
        {str(pins["motor_in1"]) + ".duty", str(pins["motor_in2"]) + ".duty"}
    level = None
    woke_at = None
    first_drive_after_wake = []
    changes = []
    for t, name, value in trace["motor_log"]:
        if name == stby:
            if value != level:
                changes.append((t, value))
                if value == 1:
                    woke_at = t
            level = value
        elif name in drives and value > 0:
            if bridge == "drv8833" and value == 65535:
                continue  # (full, full) is the brake, which is fine at any time once awake
            assert level == 1, "driven at %d ms while the bridge sleeps" % t
            if woke_at is not None:
                first_drive_after_wake.append(t - woke_at)
                woke_at = None
    assert [v for _, v in changes] == [0, 1, 0, 1, 0], changes
    assert len(first_drive_after_wake) == 2 and min(first_drive_after_wake) >= 1
    starts = [e["t"] for e in trace["events"] if e["event"] == "start"]
    stops = [e["t"] for e in trace["events"] if e["event"] == "stop"]
    assert [t for t, v in changes if v == 1] == starts  # woken as the round starts
    for (t_sleep, _), t_stop in zip([c for c in changes if c[1] == 0][1:], stops):
        # asleep once the braked hand has stood for the dwell (counted from the motor's last
        # update, up to one tick before the stop event), not before
        due = t_stop + trace["dwell_ms"]
        assert due - trace["tick_ms"] <= t_sleep <= due + 2 * trace["tick_ms"]


@pytest.mark.parametrize("board", ["pico_w", "pico2_w"])
def test_pico_w_lights_the_led_on_its_wireless_chip(vboard_process, board):
    # Pin("LED") on a Pico W and a Pico 2 W; GP25 selects the wireless chip there and must stay untouched.
    trace = vboard_process.call(ROUND, {"board": board, "clock": {"seed": 3}}, {})
    check_round(trace)
    assert trace["pins"]["led"] == "LED"
    assert {name for _, name, _ in trace["led_log"]} == {"LED"}
    assert [v for _, _, v in trace["led_log"]][:2] == [0, 1]  # off at build, on for the round


def test_a_divider_below_one_is_reported_and_replaced(vboard_process):
    config = {"clock": {"seed": 2, "battery_min_mv": 3600, "battery_divider_permille": 500}}
    trace = vboard_process.call(ROUND, config, {"battery_mv": 4500})
    assert trace["errors"] == ["clock.battery_divider_permille: 500 is not a whole number 1000..20000 or "
                               "0 (the board's divider); using the default 0"]
    check_round(trace)  # read through the default 100k/100k divider: 4.5 V, the round runs
