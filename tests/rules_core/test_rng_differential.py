"""The PRNG gives identical sequences on CPython and MicroPython."""
import pytest
from hypothesis import given
from hypothesis import strategies as st
from micropython_harness import Differential, MicroPythonError


@pytest.mark.slow
def test_hundred_seeds_ten_thousand_draws_identical(differential, micropython_process):
    # 100 seeds x 10,000 draws, one seed per call: a reply of 10 seeds held 20,000
    # big ints (next32 and the moduli past 2**29) at once, too much for an 8 MB heap
    # on a 32-bit board. Every seed on the unix port; every 10th on wasm32 as well,
    # where big-int draws are slow.
    unix_only = Differential(micropython_process)
    for seed in range(100):
        runner = differential if seed % 10 == 0 else unix_only
        result = runner.both("scenario_rng:many_seeds", seed, 1, 10_000)
        assert len(result) == 1 and len(result[0]) == 10_000


@given(seed=st.integers(min_value=-(2**40), max_value=2**40),
       low=st.integers(min_value=-(2**31), max_value=2**31),
       span=st.integers(min_value=0, max_value=2**32 - 1))
def test_ranges_identical_for_random_seeds(differential, seed, low, span):
    values = differential.both("scenario_rng:ranged", seed, low, low + span, 50)
    assert all(low <= v <= low + span for v in values)


def test_harness_notices_a_difference(differential):
    # The one scenario that is meant to differ must make `both` fail.
    with pytest.raises(AssertionError, match="differs between interpreters"):
        differential.both("scenario_rng:interpreter_name")


def test_micropython_exception_is_a_readable_failure(micropython_process):
    with pytest.raises(MicroPythonError) as failure:
        micropython_process.call("scenario_rng:fail_with", "the bell is cracked")
    message = str(failure.value)
    assert "ValueError: the bell is cracked" in message
    assert "scenario_rng.py" in message
    # The process survives an exception and keeps answering.
    assert micropython_process.call("scenario_rng:ranged", 1, 0, 0, 3) == [0, 0, 0]


def test_draws_allocate_nothing_on_either_port(each_micropython_process):
    # On wasm32 (31-bit small ints, as on a board) this failed while the state
    # was one 32-bit int: every draw made big ints.
    allocated, done = each_micropython_process.call("scenario_rng:locked_draws", 5, 2000)
    assert not allocated, "a draw allocated after %d rounds" % done
    assert done == 2000


def test_a_raw_32_bit_value_is_a_big_int_exactly_where_words_are_32_bits(micropython_process,
                                                                        wasm_process):
    # The reason for the wasm32 leg: a raw 32-bit value is a big int there, as on a board. The
    # unix leg makes one only when it was built for 32 bits (its word size is asked, not assumed).
    unix_32 = micropython_process.call("scenario_rng:small_int_bits") == 30
    assert micropython_process.call("scenario_rng:locked_next32", 5) == [unix_32]
    assert wasm_process.call("scenario_rng:small_int_bits") == 30
    assert wasm_process.call("scenario_rng:locked_next32", 5) == [True]
