"""Venue mode under load: 20 virtual props on one Mosquitto, and what the net layer costs in heap.

    python bench/venue.py            prints the figures (also a section of `make bench`)

1. 20 props (real firmware, main.py on the unix port, clocks, fuse boxes and
   football boxes in turn) join a private Mosquitto (password file + ACL, as
   docs/venue.md sets it up). Then `propctl venue --json` starts: how long
   until it has listed all 20 as online (the retained status and state);
   and, cold, from the moment the props were started until all were online.
2. 10,000 hostile payloads on one prop's command topic, paced in batches of
   500 with a valid request after each: every valid request answered?
   How long did the prop take per batch?
3. Heap: `mem` (heap used after a collection) of a clock on the serial link
   only, and of the same clock with the net layer up on the broker: the
   difference is the net layer's cost (64-bit unix port; a 32-bit board needs
   about 1/1.55 of it, see GUIDE.md).
4. The fuse box's windows in real time (tools/testbed/fusebox_net.py): ms from each of six
   openings to its "window" event, with no network, a silent broker and the real broker
   flooded with commands, and the net layer's overrun (NetPort.overrun_ms). The tests hold
   these only to "never early, never held by the network"; the figures are here.
"""
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "testbed"))  # a private Mosquitto, shared with the tests
sys.path.insert(0, str(ROOT / "host_tools"))

from mosquitto_broker import Mosquitto  # noqa: E402
from venue_helpers import Listener, fusebox_windows, hostile_payloads, request  # noqa: E402

from propctl.build import PROPS as KINDS  # noqa: E402  (the firmware's one list of props)
from propctl.venue.netprop import NetProp  # noqa: E402

PROPS = 20


def _propctl():
    return str(Path(sys.executable).parent / "propctl")


def venue_sees_all(port: int, ids: set, timeout: float) -> float:
    """Seconds from starting `propctl venue --json` until every id in `ids` was listed online."""
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD="venue-pw")
    start = time.monotonic()
    proc = subprocess.Popen([_propctl(), "venue", "--broker", "mqtt://venue@127.0.0.1:%d" % port, "--json",
                             "--seconds", str(timeout)], stdout=subprocess.PIPE, text=True, env=env)
    seen: set = set()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            record = json.loads(line)
            if record["topic"] == "status" and record["data"] == "online":
                seen.add(record["id"])
            if ids <= seen:
                return time.monotonic() - start
    finally:
        proc.kill()
        proc.wait()
    raise RuntimeError("propctl venue saw only %d of %d props" % (len(seen & ids), len(ids)))


def mem_used(prop: NetProp) -> int:
    start = len(prop.events)
    prop.send(json.dumps({"id": 9, "cmd": "mem"}))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        for message in prop.events[start:]:
            if message.get("re") == 9 and "ok" in message:
                return message["ok"]["used"]
        time.sleep(0.02)
    raise RuntimeError("no mem reply")


def heap_cost(port: int, folder: Path) -> list:
    """[(prop, form, used without a broker, used with the net layer up)] for each prop, with the
    firmware as .py sources and as mpy-cross .mpy (as `propctl deploy` copies it)."""
    from propctl.build import FIRMWARE_DIR, build_tree
    mpy_dir = folder / "mpy-firmware"
    build_tree(mpy_dir)
    rows = []
    for form, firmware in ((".mpy", mpy_dir), (".py", FIRMWARE_DIR)):
        for prop in KINDS:
            with NetProp(prop, "", 0, "serial-only", firmware_dir=firmware) as plain:
                time.sleep(1.0)
                without = mem_used(plain)
            with NetProp(prop, "127.0.0.1", port, "p1", user="p1", password="pw-p1",
                         firmware_dir=firmware) as net:
                net.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "up", 10)
                time.sleep(1.0)
                with_net = mem_used(net)
            rows.append((prop, form, without, with_net))
    return rows


