"""Fifty props' reconnect schedule in virtual time (MicroPython, net.backoff as the board runs it).

    MICROPYPATH=firmware/lib micropython tests/venue/mp_venue_comeback.py OUTAGE_MS...

Each prop had been up for long (net.venue resets the waits then), loses the broker at
t=0 and tries again whenever its Backoff says, each failed try taking CONNECT_MS (a TCP
connect refused at once, or TCP_TIMEOUT_MS at a silent host: both are modelled); the wait
after a failed try counts from the try's start, as net.venue counts it. The
broker is back at OUTAGE_MS; a prop is back at its first try from then on. Times are
ticks that wrap at 2^30 (the outage starts 10 s before the wrap). Prints one JSON line per
outage: {"outage_ms", "silent", "back_ms": [50 delays after the broker's return, sorted]}.
"""
import json
import sys
from time import ticks_add, ticks_diff

from net.backoff import Backoff

from rules.rng import Rng

PROPS = 50
T0 = (1 << 30) - 10000


def schedule(outage_ms: int, connect_ms: int) -> list:
    back = []
    for i in range(PROPS):
        backoff = Backoff(Rng(1000 + i * 7919))
        backoff.reset()
        now = T0
        backoff.next(now)
        while True:
            now = backoff.retry_at
            if ticks_diff(now, T0) >= outage_ms:
                back.append(ticks_diff(now, T0) - outage_ms)
                break
            # the failed try takes connect_ms; net.venue counts the next wait from its start
            backoff.next(now)
            if ticks_diff(backoff.retry_at, ticks_add(now, connect_ms)) < 0:
                backoff.retry_at = ticks_add(now, connect_ms)  # never before the try has ended
    back.sort()
    return back


def main():
    for arg in sys.argv[1:]:
        outage = int(arg)
        for silent in (False, True):
            back = schedule(outage, 5000 if silent else 1)
            print(json.dumps({"outage_ms": outage, "silent": silent, "back_ms": back}))


main()
