"""Events during an outage reach the broker afterwards, marked late.

Before: a clock's stop and chime while the broker restarted never reached it (clean session,
QoS 0), so the view never showed them. Now the last net.late.SLOTS event lines wait
in a preallocated buffer and go out after the next connect, {"late": true, ...}, oldest
first; what did not fit is counted in the `net` command's late_lost.
"""
import json
import time

import pytest
from mosquitto_broker import Mosquitto
from test_venue_broker import net_stats
from venue_helpers import Listener, request
from waits import WAIT_S

from propctl.venue.netprop import NetProp


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"l1": "l1-pw"}) as b:
        yield b


def test_a_stop_during_an_outage_reaches_the_broker_afterwards_marked_late(broker):
    listener = Listener(broker.port)
    prop = NetProp("clock", "127.0.0.1", broker.port, "l1", user="l1", password="l1-pw",
                   settings={"clock": {"max_run_ms": 1500, "seed": 4}}, net={"keepalive_s": 5}).start()
    try:
        assert listener.wait(lambda t, p, r: t == "props/l1/status" and p == b"online", WAIT_S)
        assert request(listener, "l1", 3, "start_round")["ok"]["state"] == "running"
        assert listener.wait_json("props/l1/event", lambda m: m.get("ev") == "start", WAIT_S)
        listener.close()
        broker.kill()                                           # the broker goes mid-round
        stop = prop.wait_event(lambda e: e["ev"] == "stop", WAIT_S)  # the hand stops while it is away
        assert stop is not None
        time.sleep(1.0)
        broker.start()
        listener = Listener(broker.port, client_id="after")
        late = listener.wait_json("props/l1/event", lambda m: m.get("ev") == "stop", WAIT_S)
        assert late is not None, listener.on("props/l1/event")
        assert late["late"] is True and late["seq"] == stop["seq"] and late["data"] == stop["data"]
        events = [json.loads(p) for p in listener.on("props/l1/event")]
        assert all(e.get("late") is True for e in events if e["seq"] <= stop["seq"])
        stats = net_stats(prop)
        assert stats["late_sent"] >= 1 and stats["late_kept"] == 0, stats
        # back to live: a new event is not late
        assert request(listener, "l1", 4, "ping") is not None
    finally:
        prop.stop()
        listener.close()


def test_the_buffer_keeps_the_last_events_and_counts_the_rest(broker):
    # no broker at first: boot, then 10 rounds' events (start, stop, chime...) pile up
    prop = NetProp("clock", "127.0.0.1", broker.port, "l1", user="l1", password="l1-pw",
                   settings={"clock": {"max_run_ms": 1000, "seed": 4}})
    broker.kill()
    prop.start()
    listener = None
    try:
        for n in range(3):
            deadline = time.monotonic() + WAIT_S
            while True:  # refused while it boots or chimes: again until it starts
                start = len(prop.events)
                prop.send(json.dumps({"id": 10 + n, "cmd": "start_round"}))
                time.sleep(0.3)
                if any(e.get("re") == 10 + n and "ok" in e for e in prop.events[start:]):
                    break
                assert time.monotonic() < deadline, prop.events[-3:]
            assert prop.wait_event(lambda e, n=n: e["ev"] == "stop" and e["data"]["round"] == n + 1, WAIT_S)
        broker.start()
        listener = Listener(broker.port, client_id="after")
        assert listener.wait(lambda t, p, r: t == "props/l1/status" and p == b"online", WAIT_S)
        time.sleep(0.5)
        late = [json.loads(p) for p in listener.on("props/l1/event")]
        assert late and all(e["late"] is True for e in late)
        # every event after boot (the boot line goes out before the net layer starts) but net's own
        kept = [e for e in prop.events if "ev" in e and e["ev"] not in ("net", "boot")
                and e["seq"] <= late[-1]["seq"]]
        assert len(kept) > 6
        assert [e["seq"] for e in late] == [e["seq"] for e in kept[-6:]]   # the last six, in order
        assert late[-1]["data"] == kept[-1]["data"]
        stats = net_stats(prop)
        assert stats["late_lost"] == len(kept) - 6 and stats["late_sent"] == 6, stats
    finally:
        prop.stop()
        if listener is not None:
            listener.close()
