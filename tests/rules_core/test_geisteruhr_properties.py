"""Motion-planner and game properties, checked on CPython and MicroPython alike."""
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from propctl.shared.rules.geisteruhr import DEFAULT_LIMITS, MAX_ROUND_MS, plan_motion, validate_limits

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def valid_limits(draw):
    speed_min = draw(st.integers(1, 1000))
    seg_min = draw(st.integers(50, 5000))
    round_min = draw(st.integers(seg_min, 60000))
    limits = {
        "speed_min": speed_min,
        "speed_max": draw(st.integers(speed_min, 1000)),
        "segment_min_ms": seg_min,
        "segment_max_ms": draw(st.integers(seg_min, 10000)),
        "round_min_ms": round_min,
        "round_max_ms": draw(st.integers(round_min + seg_min, MAX_ROUND_MS)),
        "reverse_pause_ms": draw(st.integers(1, 3000)),
        "pause_permille": draw(st.integers(0, 1000)),
        "reverse_permille": draw(st.integers(0, 1000)),
    }
    pause_min = draw(st.integers(1, 3000))
    limits["pause_min_ms"] = pause_min
    limits["pause_max_ms"] = draw(st.integers(pause_min, 5000))
    assume(limits["round_max_ms"] <= MAX_ROUND_MS)
    return limits


def check_plan(plan, lim):
    total = sum(duration for duration, _ in plan)
    assert lim["round_min_ms"] <= total <= lim["round_max_ms"]
    assert plan[0][1] != 0 and plan[-1][1] != 0
    direction = 0
    standing_before = 0
    for duration, speed in plan:
        assert duration > 0
        if speed == 0:
            standing_before += duration
            continue
        assert lim["speed_min"] <= abs(speed) <= lim["speed_max"]
        assert lim["segment_min_ms"] <= duration <= lim["segment_max_ms"]
        new_direction = 1 if speed > 0 else -1
        if direction and new_direction != direction:
            assert standing_before >= lim["reverse_pause_ms"], "reversal without the dwell"
        direction = new_direction
        standing_before = 0


@given(seed=seeds, limits=valid_limits())
def test_plans_keep_every_bound_on_both_interpreters(differential, seed, limits):
    plan = differential.both("scenario_geisteruhr:plan", seed, limits)
    check_plan(plan, validate_limits(limits))
    assert plan == [list(segment) for segment in plan_motion(seed, limits)]  # deterministic


@given(seed=seeds)
def test_default_plans_keep_every_bound(seed):
    check_plan(plan_motion(seed), DEFAULT_LIMITS)


def test_defaults_reverse_and_pause_often_enough_to_be_fun():
    plans = [plan_motion(seed) for seed in range(200)]
    reversing = sum(1 for p in plans if len({s > 0 for _, s in p if s}) == 2)
    pausing = sum(1 for p in plans if any(s == 0 for _, s in p))
    assert reversing >= 150 and pausing >= 150, (reversing, pausing)


@pytest.mark.parametrize("bad", [
    {"speed_min": 0}, {"speed_max": 2000}, {"segment_min_ms": 0},
    {"round_min_ms": 500, "segment_min_ms": 1000},
    {"round_max_ms": MAX_ROUND_MS + 1}, {"pause_permille": -1}, {"reverse_permille": 1001},
    {"pause_min_ms": 3000, "pause_max_ms": 2000}, {"speed_min": True},
])
def test_invalid_limits_rejected_on_both_interpreters(micropython_process, bad):
    with pytest.raises(ValueError):
        plan_motion(1, bad)
    with pytest.raises(AssertionError, match="ValueError"):
        micropython_process.call("scenario_geisteruhr:plan", 1, bad)


@given(seed=seeds, players=st.integers(2, 4))
def test_random_games_agree_and_end_with_a_third_ghost(differential, seed, players):
    result = differential.both("scenario_geisteruhr:random_game", seed, players)
    assert result["over"]
    final_banked = result["log"][-1][3]
    assert result["winners"] == [s for s in range(players) if final_banked[s] == 3]
    for on_clock, _unused, winners, _banked, _starter in result["log"]:
        if max(on_clock) == 0:
            assert winners == []
        else:
            assert all(on_clock[w] == max(on_clock) for w in winners)
