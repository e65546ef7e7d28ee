"""Venue mode: the prop on an MQTT broker, mirroring its serial link (docs/venue.md).

    port = venue.start(stdio_port, link, app, settings, identity)   # link.startup, when net.broker is set
    Runtime(app, port=port, ...).run()

Topics (PREFIX = net.prefix, ID = net.id or the prop's name):
    PREFIX/ID/event    every event line the serial link sends, as it sends it
    PREFIX/ID/state    retained: {"prop", "id", "firmware", "board", "last_event": its name,
                       "state": the `state` command's answer}
    PREFIX/ID/status   retained "online"; the broker's last will publishes "offline"
    PREFIX/ID/cmd      requests, exactly as on the serial link; retained ones are ignored
    PREFIX/ID/reply    the reply to each request (its "re" is the request's id)
    PREFIX/ID/claim    the board's unique id, at each connect: two boards on one ID notice

Commands go through link.router.Link.handle_line, the serial link's own
schema checks; `maintenance` and `leave` are refused over the network (no
REPL and no file writes over the network: deploying stays on the cable).

The loop stays free (the issue's promise): NetPort.pump() does the network's
bounded work (net.wifi and net.mqtt never wait) only when the runtime's wait
is at least SLACK_MS, and then waits on the serial port for what is left of
the wait. Every failure is one `net` event on the serial link (and on the
broker, once up) and a wait from net.backoff before the next try.

Two boards on one ID: each publishes its unique id on PREFIX/ID/claim after
connecting. A board that hears another's claim within CLAIM_WINDOW_MS of its
own connect is the newcomer: it reports `net` {"state": "id_taken"}, leaves
the broker and tries again after ID_TAKEN_WAIT_MS; the board that was there
first answers with its claim and stays.

Secrets: the Wi-Fi and broker passwords go to WLAN.connect() and into the
CONNECT packet, nowhere else: not into state, events, replies or hello.
"""
from time import ticks_diff, ticks_ms

from micropython import const

from link import protocol
from link.framing import OVERLONG
from net.backoff import Backoff
from net.late import Late
from net.mqtt import DOWN, UP, Client

SLACK_MS = const(2)          # network work only when the next deadline is at least this far...
STARVED_MS = const(100)      # ...or when it has had no slice for this long (a tick below SLACK_MS)
STATE_EVERY_MS = const(250)  # the retained state at most this often (it follows events)
CLAIM_WINDOW_MS = const(2000)
ID_TAKEN_WAIT_MS = const(60000)
STAY_UP_MS = const(10000)    # a connection that lasted this long resets the backoff
REFUSED_WAIT_MS = const(5000)  # the least wait after the broker refused us (bad password...)
HANDLED_PER_PASS = const(2)  # requests a pass serves from a backlog; the rest are dropped

NET_REFUSES = {
    "maintenance": "maintenance (deploy) only over the USB cable",
    "leave": "leave only over the USB cable",
}

_STAGE_SUBSCRIBE = const(0)
_STAGE_CLAIM = const(1)
_STAGE_STATE = const(2)
_STAGE_LATE = const(3)
_STAGE_DISCOVERY = const(4)
_STAGE_DONE = const(5)