def hostile(port: int, count: int) -> dict:
    admin = Listener(port, topics=("props/p1/reply", "props/p1/status"), client_id="bench-admin")
    with NetProp("clock", "127.0.0.1", port, "p1", user="p1", password="pw-p1") as prop:
        admin.wait(lambda t, p, r: t == "props/p1/status" and p == b"online", 10)
        payloads = hostile_payloads(random.Random(10000), count)
        answered = 0
        batches = []
        for n, batch in enumerate(range(0, count, 500)):
            t0 = time.monotonic()
            for payload in payloads[batch:batch + 500]:
                admin.publish("props/p1/cmd", payload)
            if request(admin, "p1", 100 + n, "ping", timeout=20) is not None:
                answered += 1
            batches.append(time.monotonic() - t0)
        alive = prop.running()
    admin.close()
    return {"payloads": count, "valid": len(batches), "answered": answered, "alive": alive,
            "batch_s_max": max(batches), "per_payload_ms": 1000 * sum(batches) / count}


def measure(folder: Path, quick: bool = False) -> dict:
    users = {"p%d" % i: "pw-p%d" % i for i in range(1, PROPS + 1)}
    users["venue"] = "venue-pw"
    result: dict = {}
    with Mosquitto(folder / "broker", users) as broker:
        props = []
        ids = set()
        cold_start = time.monotonic()
        try:
            for i in range(1, PROPS + 1):
                prop_id = "p%d" % i
                ids.add(prop_id)
                props.append(NetProp(KINDS[i % 3], "127.0.0.1", broker.port, prop_id, user=prop_id,
                                     password=users[prop_id]).start())
            venue_sees_all(broker.port, ids, 60)  # started right after the launches
            result["cold_from_launch_s"] = time.monotonic() - cold_start
            result["warm_s"] = venue_sees_all(broker.port, ids, 10)
        finally:
            for prop in props:
                prop.stop()
        result["heap"] = heap_cost(broker.port, folder)
        result["windows"] = fusebox_windows(broker.port, "p1", users["p1"])
        result["hostile"] = hostile(broker.port, 2000 if quick else 10000)
    return result


def report(r: dict) -> str:
    h = r["hostile"]
    rows = ["| %s | %s | %d | %d | **%d** | %d |" % (prop, form, without, with_net, with_net - without,
                                                   (with_net - without) * 100 // 155)
            for prop, form, without, with_net in r["heap"]]
    heap = ("| prop | firmware as | used, no broker | used, net layer up | net layer | ~32-bit board |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows))
    windows = "\n".join(
        "| %s | %d | %d | %d | %d |" % (mode, w["debounce_ms"] + 2 * w["scan_ms"], sorted(w["late_ms"])[2],
                                       max(w["late_ms"]), w["overrun_ms"])
        for mode, w in r["windows"].items())
    return ("## Venue mode (MQTT)\n\n"
            "%d virtual props (real firmware, unix port) on one private Mosquitto with a password file "
            "and an ACL. `propctl venue` started with all of them up listed all %d online in **%.2f s** "
            "(goal: 2 s). Started together with the props, it listed all online %.2f s after the first "
            "launch (that includes booting %d MicroPython processes on this machine).\n\n"
            "Net layer heap: `mem` (bytes used after a collection) of each idle prop, on the serial link "
            "only and with the net layer up on the broker (64-bit unix port; a 32-bit board needs about "
            "1/1.55 of it, GUIDE.md):\n\n%s\n\n"
            "%d hostile payloads on one prop's command topic, in batches of 500 each followed by a ping: "
            "%d of %d pings answered, prop alive: %s, %.2f ms per payload, slowest batch %.1f s.\n\n"
            "The fuse box's six window openings in real time (tools/testbed/fusebox_net.py), ms from "
            "each change to its `window` event as the board's clock measures it, with no network, a "
            "broker that never answers, and the broker flooded with commands; due: debounce + two scans; "
            "overrun: the most a network slice ran past its pass's deadline (NetPort.overrun_ms):\n\n"
            "| network | due ms | median ms | worst ms | net overrun ms |\n|---|---|---|---|---|\n%s\n"
            % (PROPS, PROPS, r["warm_s"], r["cold_from_launch_s"], PROPS, heap,
               h["payloads"], h["answered"], h["valid"],
               "yes" if h["alive"] else "NO", h["per_payload_ms"], h["batch_s_max"], windows))


def bench_venue(quick: bool, folder: Path) -> list:
    """The `make bench` section."""
    return [report(measure(folder, quick))]


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        print(report(measure(Path(tmp), "--quick" in sys.argv)))
