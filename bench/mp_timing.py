"""Real-time timing of the clock on the virtual board, and switch latency under bounce (MicroPython).

Usage: micropython bench/mp_timing.py ROUNDS SEED
MICROPYPATH: host_tools/propctl/vboard, firmware/lib.

Part 1, real time: the clock firmware runs its rounds in runtime.Runtime,
the loop main.py runs on the board (it sleeps until the app's next deadline),
against the real monotonic clock. Rounds are
kept short (1.0-1.6 s) and the chime is the solenoid's three strikes, so 50
rounds fit in a few minutes; the stop and chime logic is the same as in a
full round. Per round: how late the stop came against the plan, and how long
after the stop the chime started.

Part 2, virtual time: one debounced input gets seeded random bounce (edges
0-9 ms apart for up to 12 ms) before each real change; per change, the time
from the last raw edge to the debounced event.
"""
import json
import sys

SHORT_ROUND = {"round_min_ms": 1000, "round_max_ms": 1600, "segment_min_ms": 300,
               "segment_max_ms": 600, "pause_min_ms": 100, "pause_max_ms": 200,
               "reverse_pause_ms": 150}


def real_time_rounds(rounds, seed):
    from runtime import Runtime
    from vprops.clock.bench import ClockBench
    bench = ClockBench({"clock": {"chime": "solenoid", "seed": seed, "limits": SHORT_ROUND}},
                       capacity=1)
    app = bench.app
    results = []
    current = {}

    def on_event(name, fields):
        t = bench.board.clock.elapsed
        if name == "start":
            current["start"] = t
        elif name == "stop":
            current["late"] = fields["at_ms"] - fields["planned_ms"]
            current["stop"] = t
        elif name == "chime":
            current["chime_after_stop"] = t - current["stop"]
        elif name == "idle":
            results.append(current.copy())
            current.clear()
            if len(results) < rounds:
                app.start_round()

    app.on_event = on_event
    bench.run(1000)          # power-up in virtual time
    bench.board.clock.run_real(1)
    app.start_round()
    Runtime(app, clock=bench.board.clock.now).run(until=lambda: len(results) >= rounds)
    return {"tick_ms": app.tick_ms, "rounds": results}


def bounce_latency(changes, seed, debounce_ms, scan_ms):
    import vboard
    from drivers.switches import PinSource, Switches
    from machine import Pin

    from rules.rng import Rng
    board = vboard.new_board(0, 1)
    rng = Rng(seed)
    pin = Pin(5, Pin.IN, Pin.PULL_UP)
    board.set_input(5, 1)
    switches = Switches(PinSource([pin]), 1, debounce_ms=debounce_ms, long_press_ms=10 ** 6)
    t = 0
    level = 1
    latencies = []
    events = 0
    while len(latencies) < changes:
        # Schedule bounce edges, then the settled new level.
        target = 1 - level
        edges = []
        at = t + 50
        while rng.below(3):
            at += rng.below(10)
            edges.append([at, 1 - (len(edges) & 1) if target == 1 else len(edges) & 1])
        last_edge = at + rng.below(3)
        edges.append([last_edge, target])
        got = None
        while got is None:
            while edges and edges[0][0] <= t:
                board.set_input(5, edges.pop(0)[1])
            switches.update(t)
            while switches.pending():
                switches.pop()
                events += 1
                got = t
            t += scan_ms
        latencies.append(got - last_edge)
        level = target
    return {"latencies": latencies, "events": events, "changes": changes}


def main():
    rounds, seed = int(sys.argv[1]), int(sys.argv[2])
    out = real_time_rounds(rounds, seed)
    out["bounce"] = bounce_latency(200, seed, 20, 5)
    print(json.dumps(out))


main()
