"""What the venue tests share: a listener on the broker that records every message, and waits."""
import json
import threading
import time

from mosquitto_broker import ADMIN_PASSWORD

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


def request(listener: Listener, prop_id: str, request_id: int, cmd: str, args=None, timeout: float = 5.0):
    """Send one request on PREFIX/ID/cmd and wait for its reply (a dict, or None)."""
    start = listener.count()
    body = {"id": request_id, "cmd": cmd}
    if args:
        body["args"] = args
    listener.publish("props/%s/cmd" % prop_id, json.dumps(body))
    return listener.wait_json("props/%s/reply" % prop_id, lambda m: m.get("re") == request_id, timeout, start)
