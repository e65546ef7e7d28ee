"""The fuse box reads its windows on time whatever the network does (MicroPython, real time).

    MICROPYPATH=host_tools/propctl/vboard:firmware/lib \
        micropython tools/testbed/fusebox_net.py MODE PORT [USER PASSWORD]

MODE "none": the runtime with the serial port only (the baseline); "silent": a broker at
127.0.0.1:PORT that takes the TCP connection and never answers; "broker": a real broker
(USER, PASSWORD), which the test floods with commands on the prop's cmd topic once this
prints {"ready": true}. The fuse box (props.fusebox.build on the virtual board, clock
following real time) runs in runtime.Runtime behind net.venue.NetPort; windows 1-6 open
one after another, 300 ms apart. Prints one JSON line: for each opening, board ms from the
window's change to the fuse box's "window" event, the box's debounce and scan, and the
net layer's overrun (NetPort.overrun_ms: how far a network slice ran past its pass's wait).
"""
import json
import sys
import time

from net.mqtt import UP
from net.venue import NetPort, Venue
from runtime import Runtime
from vprops.fusebox.bench import FuseBoxBench

from link.router import Link
from rules.rng import Rng

WINDOWS = 6
FIRST_MS = 400
APART_MS = 300


class RealWait:
    """The serial port's part of a pass: wait the rest in real time, then apply what is due."""

    def __init__(self, bench):
        self.bench = bench

    def pump(self, timeout_ms):
        if timeout_ms > 0:
            time.sleep_ms(timeout_ms)
        self.bench.apply()
        return 0


def main():
    mode = sys.argv[1]
    bench = FuseBoxBench()
    board = bench.board
    app = bench.app
    port = RealWait(bench)
    venue = None
    link = None
    if mode != "none":
        user = sys.argv[3] if len(sys.argv) > 3 else ""
        cfg = {"ssid": "", "password": "", "broker": "127.0.0.1", "port": int(sys.argv[2]), "user": user,
               "broker_password": sys.argv[4] if len(sys.argv) > 4 else "", "prefix": "props",
               "id": user or "fb", "keepalive_s": 30, "discovery": False}
        link = Link(lambda line: None, {"prop": "fusebox", "firmware": "test", "board": "pico"})
        link.add_commands(app.commands())
        venue = Venue(cfg, link, app, {"prop": "fusebox", "firmware": "test", "board": "pico"},
                      "fusebox-net", Rng(3))
        port = NetPort(port, venue)
        if mode == "broker":
            deadline = time.ticks_add(time.ticks_ms(), 5000)
            while venue.client.state != UP or venue._stage != 4:
                venue.poll(time.ticks_ms())
                time.sleep_ms(5)
                if time.ticks_diff(time.ticks_ms(), deadline) > 0:
                    break
            print(json.dumps({"ready": venue.client.state == UP}))
            time.sleep_ms(300)  # the flood starts
    board.clock.run_real(1)
    start = board.clock.elapsed
    opened_at = []
    for i in range(WINDOWS):
        at = start + FIRST_MS + i * APART_MS
        opened_at.append(at)
        bench.window(i, True, at_ms=at)
    end = opened_at[-1] + 200
    runtime = Runtime(app, clock=board.clock.now, port=port)
    runtime.run(lambda: board.clock.elapsed >= end)
    late = []
    for event in bench.events:
        if event["event"] == "window" and event["open"]:
            late.append(event["t"] - opened_at[event["window"] - 1])
    c = bench.settings["fusebox"]
    print(json.dumps({"late_ms": late, "debounce_ms": c["debounce_ms"], "scan_ms": c["scan_ms"],
                      "connects": venue.connects if venue else 0,
                      "lines": link._seq if link is not None else 0,  # replies and events sent
                      "dropped": getattr(venue, "dropped_commands", 0) if venue else 0,  # a backlog's
                      "up": venue is not None and venue.client.state == UP,
                      "overrun_ms": port.overrun_ms if venue else 0}))


main()
