"""What the venue docs and `hello` say over the network is what the code does."""
import json
import time

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener, request
from waits import WAIT_S

from propctl.venue.netprop import NetProp


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"d1": "d1-pw"}) as b:
        yield b


def test_hello_over_the_network_lists_no_command_the_network_refuses(broker):
    # Before: caps listed maintenance (and leave) over the network, where both are refused
    listener = Listener(broker.port)
    with NetProp("clock", "127.0.0.1", broker.port, "d1", user="d1", password="d1-pw") as prop:
        assert listener.wait(lambda t, p, r: t == "props/d1/status" and p == b"online", WAIT_S)
        caps = request(listener, "d1", 1, "hello")["ok"]["caps"]
        assert "maintenance" not in caps and "leave" not in caps and "state" in caps, caps
        # the cable still lists them
        start = len(prop.events)
        prop.send(json.dumps({"id": 2, "cmd": "hello"}))
        deadline = time.monotonic() + WAIT_S
        cable = None
        while cable is None and time.monotonic() < deadline:
            cable = next((e["ok"]["caps"] for e in prop.events[start:] if e.get("re") == 2), None)
            time.sleep(0.05)
        assert cable is not None and "maintenance" in cable, prop.events[start:]
    listener.close()
