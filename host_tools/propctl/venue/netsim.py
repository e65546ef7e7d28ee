"""`propctl sim PROP --broker URL --id ID`: a virtual prop on a broker, until it is stopped.

The prop's real firmware runs from main.py on the virtual board (netprop.NetProp),
joined to the broker as a board in the venue would be; it takes its commands
from the broker (propctl venue --send, Home Assistant, another script). Its
serial link's events are printed as propctl monitor words them, one per line, after its id.
It needs no terminal: stdin is never read, so it runs under nohup, systemd or
in the background, until Ctrl-C, SIGTERM or SIGHUP.
"""
import json
import os
import random
import signal
import sys
import threading
from pathlib import Path

from propctl.argtypes import TOPIC_LEVEL
from propctl.describe import describe_event
from propctl.overrides import load_config, parse_sets
from propctl.venue.broker import (
    BrokerError,
    check_board_password,
    parse_url,
    read_password,
    reader_gone,
    stdout_to_devnull,
)
from propctl.venue.netprop import DEFAULT_HEAP, NetProp

BROKER_MAX = 64  # the firmware's net.broker: at most 64 printable ASCII characters
HEAP = DEFAULT_HEAP  # a served board with --broker: the net layer needs its room too


def run(args, prop: str) -> int:
    """Entry for a prop's sim sub-command given --broker."""
    try:
        broker = parse_url(args.broker)
        password = read_password(getattr(args, "password_file", None))
        check_board_password(password)
        settings = _settings(args)
    except (BrokerError, ValueError) as exc:
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 2
    except Exception as exc:  # SimError from load_config: its message is for a person
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 2
    if len(broker.host) > BROKER_MAX or not broker.host.isascii():
        print("propctl sim: --broker: a board takes a host of at most %d ASCII characters "
              "(net.broker); give the broker's address" % BROKER_MAX, file=sys.stderr)
        return 2
    net = settings.pop("net", None)
    if net is not None:
        print("propctl sim: net settings come from --broker and --id here", file=sys.stderr)
        return 2
    prop_id = args.id or prop
    ca_file = getattr(args, "ca_file", None)
    problem = _tls_problem(broker, ca_file)
    if problem:
        print("propctl sim: %s" % problem, file=sys.stderr)
        return 2
    stopped = threading.Event()
    stdout_gone = threading.Event()
    echo = _echo(prop, stopped, stdout_gone)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: stopped.set())
    try:
        board = NetProp(prop, broker.host, broker.port, prop_id, user=broker.user, password=password,
                        settings=settings, echo=echo, uid=sim_uid(), tie_to_parent=True, ca_file=ca_file)
    except OSError as exc:
        print("propctl sim: --ca-file %s: %s" % (ca_file, exc.strerror or exc), file=sys.stderr)
        return 2
    board.start()
    print("virtual %s %s on %s://%s:%d (topics %s/%s/...); Ctrl-C stops it"
          % (prop, prop_id, "mqtts" if broker.tls else "mqtt", broker.host, broker.port, "props", prop_id),
          file=sys.stderr, flush=True)
    try:
        while not stopped.wait(0.5):
            if reader_gone(sys.stdout):  # | head -3 is done, even if nothing more is printed
                stdout_gone.set()
                break
            if not board.running():
                print("propctl sim: the virtual %s ended" % prop, file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        return 130
    finally:
        board.stop()
        if stdout_gone.is_set():  # Python's flush at exit would complain into stderr
            stdout_to_devnull()
    return 0


def _echo(prop: str, stopped: threading.Event, stdout_gone: threading.Event):
    """The board's event lines printed as propctl monitor words them, one per line; a closed
    stdout (| head -3) sets both events: the sim ends, and its firmware with it."""
    lock = threading.Lock()

    def echo(netprop, line) -> None:
        if isinstance(line, dict) and isinstance(line.get("ev"), str) and isinstance(line.get("data"), dict):
            text = describe_event(prop, line["ev"], line["data"])  # as propctl monitor says it
        else:
            text = json.dumps(line) if isinstance(line, dict) else line
        with lock:
            if stopped.is_set():
                return
            try:
                print("%s %s" % (netprop.prop_id, text), flush=True)
            except (BrokenPipeError, OSError, ValueError):
                stdout_gone.set()
                stopped.set()
    return echo


def _settings(args) -> dict:
    """--config FILE with the --set overrides over it."""
    settings = load_config(getattr(args, "config", None))
    for key, value in parse_sets(getattr(args, "set", None)).items():
        if isinstance(value, dict) and isinstance(settings.get(key), dict):
            settings[key] = dict(settings[key], **value)
        else:
            settings[key] = value
    return settings


def _tls_problem(broker, ca_file):
    """Why --broker and --ca-file do not go together, or None."""
    if ca_file and not broker.tls:
        return "--ca-file is for TLS: write the broker mqtts://HOST:PORT"
    if broker.tls and not ca_file:
        return ("a board checks the broker's certificate against a CA file of its own: "
                "give --ca-file FILE (the CA certificate, PEM)")
    return None


def sim_uid() -> str:
    """This virtual board's unique id (machine.unique_id(), hence its client id): one of its
    own per process, as two real boards have, so two sims given one --id meet as two boards
    do (the newcomer reports id_taken) instead of knocking each other off the broker."""
    return "sim%08x" % random.getrandbits(32)


PROP_BROKER_HELP = ("run on an MQTT broker instead of the screen: mqtt://[USER@]HOST[:PORT]; "
                    "runs until stopped, commands come from the broker (propctl venue)")


def add_arguments(parser, broker_help: str = PROP_BROKER_HELP) -> None:
    """--broker, --id and --password-file: for a prop's sim sub-command, and `sim serve`'s."""
    parser.add_argument("--broker", metavar="URL", help=broker_help)
    parser.add_argument("--id", metavar="ID", type=TOPIC_LEVEL,
                        help="with --broker: the prop's id there (default: its name)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="with --broker: the broker password (else $PROPCTL_MQTT_PASSWORD)")
    parser.add_argument("--ca-file", metavar="FILE",
                        help="with --broker mqtts://...: the CA certificate (PEM) the board checks "
                             "the broker's against (net.ca)")


def write_private(path: Path, text: str) -> None:
    """`text` into `path`, readable by its owner only (it holds passwords), replaced whole."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def prepare_flash(flash: Path, args) -> str:
    """`propctl sim serve --broker`: the net section into the served board's config.json
    (written 0600, other settings kept; deploy keeps it too). Returns the prop's id;
    raises BrokerError for an unusable broker URL or password file."""
    broker = parse_url(args.broker)
    password = read_password(getattr(args, "password_file", None))
    check_board_password(password)
    path = Path(flash) / "config.json"
    config: dict = {}
    if path.exists():
        try:
            config = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            config = {}
        if not isinstance(config, dict):
            config = {}
    prop_id = args.id or config.get("prop") or "clock"
    old = config.get("net")
    net: dict = old if isinstance(old, dict) else {}
    net.update({"broker": broker.host, "port": broker.port, "id": prop_id, "tls": broker.tls})
    ca_file = getattr(args, "ca_file", None)
    if broker.tls:
        if not ca_file:
            raise BrokerError("a board checks the broker's certificate against a CA file of its own: "
                              "give --ca-file FILE (the CA certificate, PEM)")
        try:
            write_private(Path(flash) / "ca.pem", Path(ca_file).read_text())
        except (OSError, UnicodeDecodeError) as exc:
            raise BrokerError("--ca-file %s cannot be read (%s)" % (ca_file, exc)) from None
        net["ca"] = "ca.pem"
    if broker.user:
        net["user"] = broker.user
    if password:
        net["broker_password"] = password
    config["net"] = net
    write_private(path, json.dumps(config, indent=1, sort_keys=True) + "\n")
    os.environ["VBOARD_UID"] = "serve%08x" % random.getrandbits(32)  # this board's own (sim_uid)
    return prop_id
