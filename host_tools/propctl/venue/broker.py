"""Where the broker is and how to log in: mqtt://[USER@]HOST[:PORT], password never on the command line.

    broker = parse_url("mqtt://venue@192.168.1.20:1883")   # Broker(host, port, user)
    password = read_password(path_or_none)                 # --password-file, else $PROPCTL_MQTT_PASSWORD
    client = connect(broker, password, client_id="propctl-venue")   # paho-mqtt, loop running

A password in a URL would show in `ps`, the shell's history and any log of the
command: parse_url refuses one and says where a password goes instead.
"""
import os
import sys
import threading
from typing import NamedTuple, Optional
from urllib.parse import urlsplit

DEFAULT_PORT = 1883
PASSWORD_ENV = "PROPCTL_MQTT_PASSWORD"


class BrokerError(Exception):
    """A broker address or login that cannot work; the message says why."""


PASSWORD_FILE_LIMIT = 64 * 1024
RECONNECT_MAX_S = 4  # a password's line, with room for a comment or two


class Broker(NamedTuple):
    host: str
    port: int
    user: str
    tls: bool = False  # mqtts://: TLS, the broker's certificate and name checked


TLS_PORT = 8883


def redacted(url: str) -> tuple:
    """(the URL as an error may quote it, whether it held a password). Whatever else is wrong
    with the URL (a scheme, a space, a port), the text between the user's ":" and the last "@"
    is a password as far as a reader can tell, and never shown."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    at = rest.rfind("@")
    if at < 0:
        return url, False
    userinfo = rest[:at]
    colon = userinfo.find(":")
    if colon < 0:
        return url, False
    return "%s%s%s:***@%s" % (scheme, sep, userinfo[:colon], rest[at + 1:]), True


def parse_url(url: str) -> Broker:
    """mqtt://[USER@]HOST[:PORT] -> Broker; BrokerError with the reason otherwise.

    A password in the URL is refused before anything else is checked, and no message
    quotes it (`redacted`)."""
    shown, has_password = redacted(url)
    if has_password:
        raise BrokerError("%r: a password does not go into the broker URL (it would show in the process "
                          "list); use --password-file FILE or $%s" % (shown, PASSWORD_ENV))
    if "://" not in url:
        url = "mqtt://" + url
    shown = url
    if any(ch <= " " or ch == "\x7f" for ch in url):
        raise BrokerError("%r: a broker URL has no spaces or control characters" % shown)
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # e.g. a [bracketed] host that is no IPv6 address
        raise BrokerError("%r is not a broker URL (%s): write mqtt://HOST:PORT" % (shown, exc)) from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BrokerError("%r: the broker is written mqtt://HOST:PORT or, with TLS, mqtts://HOST:PORT"
                          % shown)
    tls = parts.scheme == "mqtts"
    if not parts.hostname:
        raise BrokerError("%r names no host: write mqtt://HOST:PORT, e.g. mqtt://localhost:1883" % shown)
    try:
        port = parts.port or (TLS_PORT if tls else DEFAULT_PORT)
    except ValueError:
        raise BrokerError("%r: the port must be a number 1..65535" % shown) from None
    if parts.path not in ("", "/"):
        raise BrokerError("%r: a broker URL has no path" % shown)
    return Broker(parts.hostname, port, parts.username or "", tls)


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


def check_board_password(password: str) -> None:
    """BrokerError unless a board can hold `password` as net.broker_password (the firmware's
    own schema says which: printable ASCII, at most 64 characters). A board given another
    would log "using none" at boot and be refused by the broker forever; the reason names
    no character of it."""
    if not password:
        return
    from propctl.build import FIRMWARE_DIR
    from propctl.settings import firmware_settings
    settings = firmware_settings(FIRMWARE_DIR / "lib")
    _, errors = settings.merge({"net": {"broker_password": password}})
    if errors:
        spec = settings.specs()["net"]["broker_password"]
        why = []
        if len(password) > spec[settings.MAX_LEN]:
            why.append("%d characters, a board holds at most %d" % (len(password), spec[settings.MAX_LEN]))
        if any(ch in "\r\n" for ch in password):
            why.append("it has a line break")
        if not password.isascii():
            why.append("it has letters beyond ASCII")
        elif any(not " " <= ch < "\x7f" for ch in password):
            why.append("it has control characters")
        raise BrokerError("the broker password is not one a board can hold (%s; net.broker_password "
                          "takes at most %d printable ASCII characters): give the broker user "
                          "another password" % ("; ".join(why) or "the firmware refuses it", spec[2]))


def ssl_errors() -> tuple:
    import ssl
    return (ssl.SSLError, ssl.CertificateError)


def tls_why(exc, ca_file) -> str:
    """A TLS failure in a sentence (a wrong CA, a certificate for another name, no TLS there)."""
    text = getattr(exc, "verify_message", None) or getattr(exc, "reason", None) or str(exc)
    where = "the CA in %s" % ca_file if ca_file else "the system's CAs (give --ca-file FILE)"
    if "hostname" in str(text).lower() or "IP address mismatch" in str(text):
        return "its certificate is not made for this host name (%s)" % text
    if getattr(exc, "verify_code", None) is not None or "CERTIFICATE_VERIFY_FAILED" in str(exc):
        return "its certificate was refused: not signed by %s (%s)" % (where, text)
    if "WRONG_VERSION_NUMBER" in str(exc) or "wrong version" in str(exc).lower():
        return "no TLS on that port (is it the plain mqtt:// port?)"
    return str(text)


def _client(broker: Broker, password: str, client_id: str, ca_file: Optional[str]):
    """A paho-mqtt client for `broker`, not connected yet: login, TLS, how it reconnects."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if broker.user:
        client.username_pw_set(broker.user, password or None)
    if broker.tls:  # the certificate against ca_file (else the system's CAs), the host name too
        import ssl
        try:
            client.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED)
        except (OSError, ssl.SSLError) as exc:
            raise BrokerError("the CA file %s cannot be used (%s)" % (ca_file, exc)) from None
    elif ca_file:
        raise BrokerError("--ca-file is for TLS: write the broker mqtts://HOST:PORT")
    # every callback of ours is guarded; this keeps paho's thread alive should one still raise
    client.suppress_exceptions = True
    # paho doubles its wait up to 120 s by default: a broker back after a long outage would
    # stay unseen for up to two minutes; the view asks again at most every RECONNECT_MAX_S
    client.reconnect_delay_set(1, RECONNECT_MAX_S)
    return client