class Venue:
    """The prop's presence on the broker; poll(now) once per pass (NetPort does)."""

    def __init__(self, cfg, link, app, identity, uid: str, rng, network_module=None,
                 socket_module=None) -> None:
        import socket
        self._socket = socket_module or socket
        self._link = link
        self._identity = identity
        self.id = cfg["id"] or identity["prop"]
        self.prefix = cfg["prefix"]
        base = cfg["prefix"] + "/" + self.id + "/"
        self.t_event = (base + "event").encode()
        self.t_state = (base + "state").encode()
        self.t_status = (base + "status").encode()
        self.t_cmd = (base + "cmd").encode()
        self.t_reply = (base + "reply").encode()
        self.t_claim = (base + "claim").encode()
        self._uid = uid.encode()
        self._host = cfg["broker"]
        self._port = cfg["port"]
        self._addr = None
        self.discovery = cfg["discovery"]
        self.discovery_prefix = cfg.get("discovery_prefix", "homeassistant")  # settings always has it
        commands = app.commands()
        self._state_fn = commands["state"][0] if "state" in commands else app.snapshot
        self.backoff = Backoff(rng)
        self.backoff.retry_at = ticks_ms()  # type: ignore[attr-defined,assignment]
        self.tls_problem = ""  # why TLS cannot be used: then the prop never connects in the clear
        tls = None
        if cfg.get("tls"):
            from net import tls as tls_setup
            tls, self.tls_problem = tls_setup.context(cfg.get("ca") or "ca.pem", self._host)
            _forget("net.tls")
        self._client = Client(("%s-%s-%s" % (self.prefix, self.id, uid)).encode(), cfg["keepalive_s"],
                              cfg["user"].encode() or None, cfg["broker_password"].encode() or None,
                              (self.t_status, b"offline"), self._on_message, self._on_change,
                              socket_module=self._socket, tls=tls)
        self._wifi = None
        if cfg["ssid"]:
            from net.wifi import Wifi
            if network_module is None:
                import network as network_module
            self._wifi = Wifi(network_module, cfg["ssid"], cfg["password"], self._on_wifi, Backoff(rng))
        self._now = 0
        self._try_at = 0  # when the last connect began
        self._up_since = 0
        self._connected = False  # between "up" and the next change
        self._stage = _STAGE_DONE
        self._state_dirty = True
        self._state_at = 0
        self._last_event = ""
        self.connects = 0
        self._discovery_sent = 0  # net.discovery's documents out so far
        self.late = Late()  # events while the broker is away (net.late)
        self.dropped_replies = 0
        self.dropped_commands = 0  # requests dropped unread in a flood's backlog
        self._handled = 0          # requests served in this pass
        link.mirror = self._on_event_line

    @property
    def client(self) -> Client:
        return self._client

    # --- the pass ---------------------------------------------------
    def poll(self, now: int) -> None:
        """Bounded, never waits: Wi-Fi, connect, read/write, announce, the retained state."""
        self._now = now
        self._handled = 0
        client = self._client
        if self._wifi is not None and not self._wifi.poll(now):
            if client.state != DOWN:
                client.close(False)
                self._connected = False
                self._report("lost", "Wi-Fi is down", self.backoff.next(now))
            return
        if client.state == DOWN:
            if ticks_diff(now, self.backoff.retry_at) >= 0:
                self._connect(now)
            return
        client.poll(now)
        if client.state != UP:
            return
        if self._stage != _STAGE_DONE:
            self._announce()
        elif self._state_dirty and ticks_diff(now, self._state_at) >= STATE_EVERY_MS:
            self._publish_state(now)

    def _connect(self, now: int) -> None:
        if self.tls_problem:  # net.tls and no way to check the broker: never in the clear
            self._report("lost", self.tls_problem, self.backoff.next(now, REFUSED_WAIT_MS))
            return
        if self._addr is None:
            try:
                # An IP address resolves at once; a host name asks DNS and waits for it
                # (docs/venue.md: give the broker as an address). Resolved once per boot.
                found = self._socket.getaddrinfo(self._host, self._port, 0, self._socket.SOCK_STREAM)
                self._addr = found[0][-1]
            except OSError as exc:
                self._report("lost", "cannot resolve the broker %s (%s)" % (self._host, exc),
                             self.backoff.next(now))
                return
        self.connects += 1
        self._try_at = now
        self._client.open(self._addr, now)

    def _announce(self) -> None:
        client = self._client
        stage = self._stage
        if stage == _STAGE_SUBSCRIBE:
            # commands at QoS 1: a request sent at QoS 1 (propctl venue --send) is acknowledged
            if client.subscribe(self.t_cmd, 1) and client.subscribe(self.t_claim):
                stage = _STAGE_CLAIM
        elif stage == _STAGE_CLAIM:
            if client.publish(self.t_claim, self._uid) and client.publish(self.t_status, b"online", True):
                stage = _STAGE_STATE
        elif stage == _STAGE_STATE:
            if self._publish_state(self._now):
                stage = _STAGE_LATE
        elif stage == _STAGE_LATE:
            if self.late.publish(self._client, self.t_event):
                stage = _STAGE_DISCOVERY  # the configs, or (discovery off) their removal
        else:
            from net import discovery
            if discovery.announce(self, client):
                stage = _STAGE_DONE
                _forget("net.discovery")  # its bytecode back to the heap until the next connect
        self._stage = stage

    def state_document(self) -> dict:
        """What PREFIX/ID/state holds (the `state` command's answer with who answers)."""
        try:
            state = self._state_fn()
        except Exception as exc:  # a state that cannot be read must not stop the network
            state = {"error": "%s: %s" % (type(exc).__name__, exc)}
        ident = self._identity
        return {"prop": ident["prop"], "id": self.id, "firmware": ident["firmware"], "board": ident["board"],
                "last_event": self._last_event, "state": state}

    def _publish_state(self, now: int) -> bool:
        document = self.state_document()
        payload = protocol.encode(document)
        if not self._client.fits(self.t_state, len(payload)):  # would never go out: say so instead
            document["state"] = {"error": "state of %d bytes is larger than the net buffer" % len(payload)}
            payload = protocol.encode(document)
        if self._client.publish(self.t_state, memoryview(payload)[:-1], True):
            self._state_dirty = False
            self._state_at = now
            return True
        return False

    # --- what the link and the broker report ------------------------
    def _on_event_line(self, name: str, line) -> None:
        """Link.mirror: every event line also goes to PREFIX/ID/event; the state follows.
        With the broker away (or not yet announced) the line is kept for later (net.late)."""
        self._state_dirty = True
        self._last_event = name
        if self._client.state == UP and self._stage >= _STAGE_DISCOVERY:
            self._client.publish(self.t_event, memoryview(line)[:-1])
        elif name != "net":  # the network's own events say what the broker already knows
            self.late.keep(line)

    def _reply(self, line) -> None:
        if not self._client.publish(self.t_reply, memoryview(line)[:-1]):
            self.dropped_replies += 1

    def _on_message(self, topic, payload, retain: bool) -> bool:
        """The client's on_message; False: dropped unread (a flood's backlog)."""
        if retain:
            # a retained command would run again at every connect: never run one. A retained
            # claim is no board arriving (a board publishes its claim live): one left on the
            # broker would otherwise keep this prop off it for good
            return True
        if topic == self.t_claim:
            if payload != self._uid:
                self._claimed_by_another()
            return True
        if self._client.backlog and self._handled >= HANDLED_PER_PASS:
            # a flood: more waits behind this one than a pass may serve. Dropped unread and
            # counted, so the backlog drains at reading speed and the request after it is
            # answered at once (net: dropped_commands)
            self.dropped_commands += 1
            return False
        self._handled += 1
        self._link.handle_line(OVERLONG if payload is None else payload, self._reply, NET_REFUSES)
        return True

    def _claimed_by_another(self) -> None:
        now = self._now
        client = self._client
        if ticks_diff(now, self._up_since) < CLAIM_WINDOW_MS:
            client.close(True)  # polite: no will, the other board's "online" stands
            self._connected = False
            self._report("id_taken", "another prop is on the broker as %s; give this one its own "
                         "net.id" % self.id, self.backoff.next(now, ID_TAKEN_WAIT_MS))
        else:
            self._stage = _STAGE_CLAIM  # tell the newcomer, and put our status and state back
            self._state_dirty = True
            self._link.event("net", {"state": "id_conflict", "why": "another prop tried to use %s" % self.id})

    def _on_change(self, kind: str, why: str) -> None:
        now = self._now
        if kind == "up":
            self._connected = True
            self._up_since = now
            self._stage = _STAGE_SUBSCRIBE
            self._state_dirty = True
            broker = "%s:%d" % (self._host, self._port)
            self._link.event("net", {"state": "up", "broker": broker, "id": self.id})
            return
        if kind == "denied":
            self._link.event("net", {"state": "denied", "why": why})
            return
        # only the end of a connection that was up and lasted resets the waits: a refused
        # connect at a dead broker follows no connection (it used to reset them too, so a
        # prop up for 10 s knocked once a second forever)
        was_up, self._connected = self._connected, False
        if kind == "lost" and was_up and ticks_diff(now, self._up_since) >= STAY_UP_MS \
                and self._stage == _STAGE_DONE:
            self.backoff.reset()
        if kind == "lost" and not was_up:
            # a try that never came up: its wait counts from the try's start, so the try's own
            # time (a silent host's TCP timeout, 5 s) is part of the wait, not added to it: a
            # broker back just after a try began is tried again within 1.25 x MAX_MS of it
            self.backoff.next(self._try_at)
            delay = ticks_diff(self.backoff.retry_at, now)
            if delay < 0:
                delay = 0
        else:
            delay = self.backoff.next(now, REFUSED_WAIT_MS if kind == "refused" else 0)
        self._report(kind, why, delay)

    def _on_wifi(self, kind: str, why: str) -> None:
        if kind == "wifi_up":  # the broker at once, not after the wait the Wi-Fi outage built up
            self.backoff.reset()
            self.backoff.retry_at = self._now
        self._link.event("net", {"state": kind, "why": why})

    def _report(self, state: str, why: str, delay: int) -> None:
        self._link.event("net", {"state": state, "why": why, "retry_ms": delay})


