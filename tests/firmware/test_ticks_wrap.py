"""Every timer in the firmware with the board's 2^30 ms counter wrapping inside it.

A Pico's ticks_ms() wraps every 2^30 ms (12.4 days: a prop left on in a
venue). The virtual board's `time` wraps there too (vboard/time.py); each
scenario in tests/firmware/scenario_ticks_wrap.py runs once far from the wrap and
again with the wrap placed inside the timer under test, and must do exactly
the same thing, to the millisecond.
"""
import pytest

W = "scenario_ticks_wrap:"


def test_the_virtual_board_wraps_at_2_to_the_30(vboard_process):
    r = vboard_process.call(W + "tick_arithmetic")
    assert r == {"period": 2**30, "add": 0, "back": 2**30 - 1, "diff": 6, "diff_back": -6}


def _same_wherever_the_wrap_falls(vboard_process, name, wraps, *args):
    baseline = vboard_process.call(W + name, 0, *args)
    for wrap in wraps:
        wrapped = vboard_process.call(W + name, wrap, *args)
        wrapped.pop("origin", None)
        base = dict(baseline)
        base.pop("origin", None)
        assert wrapped == base, "%s differs with the wrap %d ms after power-up" % (name, wrap)
    return baseline


def _times(result, name):
    return [e[1] for e in result["events"] if e[0] == name]


# The round (seed 5): press at 50 ms, debounced at 70, reverse at 13,418, stop at
# 22,912 (each on its planned millisecond: the runtime wakes for them), bell from
# 23,012 to 25,602. Wraps fall in the debounce, the run, the dwell around the
# reversal, the 100 ms before the bell and in the bell itself.
ROUND_WRAPS = (60, 5000, 13425, 22950, 23021, 23500, 25000, 25600)


def test_bell_and_round_timers_across_the_wrap(vboard_process):
    base = _same_wherever_the_wrap_falls(vboard_process, "clock_round", ROUND_WRAPS,
                                         {"clock": {"seed": 5}}, [[50, 100]], 30000)
    assert base["state"] == "idle" and _times(base, "chime") == [23012] and _times(base, "idle") == [25602]


def test_solenoid_strikes_across_the_wrap(vboard_process):
    base = vboard_process.call(W + "clock_round", 0, {"clock": {"seed": 5, "chime": "solenoid"}},
                               [[50, 100]], 30000)
    chime = _times(base, "chime")[0]
    # inside the first pulse, in a gap, inside the last pulse
    wraps = (chime + 10, chime + 300, chime + 1260, chime + 1275)
    _same_wherever_the_wrap_falls(vboard_process, "clock_round", wraps,
                                  {"clock": {"seed": 5, "chime": "solenoid"}}, [[50, 100]], 30000)
    pulses = [e for e in base["log"] if e[1] == "20"]
    assert [v for _, _, v in pulses].count(1) == 3 and base["state"] == "idle"


def test_debounce_and_long_press_across_the_wrap(vboard_process):
    # A second press at 2 s held 2 s: debounced at 2,020, long press (emergency stop) due at
    # 3,520 and seen by the scan at 3,523 (the ticks' phase follows the round's deadlines).
    presses = [[50, 100], [2000, 2000]]
    base = _same_wherever_the_wrap_falls(vboard_process, "clock_round", (2005, 2500, 3510, 3524),
                                         {"clock": {"seed": 5}}, presses, 6000)
    assert _times(base, "estop") == [3523]


def test_stepper_dwell_across_the_wrap(vboard_process):
    _same_wherever_the_wrap_falls(vboard_process, "clock_round", (13425, 22925, 23000),
                                  {"clock": {"seed": 5, "motor": "stepper"}}, [[50, 100]], 26000)


def test_battery_low_blink_across_the_wrap(vboard_process):
    wraps = (60, 300, 700, 1000, 1500, 2200)
    base = _same_wherever_the_wrap_falls(vboard_process, "clock_battery_low", wraps, 3000)
    led = [[t, v] for t, name, v in base["log"] if name == "25"]
    # three long blinks, then off for good
    assert led == [[0, 0], [70, 1], [670, 0], [870, 1], [1470, 0], [1670, 1], [2270, 0]]


def test_relay_pulse_across_the_wrap(vboard_process):
    base = _same_wherever_the_wrap_falls(vboard_process, "fusebox_relay", (310, 1000, 2319, 2321, 5010))
    assert base["relay"] == [[0, "22", 0], [320, "22", 1], [2320, "22", 0]]


def test_fusebox_sensor_fault_timers_across_the_wrap(vboard_process):
    wraps = (150, 1000, 1150, 2000, 2150)
    base = _same_wherever_the_wrap_falls(vboard_process, "fusebox_sensor_faults", wraps)
    faults = [e[2:] for e in base["events"] if e[0] == "sensor_fault"]
    assert faults == [[3, "flicker"], [7, "stuck_open"]]


def test_football_kick_count_across_the_wrap(vboard_process):
    wraps = (300, 1269, 1500, 2500, 3269, 3275)
    base = _same_wherever_the_wrap_falls(vboard_process, "football_kick", wraps, 3)
    counts = [e for e in base["events"] if e[0] == "kick_count"]
    assert [[e[2], e[3]] for e in counts] == [["go", 0], ["beep", 1000], ["beep", 2000], ["end", 3000]]


@pytest.mark.parametrize("wrap_at_ms", [0, 50, 500, 999])
def test_watchdog_fed_across_the_wrap_never_fires(vboard_process, wrap_at_ms):
    assert vboard_process.call(W + "watchdog", wrap_at_ms, 10, 100, 1000) == {"fired_at": -1, "resets": 0}


@pytest.mark.parametrize("wrap_at_ms", [0, 50, 100, 101])
def test_watchdog_not_fed_fires_on_time_across_the_wrap(vboard_process, wrap_at_ms):
    assert vboard_process.call(W + "watchdog", wrap_at_ms, 0, 100, 1000) == {"fired_at": 101, "resets": 1}


def test_a_whole_process_can_start_its_counter_just_before_the_wrap():
    # e.g. VBOARD_TICKS_START=-2000 propctl sim --serve: the served board wraps 2 s after boot
    import subprocess

    from micropython_harness import find_micropython, micropython_env

    from propctl.sim.runner import VBOARD_DIR
    env = micropython_env(VBOARD_DIR)
    env["VBOARD_TICKS_START"] = "-50"
    code = ("import time\nt0 = time.ticks_ms()\ntime.sleep_ms(120)\nt1 = time.ticks_ms()\n"
            "print(t0, t1, time.ticks_diff(t1, t0))\n")
    out = subprocess.run([find_micropython(), "-c", code], env=env, capture_output=True, text=True,
                         timeout=30).stdout.split()
    t0, t1, diff = (int(x) for x in out)
    assert 2**30 - 50 <= t0 < 2**30 and t1 < 1000 and 110 <= diff < 1000


def test_the_real_time_clock_runs_on_past_the_hosts_microsecond_wrap(vboard_process):
    # a sim left running at a terminal: 2^30 us is 18 minutes, ticks_diff goes negative after 9
    seen = vboard_process.call(W + "real_time_clock", 40, 100_000_000, 2)
    assert seen == [200_000 * (i + 1) for i in range(40)]  # 100 s of host time each, at speed 2
