"""The waits between tries at a broker that is not there grow (MicroPython, fake time).

    MICROPYPATH=firmware/lib micropython tests/venue/mp_venue_backoff.py PORT

net.venue.Venue, as a board runs it, on 127.0.0.1:PORT where nothing listens, polled
with a clock that starts 20 s after boot and moves 50 ms a pass (the refusals come from
the real TCP stack at once). Prints one JSON line: the retry_ms of the first five
"lost" events.
"""
import json
import sys
import time

from net.venue import Venue

from rules.rng import Rng


class Link:
    def __init__(self):
        self.mirror = None
        self.retries = []

    def event(self, name, fields=None):
        if name == "net" and fields and fields.get("state") == "lost":
            self.retries.append(fields["retry_ms"])

    def handle_line(self, line, write=None, refuse=None):
        pass


class App:
    def commands(self):
        return {}

    def snapshot(self):
        return {"state": "idle"}


def main():
    cfg = {"ssid": "", "password": "", "broker": "127.0.0.1", "port": int(sys.argv[1]), "user": "",
           "broker_password": "", "prefix": "props", "id": "c1", "keepalive_s": 30,
           "discovery": False}
    link = Link()
    venue = Venue(cfg, link, App(), {"prop": "clock", "firmware": "test", "board": "pico"},
                  "backoff-test", Rng(7))
    now = time.ticks_add(time.ticks_ms(), 20000)
    for _ in range(3000):
        if len(link.retries) >= 5:
            break
        venue.poll(now)
        now = time.ticks_add(now, 50)
        time.sleep_ms(1)
    print(json.dumps({"retries": link.retries}))


main()
