"""`propctl monitor --send`: a request the board would refuse as a line is refused before the port opens."""
import pytest

from propctl.cli import main
from propctl.serial_link import monitor


@pytest.fixture
def no_board(monkeypatch):
    def opened(*args, **kwargs):
        raise AssertionError("the port was opened")
    monkeypatch.setattr(monitor, "monitor", opened)


@pytest.mark.parametrize("item, why", [
    # sent as `Infinity`, the board answered bad_json to no id and monitor waited 5 s for a reply
    ('start_round={"seed": 1e400}', "the arguments are not JSON (1e400 is too large for a JSON number)"),
    ('start_round={"seed": NaN}', "the arguments are not JSON (NaN is not a JSON number)"),
    ("start_round={bad", "the arguments are not JSON (Expecting property name"),
    ("=x", "give a command, e.g. --send state"),
    ("x" * 600, "the request would be a line of 626 bytes; the board reads at most 512"),
    ('report={"on_clock": ' + "[" * 100000 + "]" * 100000 + "}", "the arguments are nested too deeply"),
    ("start_round=[1]", "arguments must be a JSON object"),
])
def test_a_bad_send_is_named_and_never_sent(item, why, no_board, capsys):
    assert main(["monitor", "--port", "/dev/ttyFAKE0", "--send", "state", "--send", item]) == 2
    err = capsys.readouterr().err
    shown = item if len(item) <= 40 else item[:37] + "..."
    assert err.startswith("propctl monitor: bad --send %r: %s" % (shown, why)), err
    assert err.count("\n") == 1


def test_a_good_send_is_parsed():
    assert monitor.parse_send('new_game={"players": 3}') == ("new_game", {"players": 3})
    assert monitor.parse_send("state") == ("state", None)
