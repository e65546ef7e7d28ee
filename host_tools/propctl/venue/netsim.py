"""`propctl sim PROP --broker URL --id ID`: a virtual prop on a broker, until it is stopped.

The prop's real firmware runs from main.py on the virtual board (netprop.NetProp),
joined to the broker as a board in the venue would be; it takes its commands
from the broker (propctl venue --send, Home Assistant, another script). Its
serial link's event lines are printed, one per line, prefixed with its id.
It needs no terminal: stdin is never read, so it runs under nohup, systemd or
in the background, until Ctrl-C, SIGTERM or SIGHUP.
"""
import json
import signal
import sys
import threading

from propctl.overrides import parse_sets
from propctl.sim.runner import load_config
from propctl.venue.broker import BrokerError, parse_url, read_password
from propctl.venue.netprop import NetProp


def run(args, prop: str) -> int:
    """Entry for a prop's sim sub-command given --broker."""
    try:
        broker = parse_url(args.broker)
        password = read_password(getattr(args, "password_file", None))
        settings = load_config(getattr(args, "config", None))
        for key, value in parse_sets(getattr(args, "set", None)).items():
            if isinstance(value, dict) and isinstance(settings.get(key), dict):
                settings[key] = dict(settings[key], **value)
            else:
                settings[key] = value
    except (BrokerError, ValueError) as exc:
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 2
    except Exception as exc:  # SimError from load_config: its message is for a person
        print("propctl sim: %s" % exc, file=sys.stderr)
        return 2
    net = settings.pop("net", None)
    if net is not None:
        print("propctl sim: net settings come from --broker and --id here", file=sys.stderr)
        return 2
    prop_id = args.id or prop
    stopped = threading.Event()
    lock = threading.Lock()

    def echo(netprop, line) -> None:
        with lock:
            text = json.dumps(line) if isinstance(line, dict) else line
            print("%s %s" % (netprop.prop_id, text), flush=True)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: stopped.set())
    board = NetProp(prop, broker.host, broker.port, prop_id, user=broker.user, password=password,
                    settings=settings, echo=echo, uid="sim-" + prop_id)
    board.start()
    print("virtual %s %s on mqtt://%s:%d (topics %s/%s/...); Ctrl-C stops it"
          % (prop, prop_id, broker.host, broker.port, "props", prop_id), file=sys.stderr, flush=True)
    try:
        while not stopped.wait(0.5):
            if not board.running():
                print("propctl sim: the virtual %s ended" % prop, file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        return 130
    finally:
        board.stop()
    return 0


def add_arguments(parser) -> None:
    """--broker, --id and --password-file for a prop's sim sub-command."""
    parser.add_argument("--broker", metavar="URL",
                        help="run on an MQTT broker instead of the screen: mqtt://[USER@]HOST[:PORT]; "
                             "runs until stopped, commands come from the broker (propctl venue)")
    parser.add_argument("--id", metavar="ID", help="the prop's id on the broker (default: its name)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="with --broker: the broker password (else $PROPCTL_MQTT_PASSWORD)")
