"""The wasm32 leg: bench/mp_hotpaths.py as a check on both ports, and the clock sim on wasm32.

The WebAssembly MicroPython's small ints are 31 bits, as on a board: a hot path
whose arithmetic reaches 2**30 allocates a big int there (and fails these
checks) even when the 64-bit unix port sees nothing.
"""
import json
import os
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
    # Real time goes through firmware/lib/runtime.py sleeping on the port's clock. The hand's end
    # angle is not compared: at 40 times real time a late pass on a busy host moves board time by
    # tens of ms, so two real-time runs never end at the same angle (virtual-time runs do, and are
    # compared three-way elsewhere).
    command = [sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "5", "--speed", "40",
               "--non-interactive"]
    for interpreter in (find_micropython(), wasm_runner()):
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, MICROPYTHON=interpreter))
        assert done.returncode == 0 and "failed" not in done.stderr, done.stdout + done.stderr
        summary = " ".join(done.stdout[done.stdout.index("done:"):].split())  # wrapped at 80 columns
        assert summary.startswith("done: 1 round(s)"), done.stdout
        assert "motor released; 0 forbidden bridge states" in summary, summary
