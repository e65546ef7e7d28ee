"""What the bench's sections share: where things are, running a script under MicroPython, tables.

MicroPython is found and its MICROPYPATH built by propctl.launcher, as for the sims and the
tests; the bench imports nothing from tests/ (what it shares with them lives in tools/testbed).
"""
import json
import subprocess
from pathlib import Path

from propctl.launcher import VBOARD_DIR, board_env, command

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "bench" / "REPORT.md"
SAMPLE_DECK = ROOT / "host_tools" / "propctl" / "data" / "decks" / "taskcards.en.csv"
TESTBED = ROOT / "tools" / "testbed"  # the games' players, shared with the differential tests
VBOARD = VBOARD_DIR
# A Raspberry Pi Pico running MicroPython has roughly 190 KB of free heap.
BOARD_HEAP = "192K"


def micropython_env(*paths) -> dict:
    """os.environ with MICROPYPATH: `paths`, then the firmware lib (no virtual board unless named)."""
    return board_env(None, *paths, vboard=False)


def run_micropython(script, *args, heap=BOARD_HEAP, paths=(), timeout=300, interpreter=None):
    """Run a bench script under MicroPython (the unix port unless `interpreter`); last stdout line as JSON."""
    line = command([ROOT / "bench" / script] + [str(a) for a in args], heap, interpreter)
    env = micropython_env(TESTBED, *paths)
    env["MICROPYTHON_WASM_FILES"] = str(ROOT / "host_tools" / "propctl" / "data")  # games.py reads it
    done = subprocess.run(line, capture_output=True, text=True, env=env, cwd=str(ROOT),
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (script, done.stdout, done.stderr))
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def kb(n):
    return "%.1f" % (n / 1024)




def pct(values, permille):
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) * permille // 1000]
