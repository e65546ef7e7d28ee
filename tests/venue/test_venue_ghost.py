"""The view never shows a ghost.

Before: with the broker restarted (persistence off) and a prop killed while it was away, the
running `propctl venue` went on showing that prop `online` for good (a fresh one did not
list it); during the outage every row still said `online`; with --json the outage went to
stderr only. Now: during an outage a row says when the prop was last seen, after every
reconnection every prop is "unknown" until the broker sends its retained status again
("absent" when none comes), and --json says so in lines of its own.
"""
import json
import time

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener
from waits import WAIT_S

from propctl.venue.broker import connect, parse_url
from propctl.venue.netprop import NetProp
from propctl.venue.view import ABSENT_AFTER_S, Venue


class Message:
    def __init__(self, topic, payload, retain=False):
        self.topic, self.payload, self.retain = topic, payload, retain


def status_of(venue, prop_id):
    with venue.lock:
        prop = venue.props.get(prop_id)
        return None if prop is None else prop.status


def test_outage_rows_say_last_seen_and_a_reconnection_makes_every_prop_unknown_then_absent():
    records = []
    venue = Venue("props", records.append)
    for pid in ("p1", "p2", "p3"):
        venue.on_message(None, None, Message("props/%s/status" % pid, b"online", True))
    venue.on_message(None, None, Message("props/p3/status", b"offline"))
    venue.connection(False)
    lines = venue.table()
    assert lines[0].startswith("venue: lost the broker at ")
    assert lines[1].split() == ["ID", "KIND", "LAST", "SEEN", "LAST", "EVENT", "SCORES"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert "online" not in " ".join(lines)  # never a bare online while nothing can be known
    assert rows["p1"].split()[2:4] == ["last", "seen"] and len(rows["p1"].split()[4]) == 8  # HH:MM:SS
    assert rows["p3"].split()[2] == "offline"
    assert all(len(line) <= 80 for line in lines)
    assert records[-1]["broker"] == "lost"
    venue.connection(True)
    assert records[-1]["broker"] == "up" and records[-1]["unknown"] == ["p1", "p2", "p3"]
    assert {status_of(venue, p) for p in ("p1", "p2", "p3")} == {"unknown"}
    assert venue.table()[0].startswith("venue: 3 props, 0 online, 3 unknown (broker back at ")
    venue.on_message(None, None, Message("props/p1/status", b"online", True))
    venue.on_message(None, None, Message("props/p3/status", b"offline", True))
    venue.tick(venue.back_at + ABSENT_AFTER_S - 0.1)
    assert status_of(venue, "p2") == "unknown"
    venue.tick(venue.back_at + ABSENT_AFTER_S + 0.1)
    assert [status_of(venue, p) for p in ("p1", "p2", "p3")] == ["online", "absent", "offline"]
    assert records[-1] == {"broker": "absent", "ids": ["p2"],
                           "why": "no status on the broker %g s after reconnecting" % ABSENT_AFTER_S}
    assert venue.table()[0] == "venue: 3 props, 1 online"
    # a prop that comes back later is online again: its live status, or a live event
    venue.on_message(None, None, Message("props/p2/event", b'{"ev": "start"}'))
    assert status_of(venue, "p2") == "online"


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"g1": "g1-pw", "g2": "g2-pw", "venue": "venue-pw"}) as b:
        yield b


def test_broker_restart_and_a_prop_killed_meanwhile_never_shows_it_online(broker):
    """The issue's case with a real Mosquitto (persistence off, as the tests start it)."""
    records = []
    venue = Venue("props", records.append)
    props = [NetProp("clock", "127.0.0.1", broker.port, pid, user=pid, password=pid + "-pw",
                     net={"keepalive_s": 5}).start() for pid in ("g1", "g2")]
    client = None
    try:
        listener = Listener(broker.port)
        for pid in ("g1", "g2"):
            assert listener.wait(lambda t, p, r, pid=pid: t == "props/%s/status" % pid and p == b"online",
                                 WAIT_S)
        listener.close()
        client = connect(parse_url("mqtt://venue@127.0.0.1:%d" % broker.port), "venue-pw", "t-ghost",
                         on_message=venue.on_message, subscribe=venue.topics(),
                         on_connection=venue.connection)
        deadline = time.monotonic() + WAIT_S
        while (status_of(venue, "g1"), status_of(venue, "g2")) != ("online", "online"):
            assert time.monotonic() < deadline, venue.table()
            time.sleep(0.02)
        broker.kill()
        deadline = time.monotonic() + WAIT_S
        while not venue.lost:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        outage = venue.table()
        assert "online" not in " ".join(outage[1:]), outage
        assert all(line.split()[2:4] == ["last", "seen"] for line in outage[2:]), outage
        props[1].kill()  # g2's power is cut while the broker is away: no will is ever published
        broker.start()
        seen = []  # every status the view showed for g2 from here on
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            venue.tick()
            if not venue.lost:
                seen.append(status_of(venue, "g2"))
            if status_of(venue, "g2") in ("absent", "offline") and status_of(venue, "g1") == "online":
                break
            time.sleep(0.01)
        assert "online" not in seen, seen  # never the ghost
        assert seen[0] == "unknown" and seen[-1] in ("absent", "offline"), seen[:3] + seen[-3:]
        assert status_of(venue, "g1") == "online"  # the one alive is back
        assert venue.table()[0] == "venue: 2 props, 1 online"
        kinds = [r["broker"] for r in records if "broker" in r]
        assert kinds[:3] == ["lost", "up", "absent"], kinds
        assert all(json.loads(json.dumps(r)) == r for r in records)
    finally:
        if client is not None:
            client.loop_stop()
            client.disconnect()
        for prop in props:
            prop.stop()
