"""When NetPort gives the network its slice (MicroPython): runs with fake time.

    MICROPYPATH=firmware/lib micropython tests/venue/mp_netport_slices.py

Prints one JSON line: how many of 1000 pumps polled the venue with waits of
1 ms (below SLACK_MS: only every STARVED_MS, 9 times in 1000 ms) and of
5 ms (every time), and the waits the serial port got after a 3 ms slice.
"""
import json

from net.venue import NetPort


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Venue:
    def __init__(self, clock, cost):
        self.clock = clock
        self.cost = cost
        self.polls = 0

    def poll(self, now):
        self.polls += 1
        self.clock.now += self.cost


class Port:
    def __init__(self, clock):
        self.clock = clock
        self.waits = []

    def pump(self, timeout_ms):
        self.waits.append(timeout_ms)
        self.clock.now += timeout_ms
        return 0


def run(wait, cost, pumps):
    clock = Clock()
    venue = Venue(clock, cost)
    port = Port(clock)
    net = NetPort(port, venue, clock)
    for _ in range(pumps):
        net.pump(wait)
    return venue.polls, port.waits


short, _ = run(1, 0, 1000)
every, _ = run(5, 0, 100)
_, waits = run(5, 3, 3)
print(json.dumps({"short_waits_polled": short, "long_waits_polled": every, "waits_after_slice": waits}))
