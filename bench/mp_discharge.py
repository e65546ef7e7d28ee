"""The hand's speed for the same plan as the pack runs down, with and without compensation (MicroPython).

Usage: micropython bench/mp_discharge.py ROUNDS SEED...
MICROPYPATH: host_tools/propctl/vboard, firmware/lib. For each seed and each way of
knowing the pack (the divider read by the firmware, or the fixed clock.supply_mv), the
same round ROUNDS times while the virtual pack falls from 4800 to 3300 mV
(vprops/clock/bench.py: discharge); prints one JSON line: per case and seed, the hand's travel per
round and the highest average motor voltage.
"""
import json
import sys

from vprops.clock.bench import discharge

CASES = [
    ("compensated: pack read through the divider (battery_min_mv 3000)", {"battery_min_mv": 3000}),
    ("not compensated: no divider, supply_mv 4800 assumed", {}),
]


def main(rounds, seeds):
    out = []
    for label, clock in CASES:
        runs = []
        for seed in seeds:
            settings = dict(clock)
            settings["seed"] = seed
            result = discharge({"clock": settings}, 4800, 3300, rounds)
            runs.append({"seed": seed, "packs": [r[0] for r in result], "travel": [r[1] for r in result],
                         "peak_mv": [r[2] for r in result]})
        out.append({"case": label, "runs": runs})
    print(json.dumps({"rounds": rounds, "rated_mv": 3000, "cases": out}))


main(int(sys.argv[1]), [int(a) for a in sys.argv[2:]])
