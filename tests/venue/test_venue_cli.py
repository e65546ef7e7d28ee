"""propctl venue and propctl sim --broker against a private Mosquitto; Home Assistant discovery;
the desktop's handling of broker addresses and passwords (deploy included)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener
from waits import WAIT_S, wait_until

from propctl.build import FIRMWARE_DIR
from propctl.venue import secrets
from propctl.venue.broker import BrokerError, parse_url
from propctl.venue.netprop import NetProp
from propctl.venue.view import Venue

PROPCTL = str(Path(sys.executable).parent / "propctl")


class Message:
    def __init__(self, topic, payload, retain=False):
        self.topic, self.payload, self.retain = topic, payload, retain


def test_the_table_fits_80x24_with_more_props_than_rows():
    venue = Venue("props")
    for i in range(30):
        pid = "a-very-long-prop-id-%02d" % i
        venue.on_message(None, None, Message("props/%s/status" % pid, b"online" if i % 2 else b"offline"))
        venue.on_message(None, None, Message("props/%s/state" % pid, json.dumps(
            {"prop": "football", "last_event": "touchdown", "state": {"phase": "kickoff_choice",
                                                                       "score": [14, 7]}}).encode()))
    venue.on_message(None, None, Message("props/x/state", b"not json"))
    venue.on_message(None, None, Message("props/zz/event", b'{"ev": "\\u001b[2J\\u001b[31mgotcha"}'))
    venue.on_message(None, None, Message("other/x/state", b"{}"))
    lines = venue.table()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert lines[0] == "venue: 31 props, 16 online"  # not json, another prefix: no prop
    assert "a-very-long-pr football offline kickoff_choi touchdown      14 7" in lines
    assert lines[-2] == "... and 11 more (--json lists every prop)"
    assert lines[-1].startswith("1 bad message ignored, the last: props/x/state (not JSON")
    venue.props = {"zz": venue.props["zz"]}
    assert venue.table()[2].split()[4] == "?[2J?[31mgotch"  # no escape reaches the terminal


@pytest.mark.parametrize("url, why", [
    ("mqtt://u:secret@host", "does not go into the broker URL"),
    ("http://host", "mqtt://HOST:PORT"),
    ("mqtt://:1883", "names no host"),
    ("mqtt://host:99999", "port must be a number"),
])
def test_broker_urls_that_cannot_work_are_refused_with_the_reason(url, why):
    with pytest.raises(BrokerError, match=why):
        parse_url(url)


def test_a_broker_url_with_user_and_port():
    assert parse_url("mqtt://venue@10.0.0.5:1884") == ("10.0.0.5", 1884, "venue", False)
    assert parse_url("localhost") == ("localhost", 1883, "", False)
    assert parse_url("mqtts://venue@pi") == ("pi", 8883, "venue", True)


def test_deploy_takes_passwords_from_a_file_or_prompt_and_never_shows_them(tmp_path):
    done = subprocess.run([PROPCTL, "deploy", "--port", str(tmp_path / "none"), "--prop", "clock", "--board",
                           "pico", "--set", "net.broker_password=hunter2"], capture_output=True, text=True)
    assert done.returncode == 2 and "--secrets FILE or --ask-passwords" in done.stderr
    assert "hunter2" not in done.stderr + done.stdout
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"password": "wifi-hunter2", "broker_password": "mqtt-hunter2"}))
    expected = {"net": {"password": "wifi-hunter2", "broker_password": "mqtt-hunter2"}}
    assert secrets.from_file(str(path)) == expected
    path.write_text(json.dumps({"password": 5}))
    with pytest.raises(secrets.SecretsError, match="password must be text"):
        secrets.from_file(str(path))
    answers = iter(["wifi-hunter2", ""])
    assert secrets.ask(lambda prompt: next(answers)) == {"net": {"password": "wifi-hunter2"}}
    shown = secrets.hidden(json.dumps({"prop": "clock", "net": {"password": "wifi-hunter2",
                                                                "broker_password": "", "ssid": "cafe"}}))
    assert "hunter2" not in shown and '"(hidden)"' in shown and '"cafe"' in shown


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"c1": "c1-pw", "f1": "f1-pw", "venue": "venue-pw"}) as b:
        yield b


def propctl(*args, password="venue-pw", timeout=30):
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD=password)
    return subprocess.run([PROPCTL, *args], capture_output=True, text=True, env=env, timeout=timeout)


def test_sim_on_a_broker_and_propctl_venue_see_and_command_it(broker, tmp_path):
    url = "mqtt://venue@127.0.0.1:%d" % broker.port
    sims = []
    for prop, pid in (("clock", "c1"), ("fusebox", "f1")):
        env = dict(os.environ, PROPCTL_MQTT_PASSWORD="%s-pw" % pid)
        # no terminal: stdin closed, output to a file, as under nohup
        log = open(tmp_path / ("%s.log" % pid), "w")
        own_url = "mqtt://%s@127.0.0.1:%d" % (pid, broker.port)
        sims.append(subprocess.Popen([PROPCTL, "sim", prop, "--broker", own_url, "--id", pid],
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env))
    try:
        listener = Listener(broker.port)
        for topic in ("props/c1/status", "props/f1/status"):
            assert listener.wait(lambda t, p, r, topic=topic: t == topic and p == b"online", WAIT_S), topic
        done = propctl("venue", "--broker", url, "--seconds", "0.5")
        assert done.returncode == 0, done.stderr
        table = done.stdout.splitlines()
        assert table[0] == "venue: 2 props, 2 online"
        assert any(line.split()[:4] == ["c1", "clock", "online", "idle"] for line in table), table
        assert any(line.split()[:3] == ["f1", "fusebox", "online"] for line in table), table
        done = propctl("venue", "--broker", url, "--send", "c1", "start_round", '{"seed": 7}')
        assert done.returncode == 0 and json.loads(done.stdout)["ok"]["state"] == "running", done
        # sent at QoS 1, taken at QoS 1: the prop acknowledged the request
        assert "Received PUBACK from props-c1-" in broker.log_text()
        done = propctl("venue", "--broker", url, "--send", "c1", "new_game", '{"players": 9}')
        assert done.returncode == 1 and json.loads(done.stdout)["err"] == "refused"
        done = propctl("venue", "--broker", url, "--send", "c1", "new_game", "[1]")
        assert done.returncode == 2 and "JSON object" in done.stderr
        done = propctl("venue", "--broker", url, "--send", "nobody", "ping", "--seconds", "0.5")
        assert done.returncode == 1 and "no reply from nobody" in done.stderr
        done = propctl("venue", "--broker", url, "--json", "--seconds", "0.5")
        records = [json.loads(line) for line in done.stdout.splitlines()]
        statuses = {(r["id"], r["data"]) for r in records if r["topic"] == "status"}
        assert statuses == {("c1", "online"), ("f1", "online")}
        assert any(r["topic"] == "state" and r["id"] == "c1" and r["data"]["state"]["state"] == "running"
                   for r in records)
        done = propctl("venue", "--broker", url, "--seconds", "0.5", password="wrong")
        assert done.returncode == 1 and "refused the login" in done.stderr
        sims[0].send_signal(signal.SIGTERM)             # the clock's sim stops: its will says offline
        assert sims[0].wait(timeout=10) == 0
        assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"offline", WAIT_S)
        listener.close()
    finally:
        for sim in sims:
            if sim.poll() is None:
                sim.kill()
                sim.wait()


def test_home_assistant_discovery_documents(broker):
    listener = Listener(broker.port)
    with NetProp("fusebox", "127.0.0.1", broker.port, "f1", user="f1", password="f1-pw",
                 net={"discovery": True}):
        sensor = listener.wait_json("homeassistant/sensor/props_f1/state/config", lambda m: True, WAIT_S)
        button = listener.wait_json("homeassistant/button/props_f1/main/config", lambda m: True, WAIT_S)
    listener.close()
    assert sensor["state_topic"] == "props/f1/state" and sensor["availability_topic"] == "props/f1/status"
    assert sensor["unique_id"] == "props_f1_state" and sensor["device"]["model"] == "fusebox"
    assert button["command_topic"] == "props/f1/cmd"
    assert json.loads(button["payload_press"]) == {"cmd": "next_card"}
    assert button["device"] == sensor["device"] and button["name"] == "Next card"
    assert button["availability"][0] == {"topic": "props/f1/status"}  # more: tests/venue/test_venue_ha.py
    # retained on the broker: a Home Assistant that starts later still finds the prop
    late = Listener(broker.port, client_id="late")
    assert late.wait(lambda t, p, r: t == "homeassistant/button/props_f1/main/config" and r, WAIT_S)
    late.close()


def test_sim_serve_joins_the_broker_with_what_is_on_its_flash(broker, tmp_path):
    """A served virtual board with the firmware on its flash (as deploy leaves it) joins the broker
    that --broker names; the password goes into config.json (0600) and nowhere it prints."""
    import shutil

    from propctl.build import FIRMWARE_DIR
    flash = tmp_path / "flash"
    shutil.copytree(FIRMWARE_DIR / "lib", flash / "lib")
    shutil.copy(FIRMWARE_DIR / "main.py", flash / "main.py")
    (flash / "config.json").write_text(json.dumps({"prop": "clock", "board": "pico"}))
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD="c1-pw")
    serve = subprocess.Popen([PROPCTL, "sim", "serve", "--flash", str(flash), "--broker",
                              "mqtt://c1@127.0.0.1:%d" % broker.port, "--id", "c1"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             env=env, text=True)
    listener = Listener(broker.port)
    try:
        assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", WAIT_S)
        venue_url = "mqtt://venue@127.0.0.1:%d" % broker.port
        done = propctl("venue", "--broker", venue_url, "--send", "c1", "ping")
        assert done.returncode == 0 and json.loads(done.stdout)["ok"] == {"pong": True}
        config = json.loads((flash / "config.json").read_text())
        assert config["prop"] == "clock" and config["net"]["broker_password"] == "c1-pw"
        assert (flash / "config.json").stat().st_mode & 0o077 == 0
    finally:
        serve.terminate()
        output = serve.communicate(timeout=10)[0]
        listener.close()
    assert "on the broker as c1" in output and "c1-pw" not in output


def test_without_mosquitto_the_venue_leg_skips_saying_so_and_ci_fails(monkeypatch):
    import mosquitto_broker
    monkeypatch.setattr(mosquitto_broker.shutil, "which", lambda name: None)
    monkeypatch.setattr(mosquitto_broker.os, "access", lambda path, mode: False)
    monkeypatch.delenv("PROPS_REQUIRE_MOSQUITTO", raising=False)
    with pytest.raises(pytest.skip.Exception, match="mosquitto is not installed.*apt-get install mosquitto"):
        mosquitto_broker.mosquitto_binary()
    monkeypatch.setenv("PROPS_REQUIRE_MOSQUITTO", "1")
    with pytest.raises(pytest.fail.Exception, match="venue tests cannot run: mosquitto is not installed"):
        mosquitto_broker.mosquitto_binary()


def test_a_prop_without_a_broker_never_loads_the_net_layer(tmp_path):
    """The firmware without lib/net at all still boots and answers: no net section, no import."""
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, firmware, ignore=shutil.ignore_patterns("net", "__pycache__"))
    assert not (firmware / "lib" / "net").exists()
    with NetProp("fusebox", "", 1883, "f1", firmware_dir=firmware, net={"broker": ""}) as prop:
        assert prop.wait_event(lambda e: e["ev"] == "boot", WAIT_S)
        prop.send(json.dumps({"id": 4, "cmd": "state"}))
        wait_until(lambda: any(e.get("re") == 4 for e in prop.events))
        assert any(e.get("re") == 4 and "ok" in e for e in prop.events), prop.events + prop.other
        assert not any(e.get("ev") in ("fault", "net") for e in prop.events)


def test_the_network_gets_its_slice_only_with_time_to_spare_or_when_starved():
    from propctl.sim.runner import find_micropython
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE_DIR / "lib"))
    done = subprocess.run([find_micropython(), str(Path(__file__).parent / "mp_netport_slices.py")],
                          capture_output=True, text=True, env=env, timeout=30)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # 1000 waits of 1 ms: a slice every 100 ms (at 100, 200 ... 900); waits of 5 ms: every time;
    # a 3 ms slice comes off the 5 ms wait
    assert result == {"short_waits_polled": 9, "long_waits_polled": 100, "waits_after_slice": [2, 2, 2]}, done


def test_the_waits_at_a_missing_broker_double():
    # Before: a prop up for 10 s took every refused connect for the end of a long connection
    # and started the backoff over: it knocked about once a second forever (seen at a killed
    # Mosquitto: 'next try in 0.8 s', 0.7, 1.0, 0.7 ...), not 1, 2, 4 ... 60 s as documented
    from propctl.sim.runner import find_micropython
    with socket.socket() as sock:  # a port on which nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE_DIR / "lib"))
    done = subprocess.run([find_micropython(), str(Path(__file__).parent / "mp_venue_backoff.py"),
                           str(port)], capture_output=True, text=True, env=env, timeout=30)
    retries = json.loads(done.stdout.strip().splitlines()[-1])["retries"]
    assert len(retries) == 5, done
    for n, wait in enumerate(retries):  # 1 s, 2 s, 4 s, then 7 s (net.backoff.MAX_MS), each +-25 %
        base = min(1000 * 2 ** n, 7000)
        assert base * 3 // 4 <= wait <= base * 5 // 4, retries


def test_the_table_says_when_the_venue_has_lost_the_broker(broker):
    # Before: with the broker killed the table went on showing every prop online as last seen,
    # with nothing to say the picture had stopped; it now says so, and again when it is back
    from propctl.venue.broker import connect
    venue = Venue("props")
    client = connect(parse_url("mqtt://venue@127.0.0.1:%d" % broker.port), "venue-pw", "t-lost",
                     on_message=venue.on_message, subscribe=venue.topics(),
                     on_connection=venue.connection)
    try:
        assert venue.table()[0].startswith("venue: 0 props")
        broker.kill()
        wait_until(lambda: "lost" in venue.table()[0], poll=0.02)
        assert venue.table()[0].startswith("venue: lost the broker"), venue.table()[0]
        assert len(venue.table()[0]) <= 80, venue.table()[0]
        broker.start()
        wait_until(lambda: "lost" not in venue.table()[0])  # paho tries again after 1 s, then 2 s
        assert venue.table()[0].startswith("venue: 0 props"), venue.table()[0]
        client.loop_stop()
        client.disconnect()  # our own goodbye is no lost broker (--json said so at every end)
        assert not venue.lost
    finally:
        client.loop_stop()
        client.disconnect()
