"""Firmware heap footprint of one prop over a whole simulated round (MicroPython).

Usage: micropython -X heapsize=N bench/mp_firmware.py PROP [PACK]
MICROPYPATH: host_tools/propctl/vboard, tests, then the firmware (firmware/lib as
source, or a folder of .mpy files from mpy-cross). Prints one JSON line.

The virtual board (fake machine, a one-entry signal recorder) is set up
before the baseline, so it is not counted; everything after it is: importing
the firmware and the small bench module that wires it to the virtual board,
building the app and its drivers, and the whole round. The benches' event
lists are replaced by a counter, so recorded events do not pile up.
Prints the heap in use before the firmware (`base`) and what the firmware
still holds after the round; or `memory_error` if the heap was too small.
bench/run.py searches for the smallest heap that completes the round.
"""
import gc
import json
import sys

import vboard


class Sink:
    """Stands in for a bench's event list: counts event names, keeps nothing."""

    def __init__(self) -> None:
        self.counts = {}

    def append(self, record) -> None:
        name = record["event"]
        self.counts[name] = self.counts.get(name, 0) + 1


def clock_round(pack):
    from clock_bench import ClockBench
    bench = ClockBench({"clock": {"seed": 3}}, capacity=1)
    bench.events = Sink()
    bench.press(at_ms=100)
    bench.run_round()
    return bench.events.counts


def fusebox_round(pack):
    from fusebox_bench import FuseBoxBench
    bench = FuseBoxBench({"fusebox": {"pack": pack}}, capacity=1)
    bench.events = Sink()
    bench.run(300)
    bench.app.commands()["select_card"][0]("GEO-01")
    window = 0
    while window < 8:  # open the windows one by one; GEO-01's bolt is among them
        bench.window(window, True, at_ms=bench.board.clock.elapsed + 10)
        bench.run(600)
        window += 1
    return bench.events.counts


def football_game(pack):
    from football_bench import FootballBench

    from rules.rng import Rng
    bench = FootballBench({"football": {"seed": 5}}, capacity=1)
    bench.events = Sink()
    app = bench.app
    rng = Rng(5)
    steps = 0
    # Random legal play through the box's own commands, with ticks in between;
    # kicks go through the real 3-second count.
    while app.game.state["phase"] != "over" and steps < 5000:
        steps += 1
        name, kind, options = rng.choice(app.game.actions())
        try:
            if name in ("toss", "roll"):
                app.roll()
            elif name in ("field_goal", "extra_point") or app.game.state["phase"] in (
                    "field_goal", "extra_point"):
                app.kick_start()
                bench.run(500 + rng.below(3000))
                app.report("good" if rng.below(2) else "no_good")
            elif kind == "pick":
                app.report(name, pick=rng.choice(options))
            elif kind == "yards":
                app.report(name, yards=rng.between(options[0], options[1]))
            else:
                app.report(name)
        except ValueError:
            pass  # the box refused (e.g. a count already settled): play on
        bench.run(100)
    counts = bench.events.counts
    counts["final_score"] = app.game.state["score"]
    return counts


WORKLOADS = {"clock": clock_round, "fusebox": fusebox_round, "football": football_game}


def main():
    prop = sys.argv[1]
    pack = sys.argv[2] if len(sys.argv) > 2 else ""
    vboard.new_board(0, 1)
    gc.collect()
    base = gc.mem_alloc()
    try:
        outcome = WORKLOADS[prop](pack)
    except MemoryError:
        print(json.dumps({"prop": prop, "memory_error": True, "base": base}))
        return
    gc.collect()
    print(json.dumps({"prop": prop, "outcome": outcome, "base": base,
                      "held_after": gc.mem_alloc() - base}))


main()
