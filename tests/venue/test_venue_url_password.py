"""A password in a broker URL is never printed, whatever else is wrong with
the URL. Before: `mqtts://venue:S3cretPW@...`, `tcp://`, `ssl://` and a URL with a space were
refused by the scheme and space checks, which quoted the whole URL, password included, in
`propctl venue` and `propctl sim`; the password check came after them."""
import subprocess
import sys
from pathlib import Path

import pytest

from propctl.cli import main
from propctl.venue.broker import BrokerError, parse_url, redacted

PROPCTL = str(Path(sys.executable).parent / "propctl")
SECRET = "S3cretPW"

BAD_URLS = [
    "mqtts://venue:%s@127.0.0.1:8883" % SECRET,
    "tcp://venue:%s@127.0.0.1:1883" % SECRET,
    "ssl://venue:%s@127.0.0.1:8883" % SECRET,
    "mqtt://venue:%s @127.0.0.1" % SECRET,          # a space
    "mqtt://venue:S3cret PW@127.0.0.1",              # a space inside the password
    "mqtt://venue:%s@127.0.0.1:99999" % SECRET,      # a port out of range
    "mqtt://venue:%s@" % SECRET,                     # no host
    "mqtt://venue:%s@[not-ipv6" % SECRET,
    "mqtt://venue:%s@host/path" % SECRET,
    "mqtt://venue:S3cr/etPW@127.0.0.1",              # a slash in the password
    "mqtt://venue:S3cr@etPW@127.0.0.1",              # an @ in the password
    "venue:%s@127.0.0.1" % SECRET,                   # no scheme
    "http://venue:%s@127.0.0.1\x1b[2J" % SECRET,      # an escape sequence
    "mqtt://venue:%s\n@127.0.0.1" % SECRET,
    "MQTT://venue:%s@127.0.0.1" % SECRET,
]
PIECES = ("S3cret", "etPW", "S3cr")


@pytest.mark.parametrize("url", BAD_URLS)
def test_parse_url_never_quotes_the_password(url):
    with pytest.raises(BrokerError) as caught:
        parse_url(url)
    message = str(caught.value)
    assert "password does not go into the broker URL" in message, message
    assert not any(piece in message for piece in PIECES), message
    shown, has = redacted(url)
    assert has and "venue:***@" in shown


@pytest.mark.parametrize("url", BAD_URLS)
@pytest.mark.parametrize("command", [["venue", "--seconds", "0"], ["sim", "clock", "--id", "c1"],
                                     ["sim", "serve"]])
def test_no_command_prints_the_password_of_a_bad_url(url, command, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROPCTL_MQTT_PASSWORD", "other")
    argv = command + ["--broker", url]
    if command[:2] == ["sim", "serve"]:
        argv += ["--flash", str(tmp_path / "flash")]
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out = capsys.readouterr()
    said = out.out + out.err
    assert code == 2, said
    assert "password does not go into the broker URL" in said, said
    assert not any(piece in said for piece in PIECES), said


def test_the_installed_command_too():
    done = subprocess.run([PROPCTL, "venue", "--broker", BAD_URLS[0]], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=30)
    assert done.returncode == 2 and SECRET not in done.stdout + done.stderr, done


def test_urls_without_a_password_keep_their_messages():
    assert redacted("mqtt://venue@host:1883") == ("mqtt://venue@host:1883", False)
    assert redacted("mqtt://host:1883") == ("mqtt://host:1883", False)
    with pytest.raises(BrokerError, match="mqtts is not supported|mqtt://HOST:PORT"):
        parse_url("tcp://venue@host")
    with pytest.raises(BrokerError, match="no spaces"):
        parse_url("mqtt://ve nue@host")
