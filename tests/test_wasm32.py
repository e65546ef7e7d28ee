"""The wasm32 leg: bench/mp_hotpaths.py as a check on both ports, and the clock sim on wasm32.

The WebAssembly MicroPython's small ints are 31 bits, as on a board: a hot path
whose arithmetic reaches 2**30 allocates a big int there (and fails these
checks) even when the 64-bit unix port sees nothing.
"""
import json
import os
import re
import subprocess
import sys

import pytest
from micropython_harness import ROOT, find_micropython, micropython_env, wasm_runner

VBOARD = ROOT / "host_tools" / "propctl" / "vboard"
ITERATIONS = 8000  # two clock rounds' worth of 10 ms ticks


@pytest.mark.parametrize("port", ["unix", "wasm32"])
def test_hot_paths_allocate_nothing(port):
    interpreter = find_micropython() if port == "unix" else wasm_runner()
    done = subprocess.run([interpreter, str(ROOT / "bench" / "mp_hotpaths.py"), str(ITERATIONS)],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env=micropython_env(VBOARD), timeout=300)
    assert done.returncode == 0, done.stderr
    paths = [json.loads(line) for line in done.stdout.splitlines()]
    control, rest = paths[0], paths[1:]
    assert control["allocations"] == 1, "the heap lock is not armed: %r" % control
    assert len(rest) == 5
    for path in rest:
        assert path["allocations"] == 0 and path["iterations"] == ITERATIONS, path
    clock = [p for p in rest if p["path"].startswith("clock")][0]
    assert clock["rounds"] >= 1, clock


def test_clock_sim_plays_a_round_on_wasm32():
    env = dict(os.environ, MICROPYTHON=wasm_runner())
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "3",
                           "--non-interactive", "--rounds", "1"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    log = done.stdout
    assert "ghost clock on a virtual" in log
    for event in ("start", "stop", "chime"):
        assert event in log, log


def test_real_time_sim_runs_on_wasm32_as_on_the_unix_port():
    # Real time goes through the firmware's asyncio pump; on wasm32 through
    # tools/wasm/lib/asyncio.py (the port's own asyncio has no run()).
    command = [sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "5", "--speed", "40",
               "--non-interactive"]
    ends = []
    for interpreter in (find_micropython(), wasm_runner()):
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, MICROPYTHON=interpreter))
        assert "failed" not in done.stderr, done.stderr
        # The board time at the end follows real time, so it is left out.
        ends.append([re.sub(r"board time [0-9.]+ s", "board time", line)
                     for line in done.stdout.splitlines() if line.startswith("done:")])
    assert ends[0] and ends[0] == ends[1]
