"""What the venue tests and the venue bench share: a listener on the broker that records every
message, and waits; the hostile payloads a venue's network may send."""
import json
import random
import socket
import subprocess
import threading
import time
from pathlib import Path

from mosquitto_broker import ADMIN_PASSWORD
from waits import WAIT_S

from propctl.launcher import board_env, command
from propctl.venue.broker import Broker, connect


class Listener:
    """A paho client (user admin by default) subscribed to `topics`, recording every message."""

    def __init__(self, port: int, user: str = "admin", password: str = ADMIN_PASSWORD,
                 topics=("#",), client_id: str = "test-listener") -> None:
        self.messages: list = []  # (monotonic time, topic, payload bytes, retain)
        self._cond = threading.Condition()
        self.client = connect(Broker("127.0.0.1", port, user), password, client_id,
                              on_message=self._on_message, subscribe=topics)

    def _on_message(self, client, userdata, message) -> None:
        with self._cond:
            record = (time.monotonic(), message.topic, bytes(message.payload), bool(message.retain))
            self.messages.append(record)
            self._cond.notify_all()

    def wait(self, predicate, timeout: float, start: int = 0):
        """The first message (topic, payload, retain) from index start for which predicate holds, or None."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for _, topic, payload, retain in self.messages[start:]:
                    if predicate(topic, payload, retain):
                        return topic, payload, retain
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(min(left, 0.2))

    def wait_json(self, topic: str, predicate, timeout: float, start: int = 0):
        """The first JSON payload on `topic` for which predicate holds (or None)."""
        def match(t, payload, retain):
            if t != topic:
                return False
            try:
                return predicate(json.loads(payload))
            except ValueError:
                return False
        found = self.wait(match, timeout, start)
        return json.loads(found[1]) if found else None

    def count(self) -> int:
        with self._cond:
            return len(self.messages)

    def on(self, topic: str) -> list:
        with self._cond:
            return [payload for _, t, payload, _ in self.messages if t == topic]

    def publish(self, topic: str, payload, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=0, retain=retain)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def request(listener: Listener, prop_id: str, request_id: int, cmd: str, args=None, timeout: float = WAIT_S):
    """Send one request on PREFIX/ID/cmd and wait for its reply (a dict, or None)."""
    start = listener.count()
    body = {"id": request_id, "cmd": cmd}
    if args:
        body["args"] = args
    listener.publish("props/%s/cmd" % prop_id, json.dumps(body))
    return listener.wait_json("props/%s/reply" % prop_id, lambda m: m.get("re") == request_id, timeout, start)


def hostile_payloads(rng: random.Random, count: int) -> list:
    """Bytes no well-behaved desktop would send: junk, broken JSON, wrong shapes, huge lines."""
    shapes = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80))),
        lambda: b"{" * rng.randrange(1, 300),
        lambda: b"[" * 200 + b"]" * 200,
        lambda: json.dumps({"id": rng.randrange(-5, 2**40), "cmd": "start_round"}).encode(),
        lambda: json.dumps({"cmd": "x" * rng.randrange(30, 40)}).encode(),
        lambda: json.dumps({"cmd": "report", "args": {"on_clock": [1] * 40, "unused": "no"}}).encode(),
        lambda: json.dumps({"cmd": "new_game", "args": {"players": 2**70}}).encode(),
        lambda: json.dumps({"cmd": "maintenance"}).encode(),
        lambda: json.dumps({"cmd": "help", "extra": 1}).encode(),
        lambda: b"x" * rng.randrange(500, 900),
        lambda: "\u00e9\u0000\ud800".encode("utf-8", "surrogatepass"),
        lambda: json.dumps({"cmd": "stop", "args": {"now": True}}).encode(),
        lambda: b'{"cmd": "state", "args": ' + b'{"a":' * 100 + b"1" + b"}" * 101,
    ]
    return [rng.choice(shapes)() for _ in range(count)]


FUSEBOX_NET = Path(__file__).resolve().parent / "fusebox_net.py"


def fusebox_under(mode: str, port: int = 0, user: str = "", password: str = "", flood=None) -> dict:
    """fusebox_net.py (the fuse box behind the net layer, real time) in MODE: its result line;
    `flood()` is called once it is connected and ready."""
    proc = subprocess.Popen(command([FUSEBOX_NET, mode, port, user, password], "4M"), stdout=subprocess.PIPE,
                            text=True, env=board_env())
    result: dict = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        record = json.loads(line)
        if "ready" in record:
            assert record["ready"] is True
            if flood is not None:
                flood()
        else:
            result = record
    proc.wait(timeout=30)
    return result


def fusebox_windows(broker_port: int, user: str, password: str) -> dict:
    """{mode: fusebox_net.py's result} with no network ("none"), a broker that takes the TCP
    connection and never answers ("silent"), and the real broker at broker_port flooded with
    commands on the prop's cmd topic while the windows open ("broker")."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)  # takes connections into its backlog, answers nothing
    try:
        runs = {"none": fusebox_under("none"), "silent": fusebox_under("silent", silent.getsockname()[1])}
    finally:
        silent.close()
    flooder = Listener(broker_port, client_id="flooder")
    stop = threading.Event()

    def flood() -> None:
        def run() -> None:
            n = 0
            while not stop.is_set() and n < 3000:
                payload = json.dumps({"id": n, "cmd": "state"}) if n % 2 else b"{junk"
                flooder.publish("props/%s/cmd" % user, payload)
                n += 1
                if n % 50 == 0:
                    time.sleep(0.02)
        threading.Thread(target=run, daemon=True).start()

    try:
        runs["broker"] = fusebox_under("broker", broker_port, user, password, flood)
    finally:
        stop.set()
        flooder.close()
    return runs