def connect(broker: Broker, password: str, client_id: str, timeout: float = 5.0,
            on_message=None, subscribe=(), on_connection=None, ca_file: Optional[str] = None):
    """A paho-mqtt client connected to `broker` with its network loop running in a thread
    (which connects again by itself after the connection is lost).

    subscribe: topics to subscribe to (again after every reconnect). on_connection(up):
    called when the connection is lost (False) and when it is back (True). Raises
    BrokerError when the broker cannot be reached or refuses the login."""
    client = _client(broker, password, client_id, ca_file)
    answered = threading.Event()
    outcome: dict = {}

    def on_connect(client_, userdata, flags, reason, properties):
        try:
            outcome["reason"] = reason
            if not reason.is_failure:
                for topic in subscribe:
                    client_.subscribe(topic)
                if answered.is_set() and on_connection is not None:
                    on_connection(True)
        except Exception as exc:  # raised into paho's thread it would end the connection for good
            outcome["error"] = exc
        answered.set()

    def on_disconnect(client_, userdata, flags, reason, properties):
        # a failure is a lost connection; our own disconnect() at the end is not
        try:
            if answered.is_set() and on_connection is not None and reason.is_failure:
                on_connection(False)
        except Exception as exc:
            outcome["error"] = exc

    client.on_connect = on_connect
    client.on_disconnect = on_disconnect
    if on_message is not None:
        client.on_message = on_message
    where = "%s:%d" % (broker.host, broker.port)
    try:
        client.connect(broker.host, broker.port, keepalive=30)
    except ssl_errors() as exc:
        raise BrokerError("the broker at %s: TLS failed: %s" % (where, tls_why(exc, ca_file))) from None
    except OSError as exc:
        hint = " (no TLS on that port? mqtts:// needs the broker's TLS listener)" \
            if broker.tls and isinstance(exc, ConnectionResetError) else ""
        raise BrokerError("cannot reach the broker at %s (%s)%s"
                          % (where, exc.strerror or exc, hint)) from None
    except UnicodeError as exc:  # a host name no DNS can hold (a label over 63 letters)
        raise BrokerError("cannot reach the broker at %s (not a host name: %s)" % (where, exc)) from None
    client.loop_start()
    if not answered.wait(timeout):
        client.loop_stop()
        hint = "" if broker.tls else " (if that port speaks TLS, write mqtts://)"
        raise BrokerError("the broker at %s did not answer within %g s%s" % (where, timeout, hint))
    reason = outcome["reason"]
    if reason.is_failure:
        client.loop_stop()
        raise BrokerError("the broker at %s refused the login: %s" % (where, reason))
    return client


def reader_gone(stream) -> bool:
    """Whether the pipe that `stream` writes into has no reader any more (POLLERR on its
    write end, Linux and the BSDs); False for a terminal, a file, or where it cannot tell."""
    import select
    try:
        poller = select.poll()
        poller.register(stream.fileno(), 0)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def stdout_to_devnull() -> None:
    """Point stdout at /dev/null once its reader is gone, so Python's own flush at exit has
    nowhere to fail (a BrokenPipeError traceback after a clean end)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
