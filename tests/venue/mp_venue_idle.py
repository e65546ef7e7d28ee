"""The net layer's idle pass allocates nothing: Venue.poll with the heap locked (MicroPython).

    MICROPYPATH=host_tools/propctl/vboard:firmware/lib \
        micropython tests/venue/mp_venue_idle.py PORT USER PASSWORD

Connects net.venue.Venue (with its own MQTT client, as a board runs it) to the
broker on 127.0.0.1:PORT, waits until it has announced itself (subscribed,
status and state published) and has had a QoS 1 publish acknowledged,
then runs 300 passes of NetPort-style polling
(Venue.poll, 1 ms apart) with the heap locked: connected, nothing arriving,
nothing to send. Prints one JSON line: {"up": ..., "passes": ..., "error": None
or what raised}.
"""
import json
import sys
import time

import micropython
from net.mqtt import UP
from net.venue import Venue

from rules.rng import Rng


class QuietLink:
    """What the venue needs of link.router.Link; events are counted, not written."""

    def __init__(self):
        self.mirror = None
        self.events = 0

    def event(self, name, fields=None):
        self.events += 1

    def handle_line(self, line, write=None, refuse=None):
        pass


class IdleApp:
    def commands(self):
        return {}

    def snapshot(self):
        return {"state": "idle"}


def main():
    port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    cfg = {"ssid": "", "password": "", "broker": "127.0.0.1", "port": port, "user": user,
           "broker_password": password, "prefix": "props", "id": user, "keepalive_s": 30,
           "discovery": False}
    identity = {"prop": "clock", "firmware": "test", "board": "pico"}
    venue = Venue(cfg, QuietLink(), IdleApp(), identity, "idle-test", Rng(7))
    deadline = time.ticks_add(time.ticks_ms(), 5000)
    while time.ticks_diff(deadline, time.ticks_ms()) > 0:
        venue.poll(time.ticks_ms())
        if venue.client.state == UP and venue._stage == 4 and not venue._state_dirty \
                and venue.client.pending() == 0:
            break
        time.sleep_ms(5)
    up = venue.client.state == UP
    # a QoS 1 publish is answered by the broker's PUBACK
    qos1 = venue.client.publish(venue.t_event, b'{"ev": "qos1"}', False, 1) and venue.client.unacked == 1
    for _ in range(40):  # the SUBACKs, the PUBACK and anything else in flight
        venue.poll(time.ticks_ms())
        time.sleep_ms(5)
    qos1 = qos1 and venue.client.unacked == 0
    error = None
    passes = 0
    micropython.heap_lock()
    try:
        while passes < 300:
            venue.poll(time.ticks_ms())
            time.sleep_ms(1)
            passes += 1
    except Exception as exc:
        error = exc
    micropython.heap_unlock()
    print(json.dumps({"up": up and venue.client.state == UP, "passes": passes, "qos1_acked": qos1,
                      "error": None if error is None else repr(error)}))


main()
