"""runtime.Runtime: the one loop for board, virtual board and bench."""
import json
import subprocess
from pathlib import Path

import pytest
from micropython_harness import find_micropython, micropython_env, wasm_runner

ROOT = Path(__file__).resolve().parents[2]
FAKE = "scenario_runtime_loop:fake_run"


def test_the_runtime_wakes_at_the_apps_deadline_and_never_later_than_its_tick(vboard_process):
    seen = vboard_process.call(FAKE, 10, 23, 6)
    assert seen["ticks"][:4] == [0, 10, 20, 23]  # 10, 10, then only the 3 ms left to the deadline
    assert max(seen["waits"]) == 10 and seen["shut"]


def test_an_app_without_a_deadline_is_ticked_every_tick_ms(vboard_process):
    assert vboard_process.call(FAKE, 7, None, 4)["ticks"] == [0, 7, 14, 21]


def test_the_boot_guard_hears_once_that_the_prop_runs_stably(vboard_process):
    seen = vboard_process.call(FAKE, 100, None, 30, None, 1000)
    assert seen["guard"] == 1 and seen["stable"]
    seen = vboard_process.call(FAKE, 100, None, 10, None, 1000)
    assert seen["guard"] == 0 and not seen["stable"]  # 900 ms: not yet


def test_the_watchdog_is_fed_every_pass_and_the_app_shut_down_on_an_exception(vboard_process):
    seen = vboard_process.call(FAKE, 10, None, 100, 50)
    assert seen["error"] == "broken" and seen["shut"]
    assert seen["fed"] == 5  # ticks 0-40 fed it; the failing tick did not


def test_the_watchdog_timeout_is_clamped_to_the_boards_longest_in_one_place(vboard_process):
    def timeout(ms):
        return vboard_process.call("scenario_runtime_loop:watchdog_timeout",
                                   {"board": "pico", "clock": {"watchdog_ms": ms}}, "clock")
    assert timeout(60000) == 8000 and timeout(1500) == 1500 and timeout(0) is None
    # never below one worst flash stall (400 ms) and the pass around it, whatever is asked
    assert timeout(100) == 500


def test_the_clocks_stop_lands_on_its_planned_millisecond_through_the_runtime(vboard_process):
    seen = vboard_process.call("scenario_runtime_loop:deadline_rounds", 7, 3)
    assert seen["late"] == [0, 0, 0]
    assert 0 < seen["max_wait"] <= 10


# The bench records every output change in preallocated arrays (about 1 MB): more than a 32-bit
# unix port's default heap (1 MB; 2 MB on 64-bit), so the heap is given, the same on every port.
HEAP = "heapsize=4M"


def runtime_passes(micropython: str, stdin) -> tuple:
    from propctl.sim.runner import VBOARD_DIR
    script = Path(__file__).resolve().parent / "mp_runtime_passes.py"
    return subprocess.Popen([micropython, "-X", HEAP, str(script), "40"],
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=micropython_env(VBOARD_DIR))


def check_passes(out: bytes, err: bytes) -> dict:
    result = json.loads(out.decode().strip().splitlines()[-1])
    assert result["idle"] == {"passes": 40, "bytes": 0, "error": None, "state": "idle"}, err
    busy = result["busy"]
    assert busy["error"] is None and busy["passes"] == 40 and busy["state"] == "running", result
    return busy


def test_whole_runtime_passes_allocate_nothing_with_the_link_idle_and_busy():
    """The board's forever loop under micropython.heap_lock: idle link, then bytes streaming in."""
    proc = runtime_passes(find_micropython(), subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"ready\n"
        # no newline: the line buffer fills, overflows and drops bytes; no reply is due
        noise = bytes((i * 37) % 256 for i in range(12000)).replace(b"\n", b"x").replace(b"\r", b"y")
        proc.stdin.write(noise)
        proc.stdin.flush()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert check_passes(out, err)["bytes"] > 1000  # the port really read while the heap was locked


def test_whole_runtime_passes_allocate_nothing_on_wasm32():
    """The same passes with 31-bit small ints, as on a board. The wasm port's stdin blocks like a
    pipe (run.mjs), so it gets no input here: this proves the loop's own arithmetic, not the
    byte path (the unix port's test above does that)."""
    proc = runtime_passes(wasm_runner(), subprocess.DEVNULL)
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert check_passes(out, err)["bytes"] == 0


def test_a_min_wait_keeps_a_clock_that_moves_only_while_waiting_going(vboard_process):
    # past its deadline the app says "wait 0": a board's clock moves on by itself, a virtual one not
    assert vboard_process.call(FAKE, 10, 23, 6)["ticks"] == [0, 10, 20, 23, 23, 23]
    assert vboard_process.call(FAKE, 10, 23, 6, None, 1000, 1)["ticks"] == [0, 10, 20, 23, 24, 25]


BOARD = "scenario_runtime_loop:on_the_board"


def test_virtual_time_on_the_board_goes_through_the_runtime_to_the_apps_deadline(vboard_process):
    seen = vboard_process.call(BOARD, 10, 23, [30])
    assert seen["ticks"] == [0, 10, 20, 23, 24, 25, 26, 27, 28, 29]
    assert seen["ends"] == [30] and not seen["shut"]  # a bench runs on: no shutdown


def test_an_app_that_keeps_saying_wait_0_still_moves_virtual_time(vboard_process):
    seen = vboard_process.call(BOARD, 10, 0, [50])
    assert seen["ticks"] == list(range(50)) and seen["ends"] == [50] and seen["passes"] == 50


def test_a_run_in_chunks_never_moves_a_tick(vboard_process):
    assert vboard_process.call(BOARD, 7, None, [100])["ends"] == [105]  # ends between two passes
    seen = vboard_process.call(BOARD, 7, None, [37, 30, 33])
    assert seen["ticks"] == list(range(0, 106, 7)) and seen["ends"] == [42, 77, 112]


def test_a_call_between_ticks_comes_at_its_own_millisecond(vboard_process):
    seen = vboard_process.call(BOARD, 10, None, [100], [15, 40, 99])
    # [board ms, board ms seen, ticks before]: at 40 before the tick at 40
    assert seen["calls"] == [[15, 15, 2], [40, 40, 4], [99, 99, 10]]
    assert seen["ticks"] == list(range(0, 100, 10))


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_a_props_outputs_are_made_safe_when_its_tick_raises(vboard_process, prop):
    """The one fault contract (runtime.Runtime): shutdown() at once, then the prop's fault report."""
    seen = vboard_process.call("scenario_fault_contract:tick_raises", prop)
    assert seen["before"], seen       # the outputs were working when the tick failed
    assert seen["error"] == "injected fault"
    assert seen["after"] == [], seen
    # and the prop says so in a "fault" event (the fuse box did not: props/contract.pyi found it)
    assert len(seen["faults"]) == 1 and "injected fault" in seen["faults"][0], seen
