"""The desktop's end of the link: versions, lost lines, resets, console text, readable events."""
import io
import json

import pytest

from propctl.serial_link.linkclient import LinkClient, LinkFailure, ProtocolMismatch, compatibility_problem
from propctl.serial_link.monitor import Printer


class FakeSerial:
    """A byte stream with canned board output; records what the desktop writes."""

    def __init__(self, lines=(), reply=None):
        self.incoming = bytearray(b"".join(line.encode() + b"\n" for line in lines))
        self.written = bytearray()
        self.reply = reply  # function(request dict) -> list of lines, answering requests

    def read(self, n):
        chunk = bytes(self.incoming[:n])
        del self.incoming[:n]
        return chunk

    @property
    def in_waiting(self):
        return len(self.incoming)

    def write(self, data):
        self.written += data
        if self.reply:
            for line in self.reply(json.loads(bytes(data).decode())):
                self.incoming += line.encode() + b"\n"
        return len(data)

    def close(self):
        pass


def board_line(seq, **fields):
    fields["seq"] = seq
    return json.dumps(fields)


def test_a_newer_board_asks_for_a_newer_propctl_an_older_one_for_a_firmware_update():
    assert compatibility_problem({"protocol": 1}) is None
    assert "update propctl" in compatibility_problem({"protocol": 2})
    assert "propctl deploy" in compatibility_problem({"protocol": 0})
    assert "propctl deploy" in compatibility_problem({})


def test_hello_refuses_a_protocol_it_does_not_speak():
    serial = FakeSerial(reply=lambda req: [board_line(1, re=req["id"], ok={"protocol": 7, "prop": "clock"})])
    with pytest.raises(ProtocolMismatch, match="update propctl"):
        LinkClient(serial).hello(timeout=0.5)
    sent = json.loads(bytes(serial.written).decode())
    assert sent["cmd"] == "hello" and sent["args"] == {"protocol": 1}


def test_request_returns_ok_and_passes_events_and_console_text_on():
    def reply(req):
        return ["Traceback? no, just a print", board_line(5, ev="button", data={"kind": "pressed"}),
                board_line(6, re=req["id"], ok={"state": "running"})]
    seen = []
    client = LinkClient(FakeSerial(reply=reply))
    result = client.request("start_round", {"seed": 1}, timeout=0.5, on_line=seen.append)
    assert result == {"state": "running"}
    assert seen[0].text == "Traceback? no, just a print" and seen[0].message is None
    assert seen[1].event == "button"


def test_a_refused_request_raises_with_the_boards_message():
    client = LinkClient(FakeSerial(reply=lambda req: [board_line(1, re=req["id"], err="refused",
                                                                 msg="the hand is already turning")]))
    with pytest.raises(LinkFailure, match="already turning"):
        client.request("start_round", timeout=0.5)


def test_no_answer_is_a_timeout_not_a_hang():
    with pytest.raises(LinkFailure, match="no answer"):
        LinkClient(FakeSerial()).request("state", timeout=0.2)


def test_a_gap_in_sequence_numbers_counts_lost_lines_and_seq_1_means_a_reset():
    client = LinkClient(FakeSerial([board_line(1, ev="a", data={}), board_line(2, ev="b", data={}),
                                    board_line(5, ev="c", data={}), board_line(1, ev="boot", data={}),
                                    board_line(2, ev="d", data={})]))
    lines = list(client.lines(timeout=0.1))
    assert [line.lost for line in lines] == [0, 0, 2, 0, 0]
    assert [line.restarted for line in lines] == [False, False, False, True, False]
    assert client.lost_total == 2


def test_monitor_output_flags_lost_lines_and_resets():
    out = io.StringIO()
    printer = Printer(out, prop="clock")
    client = LinkClient(FakeSerial([board_line(1, ev="chime", data={"round": 2}),
                                    board_line(3, ev="stop", data={"at_ms": 2500}),
                                    board_line(1, ev="safe_mode",
                                               data={"why": "3 crashes", "fix": "deploy"})]))
    for line in client.lines(timeout=0.1):
        printer(line)
    text = out.getvalue()
    assert "#1 CHIME: round 2 is over" in text
    assert "1 line(s) from the board were lost" in text
    assert "hand stops at 2.5 s" in text
    assert "the board was reset" in text and "SAFE MODE: 3 crashes. deploy" in text
