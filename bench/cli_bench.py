"""How long `propctl --help` takes, as a ratio to starting Python itself (`python -c pass`).

    python bench/cli_bench.py        prints the figures (also a section of `make bench`)

`propctl --help` imports only what it prints (propctl/cli.py: the commands are listed from a
table; only the command a command line names is imported). A ratio, not seconds: on a busy
machine both times grow together. Each command runs RUNS times, alternating, and the median
of each is taken; `propctl play fingerfootball --help` (one command imported) for comparison.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15


def median_s(commands: dict, runs: int) -> dict:
    times: dict = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                           cwd=ROOT)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def measure(runs: int = RUNS) -> dict:
    python = sys.executable
    return median_s({"python -c pass": [python, "-c", "pass"],
                     "propctl --help": [python, "-m", "propctl.cli", "--help"],
                     "propctl play fingerfootball --help": [python, "-m", "propctl.cli", "play",
                                                            "fingerfootball", "--help"]}, runs)


def section(quick: bool = False) -> list:
    figures = measure(5 if quick else RUNS)
    base = figures["python -c pass"]
    rows = ["| %s | %.0f ms | %.1f |" % (name, seconds * 1000, seconds / base)
            for name, seconds in figures.items()]
    return ["## CLI start-up\n\nMethod: median of %d runs each, alternating, on this machine; the "
            "ratio is to `python -c pass`.\n\n| command | median | ratio to python -c pass |\n"
            "|---|---|---|\n%s" % (5 if quick else RUNS, "\n".join(rows))]


if __name__ == "__main__":
    print("\n".join(section("--quick" in sys.argv)))
