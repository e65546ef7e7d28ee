"""Issue 33: every prop back within 10 s of its broker after any outage, the keep-alive included.

Fifty props' real net.venue.Venue and net.mqtt.Client under MicroPython, in virtual time,
against a model of the broker's host (tests/mp/venue_outage.py): a broker process that
stops (connections closed, connects refused) and a host switched off (silent: connects
unanswered, bytes never acknowledged), for outages of 1 s to an hour. A silent outage
shorter than the keep-alive is found by the next ping (the new host resets the old
connection) or the ping's answer timeout; a longer one by the backoff schedule, whose
waits count from the start of the try that failed.

Before: a ping after keepalive/2 (15 s) and its answer within keepalive (30 s), and each
wait counted from the failed try's end: a 2 s silent outage left a prop away up to 29 s
after its broker was back, a 75 s one up to 12.4 s.
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

from propctl.build import FIRMWARE_DIR
from propctl.launcher import find_micropython

OUTAGES_MS = [1000, 2000, 5000, 10000, 20000, 30000, 75000, 300000, 3600000]


def outage_runs(kind: str) -> list:
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE_DIR / "lib"))
    script = Path(__file__).parent / "mp" / "venue_outage.py"
    done = subprocess.run([find_micropython(), str(script), kind, *[str(ms) for ms in OUTAGES_MS]],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("kind", ["restart", "silent"])
def test_fifty_props_are_back_within_10_s_of_the_broker_after_any_outage(kind):
    results = outage_runs(kind)
    assert [r["outage_ms"] for r in results] == OUTAGES_MS
    for result in results:
        back = result["back_ms"]
        assert len(back) == 50
        assert back[-1] <= 10000, (kind, result["outage_ms"], back[-5:])
        if result["outage_ms"] >= 30000:
            # spread, not one burst: no half second holds a quarter of the props (seen: 5-10)
            per_half: dict = {}
            for ms in back:
                per_half[ms // 500] = per_half.get(ms // 500, 0) + 1
            assert max(per_half.values()) <= 12, (kind, result["outage_ms"], per_half)
            assert back[-1] - back[0] >= 2500, back
