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
    # Real time goes through firmware/lib/runtime.py sleeping on the port's clock. The board's
    # clock follows the host's wall clock N times faster, so a host stall of s seconds moves board
    # time by N*s: at x40 a 2 s stall of a loaded host passed the run's limit (the round's longest
    # run + 20 s of board time) and the run ended with 0 rounds. At x4 the round (about 27 s of
    # board time) leaves 53 s of board time, a 13 s stall, before the limit. How late the hand
    # stops and where it ends depend on the host, so they are `make bench` figures
    # (bench/realtime_ports.py, x40 on both ports); virtual-time runs are compared three-way
    # elsewhere. The two ports run side by side: each mostly sleeps.
    command = [sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "5", "--speed", "4",
               "--non-interactive"]
    runs = {name: subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=dict(os.environ, MICROPYTHON=interpreter))
            for name, interpreter in (("unix", find_micropython()), ("wasm32", wasm_runner()))}
    ended = {name: proc.communicate(timeout=300) + (proc.returncode,) for name, proc in runs.items()}
    for name, (out, err, code) in ended.items():
        assert code == 0 and "failed" not in err, (name, out + err)
        assert "hand starts: round 1" in out and "CHIME: round 1 is over" in out, (name, out)
        summary = " ".join(out[out.index("done:"):].split())  # wrapped at 80 columns
        assert summary.startswith("done: 1 round(s)"), (name, out)
        assert "motor released; 0 forbidden bridge states" in summary, (name, summary)
