"""Hostile bytes on the served virtual board's serial line: control bytes, invalid UTF-8, noise.

The board is `propctl sim --serve`'s VirtualBoard with main.py and the firmware's sources on its
flash (no deploy needed), running the clock prop in runtime.Runtime, as on a board. Ctrl-C (0x03),
Ctrl-D, Ctrl-B and Ctrl-A are ordinary bytes while the prop runs, always, mpremote's own interrupt
(CR, Ctrl-C, CR) included; only a maintenance boot gives the REPL (tests/serial_link/test_deploy_e2e.py checks
that mpremote works after `maintenance` and gets no REPL before it).
"""
import json
import random
import shutil
import time
from pathlib import Path

import pytest
from served_board import hello_until, wait_stable

from propctl.serial_link.linkclient import LinkClient
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
CONTROL = [b for b in range(32) if b != 10]  # a newline ends the line



@pytest.fixture(scope="module")
def board(tmp_path_factory):
    flash = tmp_path_factory.mktemp("flash")
    shutil.copy(FIRMWARE / "main.py", flash / "main.py")
    shutil.copytree(FIRMWARE / "lib", flash / "lib", ignore=shutil.ignore_patterns("__pycache__"))
    (flash / "config.json").write_text(json.dumps({"prop": "clock", "board": "pico"}))
    served = VirtualBoard(flash).start()
    try:
        hello_until(served.port, lambda info: info.get("mode") == "run")
        wait_stable(flash)  # past the boot guard's stable time
        yield served
    finally:
        served.stop()


def ping(client, timeout=5.0):
    """The board answers ping (and the clock prop its own state command): it still runs the prop."""
    assert client.request("ping", timeout=timeout) == {"pong": True}
    return client.request("state", timeout=timeout)


def test_control_bytes_inside_and_between_lines_are_data_and_the_prop_runs_on(board):
    boots = board.boots
    sent = [b"xx\x03yy\n", b"\x03", b"\x03\n", b"ab\x04cd\n", b"\x04", b"\n", b"\x02", b"\x01\n",
            b"\x01", b"{\"cmd\": \"pi\x03ng\"}\n", b"\x03\x03\x03", b"yy\n", b"\x02zz\x01\n"]
    with LinkClient.open(board.port) as client:
        for chunk in sent:
            client.stream.write(chunk)
            time.sleep(0.02)  # separate reads on the board: bytes between lines, not just inside
        state = ping(client)
        assert state["state"] == "idle"
        # the link still routes to the prop, so the prop's own commands work
        assert client.request("start_round", {"seed": 3})["state"] == "running"
        assert client.request("stop")["state"] == "idle"
        assert client.request("hello")["mode"] == "run"
    assert board.boots == boots  # no reset, no REPL: the same boot answers


# mpremote's interrupt and raw-REPL entry: a running prop takes them as data like any byte
MPREMOTE_INTERRUPTS = [b"\r\x03\r", b"\r\x03\x03\r", b"\r\x03\x03\r\x01", b"\r\x03\x03\r\x01\x04",
                       b"\r\x01\x03\x03\r\x01\x05A\x01"]


def test_mpremotes_interrupt_is_data_while_the_prop_runs(board):
    boots = board.boots
    with LinkClient.open(board.port) as client:
        for sequence in MPREMOTE_INTERRUPTS:
            client.stream.write(sequence)
            time.sleep(0.05)  # each sequence in reads of its own, as mpremote sends it
            client.stream.write(b"\n")  # end whatever line the bytes left open
            state = ping(client)
            assert state["state"] in ("idle", "running"), (sequence, state)
        # inside a request line too: the line is answered (an error), then the prop goes on
        client.stream.write(b'{"cmd": "ping"}\r\x03\r{"cmd": "ping"}\n')
        assert client.request("start_round", {"seed": 4})["state"] == "running"
        client.stream.write(b"\r\x03\r\r\x03\x03\r")
        time.sleep(0.05)
        client.stream.write(b"\n")
        assert client.request("state")["state"] == "running"  # the hand turns on through it
        assert client.request("stop")["state"] == "idle"
        assert client.request("hello")["mode"] == "run"
    assert board.boots == boots  # no reset, no REPL: the same boot answers


def random_line(rng):
    """One line of noise: control bytes 0x00-0x1f (no newline), invalid UTF-8, text, JSON bits."""
    pieces = []
    for _ in range(rng.randint(0, 12)):
        kind = rng.randint(0, 4)
        if kind == 0:
            pieces.append(bytes(rng.choice(CONTROL) for _ in range(rng.randint(1, 4))))
        elif kind == 1:
            pieces.append(bytes(rng.randint(0x80, 0xFF) for _ in range(rng.randint(1, 4))))
        elif kind == 2:
            pieces.append(rng.choice([b'{"cmd": "ping"', b'"args": {', b'}', b'"\\ud800"', b'{"id": 1,',
                                      b'"cmd": "start_round"', b'[', b'"x":', b'null', b'\\u0000']))
        elif kind == 3:
            pieces.append(bytes(rng.randint(32, 126) for _ in range(rng.randint(1, 20))))
        else:
            pieces.append(b"\xed\xa0\x80" if rng.random() < 0.5 else b"\xc3")  # a surrogate, a cut sequence
    return b"".join(pieces)


def test_ten_thousand_random_lines_leave_the_prop_running_with_the_heap_bounded(board):
    rng = random.Random(12)
    boots = board.boots
    used = []
    replies = []

    def count_replies(line):
        if line.message is not None and "re" in line.message and "ev" not in line.message:
            replies.append(line.message)

    expected = 0
    with LinkClient.open(board.port) as client:
        baseline = client.request("mem")
        for _batch in range(20):
            lines = [random_line(rng) for _ in range(500)]
            expected += sum(1 for line in lines if line.replace(b"\r", b""))  # CR alone: an empty line
            client.stream.write(b"\n".join(lines) + b"\n")
            # answered after every batch, and every non-empty line before it got its one reply
            assert client.request("ping", timeout=30.0, on_line=count_replies) == {"pong": True}
            assert len(replies) == expected
            used.append(client.request("mem", on_line=count_replies)["used"])
        info = client.hello()
    assert info["mode"] == "run" and info["prop"] == "clock"
    assert board.boots == boots
    # nothing accumulates: after 10 000 lines the live heap is what it was after the first 500
    assert max(used) - used[0] < 4096, (baseline, used)
    assert used[-1] - baseline["used"] < 8192, (baseline, used)
