"""Home Assistant's MQTT discovery as Home Assistant documents it.

    4  every template rendered with Jinja2 (Home Assistant's sandbox, undefined = error) against
       every state each prop is driven into on a real broker, idle, playing and the error form:
       the sensor says a word of the prop's (before: the football sensor always read "on")
    5  the discovery prefix is a setting; the node id is PREFIX_ID (two venues on one broker
       keep their configs apart); `origin`; net.discovery false and `propctl venue --forget ID`
       leave empty retained configs (Home Assistant removes the entities)
    6  the button is available only while the prop accepts its press: checked by pressing it
       (with the payload Home Assistant sends) in every state
    7  the ACL of docs/venue.md has a Home Assistant user, who reads and presses
Keys: https://www.home-assistant.io/integrations/sensor.mqtt/ and .../button.mqtt/
("Configuration Variables"), https://www.home-assistant.io/integrations/mqtt/ ("MQTT
Discovery": origin, device, the empty retained config).
"""
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment
from mosquitto_broker import VENUE_ACL, Mosquitto
from venue_helpers import Listener
from waits import WAIT_S

from propctl.venue.netprop import NetProp

PROPCTL = str(Path(sys.executable).parent / "propctl")
ROOT = Path(__file__).resolve().parents[2]

# Home Assistant renders MQTT templates in an immutable sandbox; an undefined name here is an
# error, not the empty string (and a warning in its log) Home Assistant would make of it
HA = ImmutableSandboxedEnvironment(undefined=StrictUndefined)

COMMON = {"availability", "availability_mode", "availability_template", "availability_topic",
          "device", "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon",
          "json_attributes_template", "json_attributes_topic", "name", "object_id", "default_entity_id",
          "origin", "payload_available", "payload_not_available", "platform", "qos", "unique_id"}
DOCUMENTED = {
    "sensor": COMMON | {"device_class", "expire_after", "force_update", "last_reset_value_template",
                        "options", "state_class", "state_topic", "suggested_display_precision",
                        "unit_of_measurement", "value_template"},
    "button": COMMON | {"command_template", "command_topic", "device_class", "payload_press", "retain"},
}
REQUIRED = {"sensor": {"state_topic"}, "button": {"command_topic"}}
DEVICE_KEYS = {"configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model",
               "model_id", "name", "serial_number", "suggested_area", "sw_version", "via_device"}
ORIGIN_KEYS = {"name", "sw_version", "support_url"}
AVAILABILITY_KEYS = {"topic", "payload_available", "payload_not_available", "value_template"}

WORDS = {"clock": {"idle", "running", "chiming", "fault", "error"},
         "fusebox": {"idle", "round", "blown", "error"},
         "football": {"toss", "toss_choice", "goal_choice", "kickoff", "scrimmage", "onside", "punt",
                      "field_goal", "attempt", "choose", "penalty", "conversion", "over", "half_choice",
                      "counting", "error"}}


def render(template: str, payload: bytes) -> str:
    text = payload.decode()
    return HA.from_string(template).render(value_json=json.loads(text), value=text).strip()


def check_keys(component: str, config: dict) -> None:
    assert set(config) <= DOCUMENTED[component], set(config) - DOCUMENTED[component]
    assert REQUIRED[component] <= set(config)
    assert set(config["device"]) <= DEVICE_KEYS and config["device"]["identifiers"]
    assert set(config["origin"]) <= ORIGIN_KEYS and config["origin"]["name"]
    assert not ("availability" in config and "availability_topic" in config)  # "must not be used together"
    for entry in config.get("availability", []):
        assert set(entry) <= AVAILABILITY_KEYS and "topic" in entry
    if "availability" in config:
        assert config["availability_mode"] in ("all", "any", "latest")


