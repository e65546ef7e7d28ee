"""The real firmware (main.py on the unix port) on a private Mosquitto: a round over MQTT,
the broker dying mid-round and coming back, the will, a silent broker, a wrong password.

Every test checks the promise the net layer makes: the clock's stop lands on its
planned millisecond (within 1 ms: `at_ms` of the stop event is measured by the
firmware's own clock) whatever the network does.
"""
import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener, request

from propctl.venue.netprop import NetProp

ROUND_MS = 3000  # clock.max_run_ms: every round here is capped, so it stops at 3000 ms
CLOCK = {"clock": {"max_run_ms": ROUND_MS, "seed": 5}}
PW = "c1-broker-pw-Z8"


def net_stats(prop) -> dict:
    """The prop's `net` command over the serial link (what the network cost its loop)."""
    start = len(prop.events)
    prop.send(json.dumps({"id": 777, "cmd": "net"}))
    reply = None
    deadline = time.monotonic() + 5
    while reply is None and time.monotonic() < deadline:
        reply = next((e for e in prop.events[start:] if e.get("re") == 777), None)
        time.sleep(0.02)
    assert reply is not None and "ok" in reply, reply
    return reply["ok"]


def assert_stop_on_time(prop):
    """The stop on its planned millisecond (+1), and no network slice ever ran past a deadline.

    On a host loaded beyond twice its cores (8 helpers on 2 cores: seen 3-12 ms with the
    network's slowest slice at 0 ms) the process itself wakes late, the scheduler's doing,
    not the network's: then only the network's own overrun (NetPort.overrun_ms, measured in
    the firmware: how far a slice ran past its pass's deadline) must stay within 1 ms."""
    stop = prop.wait_event(lambda e: e["ev"] == "stop", ROUND_MS / 1000 + 5)
    assert stop is not None, "no stop event; the prop said: %r" % (prop.events[-5:] + prop.other[-5:])
    data = stop["data"]
    assert data["capped"] is True and data["planned_ms"] > ROUND_MS
    late = data["at_ms"] - ROUND_MS
    stats = net_stats(prop)
    assert stats["overrun_ms"] <= 1, stats
    assert 0 <= late < 200, "the stop landed %d ms late (net: %r)" % (late, stats)  # a blocked loop: seconds
    if os.getloadavg()[0] < 2 * (os.cpu_count() or 1):  # a host not overloaded wakes us on time
        assert late <= 1, "the stop landed %d ms late (net: %r)" % (late, stats)
    return stop


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"c1": PW, "venue": "venue-pw"}) as b:
        yield b


def test_a_round_over_mqtt_survives_the_broker_dying_and_the_will_says_offline(broker, tmp_path):
    listener = Listener(broker.port)
    # the board's ticks wrap (2^30 ms) 2.5 s after boot: inside the round, the keep-alive and the backoff
    prop = NetProp("clock", "127.0.0.1", broker.port, "c1", user="c1", password=PW, settings=CLOCK,
                   net={"keepalive_s": 5}, env={"VBOARD_TICKS_START": str((1 << 30) - 2500)}).start()
    try:
        state = listener.wait_json("props/c1/state", lambda m: m["state"]["state"] == "idle", 10)
        assert state is not None and state["prop"] == "clock" and state["id"] == "c1"
        assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", 2)
        venue = Listener(broker.port, "venue", "venue-pw", ("props/+/reply",), "test-venue")
        reply = request(venue, "c1", 41, "start_round")
        assert reply is not None and reply["ok"]["state"] == "running", reply
        started = listener.wait_json("props/c1/event", lambda m: m.get("ev") == "start", 2)
        assert started["data"]["max_run_ms"] == ROUND_MS
        # the retained state follows the events: a late subscriber sees the hand turning
        assert listener.wait_json("props/c1/state", lambda m: m["state"]["state"] == "running", 2)
        time.sleep(0.8)
        broker.kill()                                   # the broker dies mid-round
        assert_stop_on_time(prop)
        assert prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "lost", 5)
        broker.start()                                  # it comes back with no retained messages
        late = Listener(broker.port, client_id="late-listener")
        back = late.wait_json("props/c1/state", lambda m: m["state"]["completed"] == 1, 10)
        assert back is not None, "no state republished after reconnecting: %r" % prop.net_events()
        assert late.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", 2)
        lost = prop.net_events("lost")
        assert all(e["retry_ms"] <= 75000 for e in lost) and len(lost) <= 4, lost
        prop.kill()                                     # the power goes: the broker speaks the will
        assert late.wait(lambda t, p, r: t == "props/c1/status" and p == b"offline", 5)
        late.close()
        venue.close()
    finally:
        prop.stop()
        listener.close()


