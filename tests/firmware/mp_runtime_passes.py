"""Whole passes of runtime.Runtime with the heap locked, link idle and link busy (MicroPython).

    MICROPYPATH=host_tools/propctl/vboard:firmware/lib micropython tests/firmware/mp_runtime_passes.py PASSES

The clock prop runs on the virtual board in real time, wired to the link on
this process's stdin as on a board (link.stdio.StdioPort with a prop running,
link.router.Link). After warm-up passes the heap is locked for PASSES passes
with the hand idle, then for PASSES passes with the hand turning; the test
(tests/firmware/test_runtime.py) decides when bytes arrive on stdin. The prop's events
go to a preallocated counter: an event or a finished request line allocates
its reply, a pass does not. Prints one JSON line: per phase the passes done,
the bytes the port read and the error (None when no pass allocated).
"""
import json
import sys

import micropython
from runtime import Runtime
from store import Store
from vprops.clock.bench import ClockBench

from link.router import Link
from link.stdio import StdioPort

_EVENTS = bytearray(1)


def count_event(name, fields):
    _EVENTS[0] = (_EVENTS[0] + 1) & 0xFF


class CountingPort:
    """The real port, counting the bytes it hands to the link (a small int: no allocation)."""

    def __init__(self, port):
        self.port = port
        self.read = 0

    def pump(self, timeout_ms):
        self.read += self.port.pump(timeout_ms)


def locked_passes(rt, passes):
    """(passes done, error or None) with the heap locked throughout."""
    done = 0
    micropython.heap_lock()
    try:
        while done < passes:
            rt.step()
            done += 1
    except MemoryError:
        micropython.heap_unlock()
        return done, "MemoryError: a pass allocated"
    micropython.heap_unlock()
    return done, None


def main():
    passes = int(sys.argv[1])
    bench = ClockBench({"clock": {"seed": 5}})
    app = bench.app
    app.on_event = count_event
    link = Link(lambda data: None, {"firmware": "test"})
    port = CountingPort(StdioPort(link))
    port.port.hold_repl()
    bench.board.clock.run_real(1)
    # as link.startup runs it: with the prop's store, whose (here empty) queue each pass checks
    store = Store("runtime_passes_state.json", later=True)
    rt = Runtime(app, clock=bench.board.clock.now, port=port, stable_ms=0, stores=(store,))
    for _ in range(5):
        rt.step()  # warm-up: first pass, boot guard
    out = {}
    before = port.read
    done, error = locked_passes(rt, passes)
    out["idle"] = {"passes": done, "bytes": port.read - before, "error": error, "state": app.state}
    sys.stdout.write("ready\n")  # the test now sends bytes while the hand turns
    app.start_round(5)
    rt.step()
    before = port.read
    done, error = locked_passes(rt, passes)
    out["busy"] = {"passes": done, "bytes": port.read - before, "error": error, "state": app.state}
    port.port.release_repl()
    app.shutdown()
    sys.stdout.write(json.dumps(out) + "\n")


main()