class HomeAssistant:
    """What Home Assistant does with one prop's two configs: the sensor's value and the
    button's availability from the latest messages, a press on the command topic."""

    def __init__(self, listener: Listener, sensor: dict, button: dict) -> None:
        self.listener, self.sensor, self.button = listener, sensor, button

    def state_payload(self) -> bytes:
        return self.listener.on(self.sensor["state_topic"])[-1]

    def value(self, payload=None) -> str:
        return render(self.sensor["value_template"], payload or self.state_payload())

    def available(self, payload=None) -> bool:
        """availability_mode all: the status is online and the state's template says online."""
        verdicts = []
        for entry in self.button["availability"]:
            if entry["topic"] == self.sensor["state_topic"]:
                message = payload or self.state_payload()
            else:
                message = self.listener.on(entry["topic"])[-1]
            verdicts.append(render(entry["value_template"], message) if "value_template" in entry
                            else message.decode())
        assert all(v in ("online", "offline") for v in verdicts), verdicts
        return all(v == "online" for v in verdicts)

    def press(self, timeout: float = 5.0) -> dict:
        """The button pressed (its payload_press, as Home Assistant sends it): the prop's reply."""
        reply_topic = self.button["command_topic"].rsplit("/", 1)[0] + "/reply"
        start = self.listener.count()
        self.listener.publish(self.button["command_topic"], self.button["payload_press"])
        found = self.listener.wait(lambda t, p, r: t == reply_topic, timeout, start)
        assert found is not None, "no reply to the press"
        return json.loads(found[1])

    def settle(self, predicate, timeout: float = 5.0) -> bytes:
        """The prop's retained state once `predicate(state)` holds (the state follows events)."""
        topic = self.sensor["state_topic"]
        found = self.listener.wait_json(topic, lambda m: predicate(m["state"]), timeout)
        assert found is not None, self.listener.on(topic)[-1:]
        deadline = time.monotonic() + timeout
        while not predicate(json.loads(self.state_payload())["state"]):  # the newest one too
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return self.state_payload()


def error_form(payload: bytes) -> bytes:
    """The state document's error form (net.venue.state_document: a state that cannot be read
    or does not fit): {"error": ...} in place of the state."""
    doc = json.loads(payload)
    doc["state"] = {"error": "state of 4000 bytes is larger than the net buffer"}
    return json.dumps(doc).encode()


def check_error_form(ha: HomeAssistant, prop: str) -> None:
    bad = error_form(ha.state_payload())
    assert ha.value(bad) == "error"
    assert ha.available(bad) is False


def configs(listener: Listener, node: str, prefix: str = "homeassistant") -> tuple:
    sensor = listener.wait_json("%s/sensor/%s/state/config" % (prefix, node), lambda m: True, WAIT_S)
    button = listener.wait_json("%s/button/%s/main/config" % (prefix, node), lambda m: True, WAIT_S)
    assert sensor is not None and button is not None, (node, listener.messages[-5:])
    check_keys("sensor", sensor)
    check_keys("button", button)
    return sensor, button


@pytest.fixture
def broker(tmp_path):
    users = {"c1": "c1-pw", "f1": "f1-pw", "f2": "f2-pw", "b1": "b1-pw", "venue": "venue-pw",
             "homeassistant": "ha-pw"}
    with Mosquitto(tmp_path / "broker", users) as b:
        yield b


def netprop(broker, prop, pid, **kw):
    net = {"discovery": True}
    net.update(kw.pop("net", {}))
    return NetProp(prop, "127.0.0.1", broker.port, pid, user=pid, password=pid + "-pw", net=net, **kw)


def test_the_clock_sensor_and_button_in_every_state(broker):
    listener = Listener(broker.port)
    prop = netprop(broker, "clock", "c1", settings={"clock": {"max_run_ms": 1500, "seed": 3}}).start()
    try:
        sensor, button = configs(listener, "props_c1")
        assert sensor["origin"]["name"] == "game props" and sensor["unique_id"] == "props_c1_state"
        ha = HomeAssistant(listener, sensor, button)
        assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", WAIT_S)
        idle = ha.settle(lambda s: s["state"] == "idle")
        assert ha.value(idle) == "idle" and ha.available(idle) is True
        assert "ok" in ha.press()                              # available: the press is taken
        running = ha.settle(lambda s: s["state"] == "running")
        assert ha.value(running) == "running" and ha.available(running) is False
        assert ha.press()["err"] == "refused"                  # unavailable: it would be refused
        chiming = ha.settle(lambda s: s["state"] == "chiming")
        assert ha.value(chiming) == "chiming" and ha.available(chiming) is False
        again = ha.settle(lambda s: s["state"] == "idle", 10)
        assert ha.value(again) == "idle" and ha.available(again) is True
        check_error_form(ha, "clock")
        for payload in listener.on("props/c1/state"):   # every state the prop published
            assert ha.value(payload) in WORDS["clock"]
    finally:
        prop.stop()
        listener.close()