def test_a_broker_that_never_answers_connect_does_not_hold_the_clock(tmp_path):
    accepted = []
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    done = threading.Event()

    def silent():  # takes every connection, reads, answers nothing
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append((time.monotonic(), conn))

    thread = threading.Thread(target=silent, daemon=True)
    thread.start()
    prop = NetProp("clock", "127.0.0.1", server.getsockname()[1], "c1", settings=CLOCK).start()
    try:
        assert prop.wait_event(lambda e: e["ev"] == "boot", 5)
        prop.send(json.dumps({"id": 1, "cmd": "start_round"}))  # the serial link still rules the prop
        assert_stop_on_time(prop)
        lost = prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "lost", 6)
        assert lost is not None and "never answered CONNECT" in lost["data"]["why"]
        assert 750 <= lost["data"]["retry_ms"] <= 1250
        # one connection, then waiting: no flood of attempts while the broker stays silent
        assert 1 <= len(accepted) <= 2, accepted
    finally:
        done.set()
        prop.stop()
        for _, conn in accepted:
            conn.close()
        server.close()


def test_a_wrong_broker_password_is_one_clear_event_and_growing_waits(broker):
    prop = NetProp("clock", "127.0.0.1", broker.port, "c1", user="c1", password="not-" + PW,
                   settings=CLOCK).start()
    try:
        refused = prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "refused", 5)
        assert refused is not None, prop.events
        assert refused["data"]["why"] in ("not authorised", "bad user name or password")
        assert refused["data"]["retry_ms"] >= 3750   # never sooner than 5 s - 25 % after a refusal
        prop.send(json.dumps({"id": 2, "cmd": "start_round"}))
        assert_stop_on_time(prop)
        time.sleep(0.5)
        attempts = broker.log_text().count("New client connected") + broker.log_text().count("not authorised")
        events = prop.net_events("refused")
        assert 1 <= len(events) <= 2, events        # ~3.5 s: at most one more try
        assert len(set(e["retry_ms"] for e in events)) == len(events)
        assert attempts <= 2 * len(events) + 2
    finally:
        prop.stop()


def test_the_net_layers_idle_pass_allocates_nothing(broker):
    """Connected, announced, nothing arriving: 300 passes of Venue.poll with the heap locked."""
    from propctl.sim.runner import VBOARD_DIR, find_micropython
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, MICROPYPATH="%s:%s" % (VBOARD_DIR, root / "firmware" / "lib"))
    done = subprocess.run([find_micropython(), str(root / "tests" / "mp" / "venue_idle.py"),
                           str(broker.port), "c1", PW], capture_output=True, text=True, env=env, timeout=30)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"up": True, "passes": 300, "qos1_acked": True, "error": None}, done.stdout + done.stderr


def fusebox_under(mode, port=0, user="", password="", flood=None):
    """tests/mp/fusebox_net.py in MODE: the result line (and `flood` started once it is ready)."""
    from propctl.sim.runner import VBOARD_DIR, find_micropython
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, MICROPYPATH="%s:%s" % (VBOARD_DIR, root / "firmware" / "lib"))
    script = root / "tests" / "mp" / "fusebox_net.py"
    command = [find_micropython(), "-X", "heapsize=4M", str(script), mode, str(port), user, password]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    result = None
    for line in proc.stdout:
        record = json.loads(line)
        if "ready" in record:
            assert record["ready"] is True
            flood()
        else:
            result = record
    proc.wait(timeout=30)
    return result


def test_the_fuse_box_reads_its_windows_on_time_with_a_silent_or_flooding_broker(broker):
    """Each window's event as soon after its change as with no network at all."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)  # takes connections into its backlog, answers nothing
    try:
        runs = {"none": fusebox_under("none"), "silent": fusebox_under("silent", silent.getsockname()[1])}
    finally:
        silent.close()
    flooder = Listener(broker.port, client_id="flooder")
    stop = threading.Event()

    def flood():
        def run():
            n = 0
            while not stop.is_set() and n < 3000:
                flooder.publish("props/c1/cmd", json.dumps({"id": n, "cmd": "state"}) if n % 2 else b"{junk")
                n += 1
                if n % 50 == 0:
                    time.sleep(0.02)
        threading.Thread(target=run, daemon=True).start()

    try:
        runs["broker"] = fusebox_under("broker", broker.port, "c1", PW, flood)
    finally:
        stop.set()
        flooder.close()
    assert runs["silent"]["connects"] >= 1 and runs["broker"]["up"] is True
    # the flood was taken while the windows opened: answered, or dropped unread as a backlog
    assert runs["broker"]["lines"] + runs["broker"]["dropped"] >= 300, runs["broker"]
    for mode, result in runs.items():
        # The change is seen at the next scan, the event comes at the first scan after the
        # debounce: debounce + two scans from the change. This host is shared and loaded, so
        # one opening now and then comes late in every mode (the baseline without a network
        # too): the median holds the promise, the worst case only has to stay far from what a
        # blocked loop gives (a connect or read waiting on the silent broker: seconds).
        late = sorted(result["late_ms"])
        assert len(late) == 6 and late[0] >= result["debounce_ms"], (mode, runs)
        assert late[-1] <= 250, (mode, runs)
        assert late[2] <= sorted(runs["none"]["late_ms"])[2] + 10, (mode, runs)  # as without a network
        if os.getloadavg()[0] < 2 * (os.cpu_count() or 1):  # see assert_stop_on_time
            assert late[2] <= result["debounce_ms"] + 2 * result["scan_ms"] + 5, (mode, runs)
