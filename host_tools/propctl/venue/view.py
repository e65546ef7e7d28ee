"""`propctl venue`: every prop on the broker as a live table, one command to one prop, or JSON lines.

    propctl venue --broker mqtt://venue@192.168.1.20        the live table (80x24), Ctrl-C ends it
    propctl venue --broker mqtt://localhost --json          one JSON line per status, state and event
    propctl venue --broker mqtt://localhost --send clock1 start_round '{"seed": 7}'

The table is built from what the props publish (docs/venue.md): the retained
PREFIX/ID/status ("online"/"offline", the will) and PREFIX/ID/state, and the
live PREFIX/ID/event; a prop the broker knows shows up the moment this
subscribes. --send publishes one request on PREFIX/ID/cmd and waits for its
reply on PREFIX/ID/reply (exit 0 on an ok reply, 1 on an error reply or
none in time, 2 for a bad command line).
"""
import json
import os
import random
import sys
import threading
import time
from typing import Optional

from propctl.argtypes import TOPIC_LEVEL, Seconds
from propctl.venue.broker import (
    BrokerError,
    connect,
    parse_url,
    read_password,
    reader_gone,
    stdout_to_devnull,
)
from propctl.venue.model import ABSENT_AFTER_S, COLUMNS, ROWS, Venue, _shown, dumps_strict, loads_strict

# the model's names, as the tests and the bench use them from here too

__all__ = ["ABSENT_AFTER_S", "Venue", "dumps_strict", "loads_strict", "register", "run"]

REDRAW_S = 0.25
SEND_TIMEOUT_S = 5.0
MAX_LINE = 512  # the link's longest request line (firmware link.protocol.MAX_LINE)


def _screen_size() -> tuple:
    try:
        size = os.get_terminal_size()
        return max(size.lines, 5), max(size.columns, 40)
    except OSError:
        return ROWS, COLUMNS


def _request(command: str, args, request_id: int = (1 << 30) - 1) -> dict:
    body: dict = {"id": request_id, "cmd": command}
    if args:
        body["args"] = args
    return body


def _request_problem(command: str, args):
    """Why the request cannot go (a prop drops a line longer than the link's), or None."""
    size = len(json.dumps(_request(command, args)).encode())
    if size > MAX_LINE:
        return "the request is %d bytes; a prop takes at most %d" % (size, MAX_LINE)
    return None