def test_the_fuse_box_button_only_with_a_card_pack(broker, tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    from test_card_pack_path import packed_sample_deck
    listener = Listener(broker.port)
    flash = tmp_path / "f2"
    (flash / "cards").mkdir(parents=True)
    (flash / "cards" / "taskcards.bin").write_bytes(packed_sample_deck())
    manual = netprop(broker, "fusebox", "f1").start()
    packed = netprop(broker, "fusebox", "f2", folder=flash).start()
    try:
        for pid, has_pack in (("f1", False), ("f2", True)):
            sensor, button = configs(listener, "props_" + pid)
            ha = HomeAssistant(listener, sensor, button)
            assert listener.wait(lambda t, p, r, pid=pid: t == "props/%s/status" % pid and p == b"online",
                                 WAIT_S)
            idle = ha.settle(lambda s: s["state"] == "idle")
            assert ha.value(idle) == "idle"
            assert ha.available(idle) is has_pack
            reply = ha.press()
            assert ("ok" in reply) is has_pack, reply       # before: "Next card" offered, then refused
            if not has_pack:
                assert "manual mode" in reply["msg"]
            check_error_form(ha, "fusebox")
            for payload in listener.on("props/%s/state" % pid):
                assert ha.value(payload) in WORDS["fusebox"]
    finally:
        manual.stop()
        packed.stop()
        listener.close()


def test_the_football_sensor_says_the_phase_and_the_button_follows_the_game(broker):
    # Before: value_template {{ value_json.state.state | default('on') }}: the football
    # state has no "state" key, so the sensor read "on" whatever the game did
    listener = Listener(broker.port)
    prop = netprop(broker, "football", "b1", settings={"football": {"seed": 12}}).start()
    admin = listener
    try:
        sensor, button = configs(listener, "props_b1")
        ha = HomeAssistant(listener, sensor, button)
        assert listener.wait(lambda t, p, r: t == "props/b1/status" and p == b"online", WAIT_S)
        toss = ha.settle(lambda s: s["phase"] == "toss")
        assert ha.value(toss) == "toss" and ha.available(toss) is True
        assert "ok" in ha.press()
        choice = ha.settle(lambda s: s["phase"] == "toss_choice")
        assert ha.value(choice) == "toss_choice" and ha.available(choice) is False
        assert ha.press()["err"] == "refused"
        from venue_helpers import request
        steps = [("report", {"action": "kick"}), ("report", {"action": "goal", "pick": "north"}),
                 ("report", {"action": "in_field", "yards": 60})]
        for n, (cmd, args) in enumerate(steps):
            assert "ok" in request(admin, "b1", 10 + n, cmd, args)
            time.sleep(0.4)  # the state follows at most 4 times a second
            payload = ha.state_payload()
            phase = json.loads(payload)["state"]["phase"]
            assert ha.value(payload) == phase and phase in WORDS["football"]
            verdict = ha.available(payload)
            actions = json.loads(payload)["state"]["actions"]
            assert verdict == ("roll" in actions or "toss" in actions), (phase, actions)
        assert request(admin, "b1", 20, "kick_start")["ok"]["box"] == "counting"
        counting = ha.settle(lambda s: s["box"] == "counting")
        assert ha.value(counting) == "counting" and ha.available(counting) is False
        assert ha.press()["err"] == "refused"
        check_error_form(ha, "football")
        values = {ha.value(p) for p in listener.on("props/b1/state")}
        assert values <= WORDS["football"] and "on" not in values and len(values) >= 4, values
    finally:
        prop.stop()
        listener.close()


def test_prefix_setting_two_venues_and_removal_when_discovery_goes_off(broker):
    listener = Listener(broker.port)
    # the same id in two venues (net.prefix a and b): two nodes, nothing overwritten
    props = [NetProp("clock", "127.0.0.1", broker.port, "c1", user="admin", password="admin-pw-7Q",
                     net={"discovery": True, "prefix": venue, "discovery_prefix": "ha2"}, uid="u-" + venue)
             for venue in ("a", "b")]
    for prop in props:
        prop.start()
    try:
        for venue in ("a", "b"):
            sensor, _ = configs(listener, "%s_c1" % venue, "ha2")
            assert sensor["state_topic"] == "%s/c1/state" % venue
        assert not [t for _, t, _, _ in listener.messages if t.startswith("homeassistant/")]
    finally:
        for prop in props:
            prop.stop()
    # the same prop with discovery turned off: its configs are removed (empty, retained)
    start = listener.count()
    off = NetProp("clock", "127.0.0.1", broker.port, "c1", user="admin", password="admin-pw-7Q",
                  net={"discovery": False, "prefix": "a", "discovery_prefix": "ha2"}, uid="u-a").start()
    try:
        for component, obj in (("sensor", "state"), ("button", "main")):
            topic = "ha2/%s/a_c1/%s/config" % (component, obj)
            assert listener.wait(lambda t, p, r, topic=topic: t == topic and p == b"", 10, start), topic
        late = Listener(broker.port, client_id="late", topics=("ha2/#",))
        time.sleep(0.5)
        assert sorted(t for _, t, p, _ in late.messages) == ["ha2/button/b_c1/main/config",
                                                             "ha2/sensor/b_c1/state/config"]
        late.close()
    finally:
        off.stop()
        listener.close()


def propctl(*args, password="venue-pw"):
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD=password)
    return subprocess.run([PROPCTL, *args], capture_output=True, text=True, env=env, timeout=30)


