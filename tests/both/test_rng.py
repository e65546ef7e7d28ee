"""PRNG behaviour, run under CPython (pytest) and MicroPython (tests/run_on_micropython.py)."""
from checks import raises

from rules.rng import Rng


def test_same_seed_same_sequence():
    a, b = Rng(42), Rng(42)
    assert [a.next32() for _ in range(50)] == [b.next32() for _ in range(50)]


def test_seed_zero_does_not_get_stuck():
    rng = Rng(0)
    values = [rng.next32() for _ in range(100)]
    assert 0 not in values
    assert len(set(values)) == 100


def test_every_seed_that_could_zero_the_state_still_moves():
    # The salt maps exactly one seed to state 0; it must be rescued too.
    rng = Rng(0x6D2B79F5)
    assert rng.next32() != rng.next32()


def test_nearby_seeds_diverge():
    assert Rng(1).next32() != Rng(2).next32()


def test_below_stays_in_range_and_covers_it():
    rng = Rng(7)
    seen = set()
    for _ in range(600):
        value = rng.below(6)
        assert 0 <= value < 6
        seen.add(value)
    assert seen == {0, 1, 2, 3, 4, 5}


def test_between_includes_both_ends():
    rng = Rng(3)
    values = set(rng.between(-2, 2) for _ in range(400))
    assert values == {-2, -1, 0, 1, 2}


def test_bad_ranges_are_refused():
    rng = Rng(1)
    raises(ValueError, rng.below, 0)
    raises(ValueError, rng.between, 5, 4)
    raises(ValueError, rng.choice, [])
    raises(ValueError, rng.chance, 1001)


def test_shuffle_is_a_permutation():
    rng = Rng(11)
    items = list(range(20))
    rng.shuffle(items)
    assert sorted(items) == list(range(20))
    assert items != list(range(20))


def test_state_resumes_the_sequence():
    rng = Rng(5)
    rng.next32()
    resumed = Rng.from_state(rng.state)
    assert [rng.next32() for _ in range(10)] == [resumed.next32() for _ in range(10)]
    raises(ValueError, Rng.from_state, 0)


def test_chance_extremes():
    rng = Rng(9)
    assert not any(rng.chance(0) for _ in range(100))
    assert all(rng.chance(1000) for _ in range(100))
