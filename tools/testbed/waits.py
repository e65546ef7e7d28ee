"""How long a test or the bench waits for a condition before it calls it missing.

A wait in a test is a failsafe, never the property under test: the test waits for a condition
(a line on the screen, a message on the broker, a board that answers) and this bound only ends
a run where the condition never comes. It is set for a loaded machine: `make test` must hold
with the two cores of a laptop or CI runner several times oversubscribed (stress-ng --cpu 6),
where a process can wait seconds for a core and a Python start takes several seconds. A bound
is about ten times what such a machine needs; a passing test never waits for it.

Timing a test does assert is on the virtual board's clock or on what the firmware measures
itself (see docs/development.md, "Benchmarks"), never on these.
"""
import time

# a condition a loaded machine meets within a few seconds (a reply, a message, a redraw)
WAIT_S = 60.0
# a process or a board to come up and say so (a Python start, a MicroPython boot, a browser)
START_S = 120.0
# a command that does much work (a deploy compiling and copying the firmware over a link):
# about 20 s on an idle machine, past 90 s at load 12
WORK_S = 600.0


def wait_until(condition, timeout: float = WAIT_S, poll: float = 0.05) -> bool:
    """Call `condition` until it is true (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(poll)