def test_forget_removes_a_gone_prop_and_its_entities_but_not_while_it_is_online(broker):
    url = "mqtt://venue@127.0.0.1:%d" % broker.port
    listener = Listener(broker.port)
    # what earlier firmware left: a config under the id alone
    listener.publish("homeassistant/sensor/c1/state/config", b'{"name": "State"}', retain=True)
    prop = netprop(broker, "clock", "c1").start()
    try:
        configs(listener, "props_c1")
        assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", WAIT_S)
        done = propctl("venue", "--broker", url, "--forget", "c1")
        assert done.returncode == 1 and "c1 is online" in done.stderr, done
    finally:
        prop.stop()  # SIGTERM: the will says offline
    assert listener.wait(lambda t, p, r: t == "props/c1/status" and p == b"offline", WAIT_S)
    done = propctl("venue", "--broker", url, "--forget", "c1")
    assert done.returncode == 0, done.stderr
    removed = sorted(line.split()[1] for line in done.stdout.splitlines())
    assert removed == ["homeassistant/button/props_c1/main/config", "homeassistant/sensor/c1/state/config",
                       "homeassistant/sensor/props_c1/state/config", "props/c1/state", "props/c1/status"]
    late = Listener(broker.port, client_id="late", topics=("homeassistant/#", "props/#"))
    time.sleep(0.5)
    assert late.messages == []
    late.close()
    # the table no longer lists it
    done = propctl("venue", "--broker", url, "--seconds", "0.5")
    assert done.stdout.splitlines()[0] == "venue: 0 props, 0 online"
    done = propctl("venue", "--broker", url, "--forget", "c1")
    assert done.returncode == 0 and "holds nothing retained" in done.stdout
    # a user the ACL gives no such writes: said so, exit 1
    listener.publish("props/c2/status", b"offline", retain=True)
    done = propctl("venue", "--broker", "mqtt://homeassistant@127.0.0.1:%d" % broker.port,
                   "--forget", "c2", password="ha-pw")
    assert done.returncode == 1 and "kept 1 of them" in done.stderr, done
    listener.close()


def test_home_assistants_user_reads_the_configs_and_presses_the_button(broker):
    prop = netprop(broker, "clock", "c1").start()
    ha_client = Listener(broker.port, "homeassistant", "ha-pw",
                         ("homeassistant/#", "props/+/state", "props/+/status", "props/+/reply"), "ha")
    try:
        sensor, button = configs(ha_client, "props_c1")
        ha = HomeAssistant(ha_client, sensor, button)
        assert ha_client.wait(lambda t, p, r: t == "props/c1/status" and p == b"online", WAIT_S)
        ha.settle(lambda s: s["state"] == "idle")
        assert "ok" in ha.press()
        ha_client.publish("homeassistant/status", b"online")  # its birth message: allowed
    finally:
        prop.stop()
        ha_client.close()
    denied = [line for line in broker.log_text().splitlines() if "Denied" in line]
    assert not [line for line in denied if "homeassistant" in line or "from ha " in line], denied


def test_the_docs_acl_is_the_one_the_tests_run():
    text = (ROOT / "docs" / "venue.md").read_text()
    block = re.search(r"The ACL, `/etc/mosquitto/venue.acl`.*?```\n(.*?)```", text, re.S)
    assert block is not None
    assert block.group(1) == VENUE_ACL.format(prefix="props")
