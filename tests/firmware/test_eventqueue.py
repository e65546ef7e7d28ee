"""The drivers' event ring buffer: oldest first, oldest dropped when full, no allocation."""
import sys
from collections import deque

from hypothesis import given
from hypothesis import strategies as st
from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))  # drivers.eventqueue is plain Python


@given(size=st.integers(1, 40), script=st.lists(st.integers(-1, 255), max_size=200))
def test_queue_matches_a_bounded_deque_on_both_interpreters(differential, size, script):
    popped, length, peeked = differential.both("scenario_eventqueue:run", size, script)
    model = deque(maxlen=size)  # a full deque drops its oldest item, as the queue must
    expected = []
    for step in script:
        if step < 0:
            expected.append(model.popleft() if model else -1)
        else:
            model.append(step)
    assert popped == expected and length == len(model)
    assert peeked == [-1] + list(model) + [-1]  # oldest first, -1 outside the queue


def test_push_and_pop_allocate_nothing(each_micropython_process):
    allocated, length = each_micropython_process.call("scenario_eventqueue:locked_churn", 16, 5000)
    assert not allocated
    assert length == 15  # saturated: full after the two pushes, one fewer after the pop