def _forget(name: str) -> None:
    """Drop a module that is used only at connect (its bytecode is heap when not frozen)."""
    import sys

    import net
    sys.modules.pop(name, None)
    leaf = name.rsplit(".", 1)[-1]
    if leaf in net.__dict__:
        delattr(net, leaf)


class NetPort:
    """The serial port with the network's work in front of each wait (runtime.Runtime's port)."""

    def __init__(self, port, venue, clock=None) -> None:
        self._port = port
        self.venue = venue
        self._clock = clock if clock is not None else ticks_ms
        self._last = self._clock()
        self.slowest_ms = 0  # the longest network slice so far
        self.overrun_ms = 0  # the most a slice ran past its pass's wait: how late it made a deadline

    def pump(self, timeout_ms: int = 0) -> int:
        t0 = self._clock()
        # A prop whose every wait is shorter than SLACK_MS (a stepper faster than 500
        # steps/s) still gives the network a slice every STARVED_MS, or the broker would
        # drop it for silence; that slice may delay one of its ticks by its own length.
        if timeout_ms >= SLACK_MS or ticks_diff(t0, self._last) >= STARVED_MS:
            self._last = t0
            self.venue.poll(t0)
            spent = ticks_diff(self._clock(), t0)
            if spent > self.slowest_ms:
                self.slowest_ms = spent
            if spent - timeout_ms > self.overrun_ms:
                self.overrun_ms = spent - timeout_ms
            timeout_ms = timeout_ms - spent if spent < timeout_ms else 0
        return self._port.pump(timeout_ms)

    def stats(self) -> dict:
        """The link's `net` command: how the network is doing and what it cost the loop."""
        venue = self.venue
        client = venue.client
        return {"up": client.state == UP, "id": venue.id, "connects": venue.connects,
                "slowest_slice_ms": self.slowest_ms, "overrun_ms": self.overrun_ms,
                "dropped_publishes": client.dropped, "dropped_replies": venue.dropped_replies,
                "dropped_commands": venue.dropped_commands,
                "late_kept": venue.late.kept, "late_sent": venue.late.sent, "late_lost": venue.late.lost}

    def hold_repl(self) -> None:
        self._port.hold_repl()

    def release_repl(self) -> None:
        self._port.release_repl()


def board_uid() -> str:
    """This board's unique id as hex (machine.unique_id())."""
    import machine
    return "".join("%02x" % b for b in machine.unique_id())


def start(port, link, app, settings, identity) -> NetPort:
    """The serial port wrapped with the venue (link.startup's call when net.broker is set)."""
    from rules.rng import Rng
    uid = board_uid()
    seed: int = ticks_ms()  # type: ignore[attr-defined,assignment]
    for ch in uid:
        seed = (seed * 31 + ord(ch)) & 0xFFFFF  # stays a small int on a board
    venue = Venue(settings["net"], link, app, identity, uid, Rng(seed))
    net_port = NetPort(port, venue)
    link.add_commands({"net": (net_port.stats, {})})
    return net_port
