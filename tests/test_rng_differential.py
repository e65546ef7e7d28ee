"""The PRNG gives identical sequences on CPython and MicroPython."""
import pytest
from hypothesis import given
from hypothesis import strategies as st
from micropython_harness import MicroPythonError


def test_hundred_seeds_ten_thousand_draws_identical(differential):
    # 100 seeds x 10,000 draws, in batches of 10 seeds to keep each reply small.
    for first in range(0, 100, 10):
        result = differential.both("scenarios.rng:many_seeds", first, 10, 10_000)
        assert len(result) == 10 and all(len(draws) == 10_000 for draws in result)


@given(seed=st.integers(min_value=-(2**40), max_value=2**40),
       low=st.integers(min_value=-(2**31), max_value=2**31),
       span=st.integers(min_value=0, max_value=2**32 - 1))
def test_ranges_identical_for_random_seeds(differential, seed, low, span):
    values = differential.both("scenarios.rng:ranged", seed, low, low + span, 50)
    assert all(low <= v <= low + span for v in values)


def test_harness_notices_a_difference(differential):
    # The one scenario that is meant to differ must make `both` fail.
    with pytest.raises(AssertionError, match="differs between interpreters"):
        differential.both("scenarios.rng:interpreter_name")


def test_micropython_exception_is_a_readable_failure(micropython_process):
    with pytest.raises(MicroPythonError) as failure:
        micropython_process.call("scenarios.rng:fail_with", "the bell is cracked")
    message = str(failure.value)
    assert "ValueError: the bell is cracked" in message
    assert "scenarios/rng.py" in message
    # The process survives an exception and keeps answering.
    assert micropython_process.call("scenarios.rng:ranged", 1, 0, 0, 3) == [0, 0, 0]
