"""What `propctl venue` and `propctl sim PROP --broker` do with topic names and hosts that cannot
work: a command-line error (exit 2) or a plain message (exit 1), never a traceback and never a
virtual prop that says it is on a broker it will never try. No broker is needed: every case
ends before connecting (or at a connect that cannot start)."""
import subprocess
import sys

import pytest

from propctl.cli import main

PROPCTL = [sys.executable, "-m", "propctl.cli"]
NOWHERE = "mqtt://127.0.0.1:9"  # the discard port: nothing answers MQTT there


def run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out = capsys.readouterr()
    return code, " ".join((out.out + out.err).split())


@pytest.mark.parametrize("prefix", ["#", "a/b", "", "x+", "p" * 33])
def test_a_prefix_that_is_not_one_topic_level_is_refused(prefix, capsys):
    # Before: '#' and 'x+' raised paho's 'Invalid subscription filter' in its thread and then
    # said the broker did not answer; 'a/b' and '' showed an empty table forever
    code, out = run(["venue", "--broker", NOWHERE, "--prefix", prefix], capsys)
    assert code == 2, out
    assert "--prefix" in out and "A-Z a-z 0-9 - _" in out, out


@pytest.mark.parametrize("prop_id", ["+", "#", "a/b", "", "i" * 33])
def test_a_send_to_an_id_that_is_not_one_topic_level_is_refused(prop_id, capsys):
    # Before: '+' and '#' ended in paho's ValueError traceback, 'a/b' waited for a reply
    # that could never come
    code, out = run(["venue", "--broker", NOWHERE, "--send", prop_id, "ping"], capsys)
    assert code == 2, out
    assert "ID" in out and "A-Z a-z 0-9 - _" in out and "Traceback" not in out, out


def test_a_request_longer_than_the_link_takes_is_refused_before_sending(capsys):
    # Before: sent, dropped by the prop as too long, and 'no reply' after the timeout
    code, out = run(["venue", "--broker", NOWHERE, "--send", "c1", "c" * 600], capsys)
    assert code == 2, out
    assert "512" in out, out


def test_a_host_name_that_cannot_be_looked_up_is_a_message_not_a_traceback():
    # Before: UnicodeError: encoding with 'idna' codec failed (label too long)
    done = subprocess.run(PROPCTL + ["venue", "--broker", "mqtt://" + "h" * 300, "--seconds", "0"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "cannot reach the broker" in done.stderr, done.stderr


@pytest.mark.parametrize("argv, words", [
    (["--broker", "mqtt://" + "h" * 65, "--id", "c1"], "at most 64"),
    (["--broker", "mqtt://localhost", "--id", "a/b"], "A-Z a-z 0-9 - _"),
])
def test_a_virtual_prop_refuses_a_broker_or_id_the_board_would_not_take(argv, words, capsys):
    # Before: 'virtual clock c1 on mqtt://hhh...' and then the board's own 'config problem:
    # net.broker ... using the default ""': it said it was on the broker and never tried
    code, out = run(["sim", "clock"] + argv, capsys)
    assert code == 2, out
    assert words in out, out
