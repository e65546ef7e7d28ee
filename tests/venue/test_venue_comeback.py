"""Every prop back within 10 s of its broker after any outage, not in one burst.

Before: waits doubled up to 60 s (+-25 %): after a 75 s outage the last prop was back 67 s
after the broker; a refused login waited 3.75-6.25 s though the docs said at least 5 s.
Virtual time on net.backoff under MicroPython (tests/venue/mp_venue_comeback.py), fifty props,
outages from 2 s to an hour, a broker whose host refuses at once (the broker stopped or
restarting) and one that is silent (the host off: each try costs the 5 s TCP timeout, which
counts towards the wait before the next). tests/venue/test_venue_outage.py runs the firmware's
own Venue and client through outages, the keep-alive included.
"""
from pathlib import Path

from micropython_harness import run_script

OUTAGES_MS = [2000, 10000, 30000, 75000, 300000, 3600000]


def run_mp(script: str, *args) -> list:
    return run_script(Path(__file__).parent / ("mp_" + script), *args)


def test_every_prop_is_back_within_10_s_of_the_broker_after_any_outage():
    results = run_mp("venue_comeback.py", *[str(ms) for ms in OUTAGES_MS])
    assert len(results) == 2 * len(OUTAGES_MS)
    for result in results:
        back = result["back_ms"]
        assert len(back) == 50
        # a silent broker: a try under way when it returns ends at its timeout, inside the wait
        # that counts from its start (before: the wait began at its end, up to 13.75 s)
        assert back[-1] <= 10000, (result["outage_ms"], result["silent"], back[-5:])
        if result["outage_ms"] >= 30000:
            # spread, not one burst: no half second holds a quarter of the props (measured: 4-10)
            per_half = {}
            for ms in back:
                per_half[ms // 500] = per_half.get(ms // 500, 0) + 1
            assert max(per_half.values()) <= 12, per_half
            assert back[-1] - back[0] >= 2500, back


def test_a_least_wait_is_never_cut_by_the_jitter():
    results = run_mp("venue_least_wait.py")
    waits = results[0]["waits"]
    assert len(waits) == 200 and min(waits) >= 5000 and max(waits) <= 6250, (min(waits), max(waits))
    assert len(set(waits)) > 50  # still spread
