"""What anything on the broker (or a closed pipe, or a password a board
cannot hold) does to `propctl venue`, `propctl sim --broker` and the firmware: never stops them.

    13  a retained props/deep/state of "[" * 100000: the view counts it and goes on
    14  a retained props/ID/claim: the prop ignores it as it ignores a retained command
    15  `propctl venue --json | head -1`, `propctl sim ... | head -3`: both end, cleanly
    16  --json is strict JSON: a prop's NaN or 1e999 never comes out as NaN / Infinity
    17  a broker password no board can hold is refused before anything starts
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener
from waits import WAIT_S

from propctl.venue.netprop import NetProp
from propctl.venue.view import Venue, dumps_strict, loads_strict

PROPCTL = str(Path(sys.executable).parent / "propctl")
DEEP = b"[" * 100000
NAN_STATE = b'{"prop": "clock", "state": {"state": "idle", "x": NaN, "y": 1e999, "z": -Infinity, "n": 2.5}}'


def strict(line: str):
    """json.loads that refuses NaN / Infinity as strict parsers (RFC 8259) do."""
    def refuse(name):
        raise ValueError("not JSON: %s" % name)
    return json.loads(line, parse_constant=refuse)


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"real1": "real1-pw", "venue": "venue-pw"}) as b:
        yield b


def propctl_env(password="venue-pw"):
    return dict(os.environ, PROPCTL_MQTT_PASSWORD=password)


class Message:
    def __init__(self, topic, payload, retain=False):
        self.topic, self.payload, self.retain = topic, payload, retain


class BadTopic(Message):
    @property
    def topic(self):  # paho decodes the topic when asked: a broker could send one not UTF-8
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    @topic.setter
    def topic(self, value):
        pass


def test_no_message_raises_out_of_on_message_and_each_bad_one_is_counted_and_shown():
    # Before: RecursionError out of on_message (it caught ValueError only): paho's thread died
    records = []
    venue = Venue("props", records.append)
    hostile = [Message("props/deep/state", b"[" * 10000, True),  # under the size bound: parsed
               Message("props/deep2/event", b'{"a":' * 5000 + b"1" + b"}" * 5000),
               Message("props/big/state", b'{"prop": "clock", "pad": "' + b"x" * 100000 + b'"}'),
               Message("props/x/state", b"not json"),
               Message("props/huge/state", b'{"prop": "clock", "n": 1' + b"0" * 5000 + b"}"),
               Message("props/deep/state", DEEP, True),
               BadTopic("?", b"{}")]
    for message in hostile:
        venue.on_message(None, None, message)  # raises nothing
    venue.on_message(None, None, Message("props/real1/status", b"online"))
    assert venue.bad == len(hostile)
    lines = venue.table()
    assert lines[0] == "venue: 1 props, 1 online", lines
    assert lines[-1].startswith("7 bad messages ignored, the last: ?"), lines
    assert all(len(line) <= 80 for line in lines)
    bad = [r for r in records if r.get("broker") == "bad_message"]
    assert [r["topic"] for r in bad[:5]] == ["props/deep/state", "props/deep2/event", "props/big/state",
                                             "props/x/state", "props/huge/state"]
    assert "nested too deep" in bad[0]["why"] and "more than a prop sends" in bad[5]["why"]
    assert bad[-1]["count"] == 7
    assert records[-1] == {"id": "real1", "topic": "status", "data": "online", "retained": False}


def test_json_lines_are_strict_json_whatever_number_a_prop_sends():
    # Before: json.dumps wrote NaN, Infinity and -Infinity, which strict parsers refuse
    records = []
    venue = Venue("props", lambda r: records.append(dumps_strict(r)))
    venue.on_message(None, None, Message("props/n1/state", NAN_STATE, True))
    venue.on_message(None, None, Message("props/n1/event", b'{"ev": "x", "data": {"v": Infinity}}'))
    state = strict(records[0])["data"]["state"]
    assert state == {"state": "idle", "x": "NaN", "y": "1e999", "z": "-Infinity", "n": 2.5}
    assert strict(records[1])["data"]["data"] == {"v": "Infinity"}
    assert loads_strict("[1, 2.0, -0.5]") == [1, 2.0, -0.5]


def start_real1(broker):
    return NetProp("clock", "127.0.0.1", broker.port, "real1", user="real1", password="real1-pw").start()


def test_a_deep_retained_state_stops_neither_the_json_stream_nor_send(broker):
    """The issue's case: a retained props/deep/state of "[" * 100000 on the broker, any
    prop's user may publish it. Before: the table and --json stopped updating, --send said
    "no reply" though the prop answered."""
    admin = Listener(broker.port)
    admin.publish("props/deep/state", DEEP, retain=True)
    admin.publish("props/nan/state", NAN_STATE, retain=True)
    prop = start_real1(broker)
    view = None
    try:
        assert admin.wait(lambda t, p, r: t == "props/real1/status" and p == b"online", WAIT_S)
        url = "mqtt://venue@127.0.0.1:%d" % broker.port
        done = subprocess.run([PROPCTL, "venue", "--broker", url, "--send", "real1", "ping"],
                              capture_output=True, text=True, env=propctl_env(), timeout=30)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["ok"] == {"pong": True}
        view = subprocess.Popen([PROPCTL, "venue", "--broker", url, "--json", "--seconds", "20"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=propctl_env())
        lines = []
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            lines.append(strict(view.stdout.readline()))  # every line strict JSON
            if any(r.get("broker") == "bad_message" for r in lines) and \
                    any(r.get("id") == "real1" and r.get("topic") == "state" for r in lines):
                break
        bad = [r for r in lines if r.get("broker") == "bad_message"]
        assert [r["topic"] for r in bad] == ["props/deep/state"], lines
        # the stream goes on after it: a live event published now comes out
        admin.publish("props/real1/cmd", json.dumps({"id": 5, "cmd": "start_round"}))
        while time.monotonic() < deadline:
            record = strict(view.stdout.readline())
            if record.get("topic") == "event" and record["data"].get("ev") == "start":
                break
        else:
            pytest.fail("no event after the deep message: %r" % lines[-5:])
        nan = [r for r in lines if r.get("id") == "nan"]
        assert nan and nan[0]["data"]["state"]["x"] == "NaN"
        # and the table says what it ignored
        done = subprocess.run([PROPCTL, "venue", "--broker", url, "--seconds", "1"],
                              capture_output=True, text=True, env=propctl_env(), timeout=30)
        assert done.returncode == 0, done.stderr
        table = done.stdout.splitlines()
        assert table[-1].startswith("1 bad message ignored, the last: props/deep/state"), table
        assert any(line.split()[:3] == ["real1", "clock", "online"] for line in table), table
    finally:
        if view is not None:
            view.kill()
            view.wait()
        prop.stop()
        admin.close()


def test_a_retained_claim_does_not_keep_a_prop_off_the_broker(broker):
    # Before: "id taken ... next try in 48.8 s", at every connect, for good
    admin = Listener(broker.port)
    admin.publish("props/real1/claim", b"some-other-board", retain=True)
    time.sleep(0.1)
    prop = start_real1(broker)
    try:
        assert prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "up", WAIT_S)
        # the claim window (net.venue.CLAIM_WINDOW_MS, 2 s) passes with the retained claim delivered
        assert prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] in ("id_taken", "lost"),
                               3) is None, prop.events[-5:]
        assert admin.wait(lambda t, p, r: t == "props/real1/status" and p == b"online", WAIT_S)
        # a live claim of another board is still noticed: the incumbent answers it
        admin.publish("props/real1/claim", b"board-b")
        assert prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "id_conflict", WAIT_S)
    finally:
        prop.stop()
        admin.close()


def test_venue_json_into_head_ends_cleanly(broker):
    # Before: BrokenPipeError in paho's thread, then the view hung with no reader
    admin = Listener(broker.port)
    for n in range(3):
        admin.publish("props/p%d/status" % n, b"online", retain=True)
    time.sleep(0.2)
    url = "mqtt://venue@127.0.0.1:%d" % broker.port
    done = subprocess.run(["bash", "-o", "pipefail", "-c",
                           "'%s' venue --broker '%s' --json | head -1" % (PROPCTL, url)],
                          capture_output=True, text=True, env=propctl_env(), timeout=20)
    admin.close()
    assert done.returncode == 0, done.stderr
    assert strict(done.stdout.strip())["topic"] == "status"
    assert done.stderr == "", done.stderr


def test_sim_into_head_ends_and_takes_its_firmware_with_it(broker, tmp_path):
    # Before: the sim's reader thread died on the closed pipe; the firmware froze once its own
    # pipe filled, while the broker still showed it online
    admin = Listener(broker.port)
    url = "mqtt://real1@127.0.0.1:%d" % broker.port
    pipeline = subprocess.Popen(["bash", "-o", "pipefail", "-c",
                                 "'%s' sim clock --broker '%s' --id real1 | head -3" % (PROPCTL, url)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=propctl_env("real1-pw"))
    try:
        assert admin.wait(lambda t, p, r: t == "props/real1/status" and p == b"online", WAIT_S)
        start = admin.count()
        for n in range(3):  # events to print: the sim finds its stdout closed
            admin.publish("props/real1/cmd", json.dumps({"id": n + 1, "cmd": "start_round"}))
            admin.publish("props/real1/cmd", json.dumps({"id": n + 10, "cmd": "stop"}))
        out, err = pipeline.communicate(timeout=20)
        assert pipeline.returncode == 0, err
        assert len(out.splitlines()) == 3
        assert "Traceback" not in err and "BrokenPipe" not in err, err
        assert admin.wait(lambda t, p, r: t == "props/real1/status" and p == b"offline", 10, start)
    finally:
        if pipeline.poll() is None:
            pipeline.kill()
            pipeline.wait()
        admin.close()


@pytest.mark.parametrize("password, why", [
    ("p\u00e4sswort", "beyond ASCII"),
    ("pass\nword", "line break"),
    ("x" * 65, "65 characters"),
    ("tab\there", "control characters"),
])
@pytest.mark.parametrize("command", [["sim", "clock", "--id", "c1"], ["sim", "serve", "--id", "c1"]])
def test_a_password_no_board_can_hold_is_refused_before_anything_starts(password, why, command, tmp_path):
    # Before: the sim started, its board logged "using none" and the broker said "not authorised"
    argv = [PROPCTL] + command + ["--broker", "mqtt://c1@127.0.0.1:9"]
    if command[1] == "serve":
        argv += ["--flash", str(tmp_path / "flash")]
    done = subprocess.run(argv, capture_output=True, text=True, env=propctl_env(password),
                          stdin=subprocess.DEVNULL, timeout=30)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "a board can hold" in done.stderr and why in done.stderr, done.stderr
    assert password not in done.stdout + done.stderr
    assert not (tmp_path / "flash" / "config.json").exists()


def test_a_password_a_board_holds_starts_the_sim(tmp_path):
    from propctl.venue.broker import check_board_password
    check_board_password("x" * 64)
    check_board_password(" !~ spaces and punctuation are fine")
    check_board_password("")