def send(client, venue: Venue, prop_id: str, command: str, args, timeout: float) -> int:
    """One request, its reply printed; 0 on ok."""
    request_id = random.randrange(1, 1 << 30)
    body = _request(command, args, request_id)
    time.sleep(0.2)  # the subscriptions and the retained status first
    with venue.lock:
        prop = venue.props.get(prop_id)
        status = prop.status if prop is not None else None
    if status == "offline":
        print("propctl venue: %s is offline (its last will); sending anyway" % prop_id, file=sys.stderr)
    client.publish("%s/%s/cmd" % (venue.prefix, prop_id), json.dumps(body), qos=1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with venue.lock:
            reply = venue.replies.get((prop_id, request_id))
        if reply is not None:
            print(dumps_strict(reply))
            return 0 if "ok" in reply else 1
        venue.changed.wait(0.05)
        venue.changed.clear()
    known = "" if status else " (the broker knows no prop %s)" % prop_id
    print("propctl venue: no reply from %s within %g s%s" % (prop_id, timeout, known), file=sys.stderr)
    return 1


def _send_args(send: list) -> tuple:
    """(the JSON arguments or None, why --send ID COMMAND [JSON] cannot go or None)."""
    if len(send) > 3 or len(send) < 2:
        return None, "--send takes ID COMMAND [JSON]"
    args_json = None
    if len(send) == 3:
        try:
            args_json = json.loads(send[2])
        except ValueError as exc:
            return None, "the arguments must be a JSON object, e.g. '{\"seed\": 7}' (%s)" % exc
        if not isinstance(args_json, dict):
            return None, "the arguments must be a JSON object {...}"
    problem = TOPIC_LEVEL.problem(send[0]) or _request_problem(send[1], args_json)
    if problem:
        return None, "--send ID COMMAND: %s" % problem
    return args_json, None


def run(args) -> int:
    try:
        broker = parse_url(args.broker)
        password = read_password(args.password_file)
    except BrokerError as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 2
    args_json = None
    if args.send:
        args_json, problem = _send_args(args.send)
        if problem:
            print("propctl venue: %s" % problem, file=sys.stderr)
            return 2
    if args.forget:
        if args.send or args.json:
            print("propctl venue: --forget goes alone (not with --send or --json)", file=sys.stderr)
            return 2
        return forget(broker, password, args.prefix, args.forget, args.discovery_prefix, args.ca_file)
    lock = threading.Lock()
    venue = Venue(args.prefix)

    def write_json(record: dict) -> None:
        with lock:
            if venue.closed:
                return
            try:
                sys.stdout.write(dumps_strict(record) + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError, OSError):  # | head -1 has what it wanted
                stdout_closed(venue)

    if args.json and not args.send:
        venue.out = write_json
    try:
        client = connect(broker, password, "propctl-venue-%d" % random.randrange(1 << 30),
                         on_message=venue.on_message, subscribe=venue.topics(),
                         on_connection=venue.connection, ca_file=args.ca_file)
    except BrokerError as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 1
    try:
        if args.send:
            timeout = args.seconds if args.seconds is not None else SEND_TIMEOUT_S
            return send(client, venue, args.send[0], args.send[1], args_json, timeout)
        return watch(venue, args)
    except BrokenPipeError:  # the table's last print into a closed pipe
        stdout_closed(venue)
        return 0
    finally:
        client.loop_stop()
        client.disconnect()


def stdout_closed(venue: Venue) -> None:
    """The reader of stdout went away (`| head -1`): the view ends, quietly. stdout points at
    /dev/null from here, so Python's own flush at exit has nowhere to fail."""
    venue.closed = True
    venue.changed.set()
    stdout_to_devnull()


FORGET_WAIT_S = 1.0  # the broker sends retained messages right after SUBACK: well within this


def _retained(broker, password: str, topics: tuple, client_id: str, ca_file=None) -> dict:
    """topic -> payload of the retained messages on `topics` (what a new subscriber gets)."""
    found: dict = {}
    lock = threading.Lock()

    def on_message(client, userdata, message) -> None:
        try:
            if message.retain:
                with lock:
                    found[message.topic] = bytes(message.payload)
        except Exception:  # guarded as every callback: a topic not UTF-8 is simply not ours
            pass

    client = connect(broker, password, client_id, on_message=on_message, subscribe=topics, ca_file=ca_file)
    try:
        time.sleep(FORGET_WAIT_S)
    finally:
        client.loop_stop()
        client.disconnect()
    with lock:
        return {t: p for t, p in found.items() if p}


def forget(broker, password: str, prefix: str, prop_id: str, discovery_prefix: str, ca_file=None) -> int:
    """`--forget ID`: remove a prop that is gone or renamed: its retained status and state and
    its Home Assistant discovery configs (an empty retained message each; Home Assistant
    removes the entities), the configs of earlier firmware (node ID alone) too."""
    topics = ("%s/%s/status" % (prefix, prop_id), "%s/%s/state" % (prefix, prop_id),
              "%s/+/%s_%s/+/config" % (discovery_prefix, prefix, prop_id),
              "%s/+/%s/+/config" % (discovery_prefix, prop_id))
    tag = random.randrange(1 << 30)
    try:
        found = _retained(broker, password, topics, "propctl-forget-%d" % tag, ca_file)
        if found.get(topics[0]) == b"online":
            print("propctl venue: %s is online: stop it (or set its net.discovery false) first, or it "
                  "announces itself again at its next connect" % prop_id, file=sys.stderr)
            return 1
        if not found:
            print("propctl venue: the broker holds nothing retained for %s (status, state, Home "
                  "Assistant configs under %s/)" % (prop_id, discovery_prefix))
            return 0
        client = connect(broker, password, "propctl-forget-%d-w" % tag, ca_file=ca_file)
        try:
            for topic in sorted(found):
                client.publish(topic, b"", qos=1, retain=True).wait_for_publish(5)
        finally:
            client.loop_stop()
            client.disconnect()
        left = _retained(broker, password, topics, "propctl-forget-%d-c" % tag, ca_file)
    except (BrokerError, RuntimeError, ValueError) as exc:
        print("propctl venue: %s" % exc, file=sys.stderr)
        return 1
    for topic in sorted(found):
        print("removed %s%s" % (_shown(topic), "" if topic not in left else ": NOT REMOVED"))
    if left:
        print("propctl venue: the broker kept %d of them: may this user write them? (the ACL in "
              "docs/venue.md gives user venue those writes)" % len(left), file=sys.stderr)
        return 1
    return 0


def watch(venue: Venue, args) -> int:
    end: Optional[float] = time.monotonic() + args.seconds if args.seconds is not None else None
    live = not args.json and sys.stdout.isatty()
    try:
        while end is None or time.monotonic() < end:
            if venue.closed:
                return 0
            if args.json and reader_gone(sys.stdout):  # | head -1 is done, though nothing came since
                stdout_closed(venue)
                return 0
            venue.tick()
            if live:
                rows, columns = _screen_size()
                screen = venue.table(min(rows, ROWS), min(columns, COLUMNS))
                sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(screen))
                sys.stdout.flush()
            wait = REDRAW_S if end is None else max(0.0, min(REDRAW_S, end - time.monotonic()))
            venue.changed.wait(wait)
            venue.changed.clear()
    except KeyboardInterrupt:
        if not args.json:
            print()
        return 130
    if not args.json:
        if live:
            sys.stdout.write("\x1b[H\x1b[2J")
        print("\n".join(venue.table()))
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "venue", help="every prop on an MQTT broker: a live table, one command, JSON lines",
        description="Watch and command the props of a venue through their MQTT broker "
                    "(docs/venue.md). Shows each prop's id, kind, online or offline, what it "
                    "is doing, its last event and scores.",
        epilog="examples:\n"
               "  propctl venue --broker mqtt://venue@192.168.1.20\n"
               "  propctl venue --broker mqtt://localhost:1883 --json --seconds 10\n"
               "  propctl venue --broker mqtt://pi --send clock1 start_round '{\"seed\": 7}'\n"
               "  propctl venue --broker mqtt://venue@pi --forget oldclock\n"
               "The broker password: --password-file FILE or $PROPCTL_MQTT_PASSWORD (never\n"
               "in the URL, where the process list would show it).")
    parser.add_argument("--broker", required=True, metavar="URL",
                        help="mqtt://[USER@]HOST[:PORT], or mqtts://... for TLS (port 8883)")
    parser.add_argument("--ca-file", metavar="FILE",
                        help="with mqtts://: the CA certificate (PEM) that signed the broker's "
                             "(default: the system's CAs)")
    parser.add_argument("--password-file", metavar="FILE", help="the broker password: first line of FILE")
    parser.add_argument("--prefix", default="props", type=TOPIC_LEVEL,
                        help="the props' topic prefix, net.prefix (default %(default)s)")
    parser.add_argument("--send", nargs="+", metavar="ARG",
                        help="ID COMMAND [JSON]: send one command, print its reply, exit 0 when ok")
    parser.add_argument("--forget", metavar="ID", type=TOPIC_LEVEL,
                        help="remove a prop that is gone or renamed: its retained status and state "
                             "and its Home Assistant entities (refused while it is online)")
    parser.add_argument("--discovery-prefix", default="homeassistant", type=TOPIC_LEVEL, metavar="PREFIX",
                        help="with --forget: Home Assistant's discovery prefix, net.discovery_prefix "
                             "(default %(default)s)")
    parser.add_argument("--json", action="store_true", help="one JSON line per status, state and event")
    parser.add_argument("--seconds", type=Seconds(0, 7 * 24 * 3600), metavar="N",
                        help="stop after N seconds, up to a week (with --send: wait N s for the "
                             "reply, default 5)")
    parser.set_defaults(func=run)
