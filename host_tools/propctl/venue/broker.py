"""Where the broker is and how to log in: mqtt://[USER@]HOST[:PORT], password never on the command line.

    broker = parse_url("mqtt://venue@192.168.1.20:1883")   # Broker(host, port, user)
    password = read_password(path_or_none)                 # --password-file, else $PROPCTL_MQTT_PASSWORD
    client = connect(broker, password, client_id="propctl-venue")   # paho-mqtt, loop running

A password in a URL would show in `ps`, the shell's history and any log of the
command: parse_url refuses one and says where a password goes instead.
"""
import os
import threading
from typing import NamedTuple, Optional
from urllib.parse import urlsplit

DEFAULT_PORT = 1883
PASSWORD_ENV = "PROPCTL_MQTT_PASSWORD"


class BrokerError(Exception):
    """A broker address or login that cannot work; the message says why."""


PASSWORD_FILE_LIMIT = 64 * 1024  # a password's line, with room for a comment or two


class Broker(NamedTuple):
    host: str
    port: int
    user: str


def parse_url(url: str) -> Broker:
    """mqtt://[USER@]HOST[:PORT] -> Broker; BrokerError with the reason otherwise."""
    if "://" not in url:
        url = "mqtt://" + url
    if any(ch <= " " or ch == "\x7f" for ch in url):
        raise BrokerError("%r: a broker URL has no spaces or control characters" % url)
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # e.g. a [bracketed] host that is no IPv6 address
        raise BrokerError("%r is not a broker URL (%s): write mqtt://HOST:PORT" % (url, exc)) from None
    if parts.scheme != "mqtt":
        raise BrokerError("%r: the broker is written mqtt://HOST:PORT (mqtts is not supported)" % url)
    if parts.password is not None:
        raise BrokerError("a password does not go into the broker URL (it would show in the process list); "
                          "use --password-file FILE or $%s" % PASSWORD_ENV)
    if not parts.hostname:
        raise BrokerError("%r names no host: write mqtt://HOST:PORT, e.g. mqtt://localhost:1883" % url)
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise BrokerError("%r: the port must be a number 1..65535" % url) from None
    if parts.path not in ("", "/"):
        raise BrokerError("%r: a broker URL has no path" % url)
    return Broker(parts.hostname, port, parts.username or "")


def read_password(path: Optional[str]) -> str:
    """The broker password: the first line of `path`, else $PROPCTL_MQTT_PASSWORD, else ""."""
    if path:
        from propctl.inputfile import InputFileError, read_regular
        try:  # a regular file, and a small one: a FIFO would wait forever, /dev/zero never end
            return read_regular(path, PASSWORD_FILE_LIMIT).decode("utf-8").split("\n")[0].rstrip("\r")
        except InputFileError as exc:
            raise BrokerError("the password file %s %s" % (path, exc)) from None
        except UnicodeDecodeError:
            raise BrokerError("the password file %s is not UTF-8 text" % path) from None
    return os.environ.get(PASSWORD_ENV, "")


def connect(broker: Broker, password: str, client_id: str, timeout: float = 5.0,
            on_message=None, subscribe=()):
    """A paho-mqtt client connected to `broker` with its network loop running in a thread.

    subscribe: topics to subscribe to (again after every reconnect). Raises
    BrokerError when the broker cannot be reached or refuses the login."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if broker.user:
        client.username_pw_set(broker.user, password or None)
    answered = threading.Event()
    outcome: dict = {}

    def on_connect(client_, userdata, flags, reason, properties):
        outcome["reason"] = reason
        if not reason.is_failure:
            for topic in subscribe:
                client_.subscribe(topic)
        answered.set()

    client.on_connect = on_connect
    if on_message is not None:
        client.on_message = on_message
    where = "%s:%d" % (broker.host, broker.port)
    try:
        client.connect(broker.host, broker.port, keepalive=30)
    except OSError as exc:
        raise BrokerError("cannot reach the broker at %s (%s)" % (where, exc.strerror or exc)) from None
    client.loop_start()
    if not answered.wait(timeout):
        client.loop_stop()
        raise BrokerError("the broker at %s did not answer within %g s" % (where, timeout))
    reason = outcome["reason"]
    if reason.is_failure:
        client.loop_stop()
        raise BrokerError("the broker at %s refused the login: %s" % (where, reason))
    return client
