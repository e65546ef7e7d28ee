"""The virtual N20 on a DRV8833 in both decay modes (vboard/dcmotor.py), and the clock's
slowest speed and self-test speed chosen from that model.

The model is the datasheets' (TI DRV8833 Table 3; a 3 V N20's stall and no-load
currents) with the two figures no sheet gives marked as assumptions: the winding
inductance (swept here) and the break-away current.
"""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools" / "propctl" / "vboard"))
sys.path.insert(0, str(ROOT / "firmware" / "lib"))

import dcmotor  # noqa: E402

from propctl.shared.rules.geisteruhr import DEFAULT_LIMITS  # noqa: E402

M = "scenario_motor_model:"
FULL = 65535
SPEED_MIN = DEFAULT_LIMITS["speed_min"]


def compensated_duty(speed, pack_mv, rated_mv=3000):
    """drivers.motor's duty for `speed` per mille: speed x rated / pack of full."""
    return speed * (FULL * rated_mv // pack_mv) // 1000


def start_permille(mode, pack_mv, motor=None, freq_hz=20000):
    """The lowest compensated speed (per mille) at which the model's motor breaks away."""
    motor = motor or dcmotor.N20()
    for speed in range(1, 1001):
        duty = min(FULL, compensated_duty(speed, pack_mv))
        if dcmotor.stall_current(motor, mode, pack_mv, duty, freq_hz) >= motor.start_ma10:
            return speed
    return None


# --- the model alone (CPython) -----------------------------------------------------

def test_slow_decay_gives_duty_times_supply_over_r_at_standstill():
    m = dcmotor.N20()
    # 1.05 V average on a 10 ohm winding: 105 mA, whatever the PWM frequency
    duty = compensated_duty(350, 4800)
    for hz in (1000, 20000, 100000):
        assert dcmotor.stall_current(m, dcmotor.SLOW, 4800, duty, hz) in range(1045, 1055)
    assert dcmotor.running_mv(m, dcmotor.SLOW, 4800, duty, 20000) == 4800 * duty // FULL


def test_fast_decay_at_low_duty_gives_a_small_fraction_of_that():
    # VM x D^2 x T / L = 4.8 V x 0.219^2 x 50 us / 1 mH = 11.5 mA, against 105 mA slow
    m = dcmotor.N20()
    duty = compensated_duty(350, 4800)
    fast = dcmotor.stall_current(m, dcmotor.FAST, 4800, duty, 20000)
    assert 100 <= fast <= 125
    # higher PWM frequency: shorter pulses, even less; lower: more
    assert dcmotor.stall_current(m, dcmotor.FAST, 4800, duty, 40000) < fast
    assert dcmotor.stall_current(m, dcmotor.FAST, 4800, duty, 5000) > fast
    # both modes agree at full duty
    assert dcmotor.stall_current(m, dcmotor.FAST, 4800, FULL, 20000) == \
        dcmotor.stall_current(m, dcmotor.SLOW, 4800, FULL, 20000)


@pytest.mark.parametrize("l_uh", [250, 500, 1000, 2000, 5000])
@pytest.mark.parametrize("pack_mv", [4800, 4500, 3300])
def test_speed_min_starts_the_motor_in_slow_decay_only(l_uh, pack_mv):
    """For any winding inductance above 0.25 mH (the figure assumed), on any pack from 4.8 to 3.3 V."""
    m = dcmotor.N20(l_uh=l_uh)
    duty = compensated_duty(SPEED_MIN, pack_mv)
    assert dcmotor.stall_current(m, dcmotor.SLOW, pack_mv, duty, 20000) >= m.start_ma10
    assert dcmotor.stall_current(m, dcmotor.FAST, pack_mv, duty, 20000) < m.start_ma10


def test_speed_min_has_a_margin_over_the_model_s_starting_speed():
    # slow decay: the compensated voltage is the same on every pack, so is the starting speed
    starts = {pack: start_permille(dcmotor.SLOW, pack) for pack in (4800, 4500, 4000, 3300)}
    assert len(set(starts.values())) == 1, starts
    start = starts[4800]
    assert 250 <= start <= 280  # 0.8 V of 3 V
    assert SPEED_MIN * 100 >= start * 125, "speed_min needs 25 % over the starting speed"
    # fast decay would need most of the range, if it starts at all
    assert start_permille(dcmotor.FAST, 4800) > 800


def test_the_self_test_runs_the_motor_where_the_model_starts_it_with_margin(vboard_process):
    r = vboard_process.call(M + "selftest_speeds", [{}, {"speed_min": 100}, {"speed_min": 700}])
    start = start_permille(dcmotor.SLOW, 4800)
    assert r["motor_permille"] * 100 >= start * 150
    # the round's slowest when that is faster; a round set slower still tests at a speed that
    # starts a motor
    assert r["speeds"] == [max(SPEED_MIN, r["motor_permille"]), r["motor_permille"], 700]


def test_model_parameters_are_checked():
    with pytest.raises(ValueError):
        dcmotor.N20(noload_ma10=900, start_ma10=800)
    with pytest.raises(ValueError):
        dcmotor.N20(l_uh=0)


# --- the model on the virtual board, under MicroPython ------------------------------

@pytest.mark.parametrize("pack_mv", [4800, 3300])
def test_the_firmware_turns_the_virtual_n20_at_speed_min(vboard_process, pack_mv):
    """Fails on a fast-decay driver (IN1 PWM, IN2 low): the N20 only hums there."""
    r = vboard_process.call(M + "firmware_drive", SPEED_MIN, pack_mv, 2000)
    assert r["forbidden"] == 0
    assert r["decay"] == dcmotor.SLOW, "the DRV8833 is driven in fast decay"
    assert r["turning"] and r["hum_ms"] < 100, r
    # 2 s at 0.35 x 120 deg/s, less the ramp and the break-away
    assert 75000 <= r["angle_mdeg"] <= 84000, r
    assert 1040 <= r["motor_mv"] <= 1060


def test_the_firmware_turns_it_backwards_too(vboard_process):
    r = vboard_process.call(M + "firmware_drive", -SPEED_MIN, 4800, 2000)
    assert r["turning"] and r["decay"] == dcmotor.SLOW and r["angle_mdeg"] <= -75000, r


@pytest.mark.parametrize("reverse", [False, True])
def test_the_same_duty_in_fast_decay_only_hums(vboard_process, reverse):
    duty = compensated_duty(SPEED_MIN, 4800)
    fast = vboard_process.call(M + "hand_drive", "fast", duty, 4800, 2000, 20000, reverse)
    assert fast["decay"] == dcmotor.FAST and fast["forbidden"] == 0
    assert fast["angle_mdeg"] == 0 and not fast["turning"] and fast["humming"]
    assert fast["hum_ms"] == 2000
    slow = vboard_process.call(M + "hand_drive", "slow", duty, 4800, 2000, 20000, reverse)
    assert slow["decay"] == dcmotor.SLOW and slow["turning"] and not slow["humming"]
    assert abs(slow["angle_mdeg"]) == 2000 * 120 * slow["motor_mv"] // 3000
    assert (slow["angle_mdeg"] < 0) == reverse


def test_fast_decay_at_a_slow_pwm_does_turn_it(vboard_process):
    # at 1 kHz each pulse lasts 0.22 ms, twice L/R: the current has time to build
    duty = compensated_duty(SPEED_MIN, 4800)
    r = vboard_process.call(M + "hand_drive", "fast", duty, 4800, 2000, 1000)
    assert r["turning"], r


# --- the sim says so ---------------------------------------------------------------------

def run_sim(*extra):
    import subprocess
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "42",
                           "--non-interactive"] + list(extra),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_sim_says_when_the_motor_hums_instead_of_turning():
    out = run_sim("--set", 'clock.limits={"speed_min": 5, "speed_max": 20}')
    assert "hand at 0.0 deg" in out
    assert "the motor hummed" in out and "speed_min" in out, out
    tail = out[out.index("the motor hummed") - 6:].splitlines()
    assert len(tail) == 2 and all(len(line) <= 80 for line in tail), tail
    assert "hummed" not in run_sim()  # the defaults start the motor at once
