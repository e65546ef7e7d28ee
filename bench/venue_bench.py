"""Venue mode: fifty props, a broker restart, and what TLS costs in heap.

    python bench/venue_bench.py [--props N] [--outage S]   prints the figures

1. N virtual props (default 50; real firmware as .mpy files, as deployed, main.py on the
   unix port, clocks, fuse boxes and football boxes in turn) on one private Mosquitto: how
   long `propctl venue --json` takes to list them all online.
2. The broker killed (persistence off, as the tests run it), down for S seconds (default
   75), started again on the same port: for each prop, the time from the broker's
   start to its retained "online" (median and max; the goal is 10 s).
3. TLS heap: `mem` (bytes used after a collection) of a clock with its net layer up
   over plain MQTT and over TLS (a CA made with openssl, EC P-256), 64-bit unix port.
"""
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "testbed"))  # what the bench shares with the tests
sys.path.insert(0, str(ROOT / "host_tools"))
sys.path.insert(0, str(ROOT / "bench"))

from mosquitto_broker import Mosquitto  # noqa: E402
from tls_certs import make_pki  # noqa: E402
from venue import KINDS, mem_used, venue_sees_all  # noqa: E402
from venue_helpers import Listener  # noqa: E402

from propctl.venue.netprop import NetProp  # noqa: E402


def comeback(folder: Path, count: int, outage_s: float) -> dict:
    users = {"p%d" % i: "pw-p%d" % i for i in range(1, count + 1)}
    users["venue"] = "venue-pw"
    result: dict = {"props": count, "outage_s": outage_s}
    from propctl.build import build_tree
    mpy = folder / "mpy-firmware"  # the firmware as `propctl deploy` puts it on a board
    build_tree(mpy)
    with Mosquitto(folder / "broker", users) as broker:
        props = []
        try:
            for i in range(1, count + 1):
                pid = "p%d" % i
                props.append(NetProp(KINDS[i % len(KINDS)], "127.0.0.1", broker.port, pid, user=pid,
                                     password=users[pid], firmware_dir=mpy).start())
            ids = set(users) - {"venue"}
            venue_sees_all(broker.port, ids, 120)  # every prop up (cold start of N MicroPythons)
            result["listed_s"] = venue_sees_all(broker.port, ids, 20)
            broker.kill()
            time.sleep(outage_s)
            broker.start()
            started = time.monotonic()
            listener = Listener(broker.port, client_id="bench-comeback", topics=("props/+/status",))
            back: dict = {}
            deadline = started + 60
            while len(back) < count and time.monotonic() < deadline:
                for at, topic, payload, _ in list(listener.messages):
                    pid = topic.split("/")[1]
                    if payload == b"online" and pid not in back:
                        back[pid] = at - started
                time.sleep(0.05)
            listener.close()
            delays = sorted(back.values())
            result.update({"back": len(delays), "median_s": statistics.median(delays) if delays else None,
                           "max_s": max(delays) if delays else None})
        finally:
            for prop in props:
                prop.stop()
    return result


def tls_heap(folder: Path) -> dict:
    pki = make_pki(folder / "pki")
    with Mosquitto(folder / "tls-broker", {"p1": "pw-p1"}, tls=pki) as broker:
        used = {}
        for form, port, ca in (("plain", broker.port, None), ("tls", broker.tls_port, pki["ca"])):
            with NetProp("clock", "127.0.0.1", port, "p1", user="p1", password="pw-p1", ca_file=ca) as prop:
                up = prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "up", 15)
                if up is None:
                    raise RuntimeError("the %s clock never came up: %r" % (form, prop.events[-3:]))
                time.sleep(1.0)
                used[form] = mem_used(prop)
    return used


def report(c: dict, heap: dict) -> str:
    return ("## Venue mode, round two\n\n"
            "%d virtual props on one Mosquitto: `propctl venue --json` listed all online in **%.2f s** "
            "(goal: 2 s). Broker killed, down %g s, started again: %d of %d props back online, "
            "median **%.1f s**, max **%.1f s** after the broker's start (goal: 10 s).\n\n"
            "TLS heap (a clock, net layer up, `mem` after a collection, 64-bit unix port): plain "
            "%d bytes, TLS %d bytes: TLS costs **%.1f KB** (mbedtls's session and buffers; a 32-bit "
            "board about %.1f KB, GUIDE.md's 1.55).\n"
            % (c["props"], c["listed_s"], c["outage_s"], c["back"], c["props"], c["median_s"], c["max_s"],
               heap["plain"], heap["tls"], (heap["tls"] - heap["plain"]) / 1024,
               (heap["tls"] - heap["plain"]) / 1024 / 1.55))


def bench_section(quick: bool, folder: Path) -> list:
    """The `make bench` section (bench/run.py's venue section adds it)."""
    heap = tls_heap(folder / "tls")
    return [report(comeback(folder / "comeback", 10 if quick else 50, 5.0 if quick else 75.0), heap)]


def main(argv) -> int:
    count = int(argv[argv.index("--props") + 1]) if "--props" in argv else 50
    outage = float(argv[argv.index("--outage") + 1]) if "--outage" in argv else 75.0
    with tempfile.TemporaryDirectory() as tmp:
        heap = tls_heap(Path(tmp))
        c = comeback(Path(tmp), count, outage)
        print(report(c, heap))
        print(json.dumps({"comeback": c, "tls_heap": heap}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
