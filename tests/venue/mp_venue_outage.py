"""Fifty props through a broker outage, in virtual time (MicroPython): net.venue.Venue and
net.mqtt.Client as a board runs them, against a model of the broker's host.

    MICROPYPATH=firmware/lib micropython tests/venue/mp_venue_outage.py KIND OUTAGE_MS...

Each prop connects, runs for a while (a random 0-8 s more than the others, so its pings
fall anywhere relative to the outage), then the broker goes away at t=0 and is back at
OUTAGE_MS. KIND says how it goes away:

  restart   the broker's process stops: its host's TCP stack closes every connection
            (the prop reads the end at once) and refuses every connect until it is back;
  silent    the host is switched off (a Raspberry Pi rebooting): nothing answers, a connect
            gets no reply until the client's own timeout, bytes written to a connection
            are taken and never acknowledged (worst case: a connect begun while the host
            was off never completes, even after it is back);
  busy      silent, while the prop publishes its state every 250 ms (a round under way):
            its writes are taken, so only a ping can tell it the broker is gone;
  (a short silent outage: back before the prop has noticed, the new host answers the next
            byte the prop sends on its old connection with a reset (data queued while the
            host was off, conservatively, never gets that reset: the ping's answer timeout
            must find it).

The broker is back at OUTAGE_MS with a fresh session table: a prop is back when its
retained "online" reaches it. Each prop's passes are 20 ms apart (the props scan every
5-10 ms; 20 ms rounds the figures up), and the run jumps over stretches where nothing can
happen (waiting for a retry, a connect that cannot complete, an idle connection before its
next ping) to the next moment something can. Ticks wrap at 2^30 inside the outage.

Prints one JSON line per outage: {"kind", "outage_ms", "back_ms": [50 delays, sorted]}.
"""
import errno
import json
import select
import sys
from time import ticks_add, ticks_diff

from net.mqtt import DOWN, TCP, UP
from net.venue import Venue

from rules.rng import Rng

PROPS = 50
STEP_MS = 20
T0 = (1 << 30) - 40000  # t=0 (the outage's start) in ticks: the wrap falls 40 s into it


class Host:
    """The broker's host: up (a broker answering), restart or silent (see the docstring)."""

    def __init__(self, kind: str, outage_ms: int) -> None:
        self.kind = kind
        self.outage_ms = outage_ms
        self.t = -60000
        self.online_at = None  # t of the first "online" published to the broker after its return

    def state(self) -> str:
        if 0 <= self.t < self.outage_ms:
            return "refusing" if self.kind == "restart" else "silent"
        return "up"

    def epoch(self) -> int:
        """Connections made in one epoch die with it: 0 before the outage, 1 after."""
        return 0 if self.t < 0 else 1

    def events(self) -> tuple:
        return (0, self.outage_ms)


class Sock:
    """A non-blocking TCP socket to the broker's host, with the broker (MQTT 3.1.1) behind it."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.connect_state = None  # "pending", "silent" (never completes), "ok", "refused"
        self.epoch = -1
        self.inbox = bytearray()
        self.outbuf = bytearray()
        self.eof_seen = False
        self.stuck = False        # bytes written while the host was off: never acknowledged

    # --- what the client calls -------------------------------------
    def setblocking(self, flag) -> None:
        pass

    def connect(self, addr) -> None:
        state = self.host.state()
        if state == "silent":
            self.connect_state = "silent"
        elif state == "refusing":
            self.connect_state = "refused"
        else:
            self.connect_state = "ok"
            self.epoch = self.host.epoch()
        raise OSError(errno.EINPROGRESS)

    def dead(self) -> bool:
        return self.epoch != self.host.epoch()

    def write(self, data) -> int:
        if self.dead():
            if self.host.kind == "restart":
                raise OSError(errno.ECONNRESET)
            if self.host.state() == "silent" or self.stuck:
                self.stuck = True
                return len(data)
            raise OSError(errno.ECONNRESET)  # the host is back and knows no such connection
        self.outbuf.extend(data)
        self._serve()
        return len(data)

    def readinto(self, buf) -> int:
        if self.dead():
            if self.host.kind == "restart" and not self.eof_seen:
                self.eof_seen = True
                return 0  # the broker's process ended: its host closed the connection
            raise OSError(errno.EAGAIN)
        if not self.inbox:
            raise OSError(errno.EAGAIN)
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox = self.inbox[n:]
        return n

    def close(self) -> None:
        pass

    # --- the broker ------------------------------------------------
    def _serve(self) -> None:
        """Answer every whole packet in outbuf: CONNACK, SUBACK, PUBACK, PINGRESP."""
        while len(self.outbuf) >= 2:
            header = self.outbuf[0]
            remaining = 0
            shift = 0
            pos = 1
            while True:
                if pos >= len(self.outbuf):
                    return
                byte = self.outbuf[pos]
                remaining |= (byte & 0x7F) << shift
                shift += 7
                pos += 1
                if not byte & 0x80:
                    break
            if len(self.outbuf) < pos + remaining:
                return
            body = bytes(self.outbuf[pos:pos + remaining])
            self.outbuf = self.outbuf[pos + remaining:]
            kind = header >> 4
            if kind == 1:
                self.inbox.extend(b"\x20\x02\x00\x00")
            elif kind == 8:
                self.inbox.extend(b"\x90\x03" + body[:2] + b"\x00")
            elif kind == 12:
                self.inbox.extend(b"\xd0\x00")
            elif kind == 3:
                tlen = (body[0] << 8) | body[1]
                topic = body[2:2 + tlen]
                pos = 2 + tlen
                if (header >> 1) & 3:
                    self.inbox.extend(b"\x40\x02" + body[pos:pos + 2])
                    pos += 2
                if topic.endswith(b"/status") and body[pos:] == b"online" and self.host.t >= 0 \
                        and self.host.online_at is None:
                    self.host.online_at = self.host.t


class SocketModule:
    SOCK_STREAM = 1

    def __init__(self, host: Host) -> None:
        self.host = host

    def getaddrinfo(self, host, port, family=0, kind=0):
        return [(2, 1, 0, "", ("192.168.1.20", port))]

    def socket(self, *args):
        return Sock(self.host)


class Poll:
    """select.poll over the fake sockets (the client asks only while its TCP connect runs)."""

    def __init__(self) -> None:
        self.socks = []

    def register(self, sock, mask=0) -> None:
        self.socks.append(sock)

    def unregister(self, sock) -> None:
        self.socks.remove(sock)

    def modify(self, sock, mask) -> None:
        pass

    def ipoll(self, timeout=0):
        ready = []
        for sock in self.socks:
            if sock.connect_state == "ok":
                ready.append((sock, select.POLLOUT))
            elif sock.connect_state == "refused":
                ready.append((sock, select.POLLERR | select.POLLHUP))
        return ready


class Link:
    def __init__(self) -> None:
        self.mirror = None

    def event(self, name, fields=None) -> None:
        pass

    def handle_line(self, line, write=None, refuse=None) -> None:
        pass


class App:
    def commands(self):
        return {}

    def snapshot(self):
        return {"state": "idle"}


CFG = {"ssid": "", "password": "", "broker": "192.168.1.20", "port": 1883, "user": "p",
       "broker_password": "pw", "prefix": "props", "id": "p", "keepalive_s": 30, "discovery": False}


def next_step(venue, host: Host) -> int:
    """ms to the next moment something can happen for this prop (at least STEP_MS)."""
    client = venue.client
    now = ticks_add(T0, host.t)
    candidates = [host.t + STEP_MS]
    wake = None
    if client.state == DOWN:
        wake = ticks_diff(venue.backoff.retry_at, now)
    elif client.state == TCP and client._sock.connect_state in ("silent", "pending"):
        wake = ticks_diff(ticks_add(client._since, 5000), now)
    elif client.state == UP and venue._stage == 5 and not venue._state_dirty and client.pending() == 0 \
            and not client._sock.inbox:
        # (the firmware before these two: a ping after keepalive/2, its answer within keepalive)
        if client._pinging:
            answer = getattr(client, "ping_answer_ms", client.keepalive_ms)
            wake = ticks_diff(ticks_add(client._last_rx, answer), now)
        else:
            every = getattr(client, "ping_every_ms", client.keepalive_ms // 2)
            wake = ticks_diff(ticks_add(client._last_tx, every), now)
            if hasattr(client, "ping_every_ms"):  # the firmware that also pings when rx is quiet
                wake = min(wake, ticks_diff(ticks_add(client._last_rx, every), now))
    if wake is not None and wake > STEP_MS:
        candidates = [host.t + wake]
        for t in host.events():
            if host.t < t < candidates[0]:
                candidates.append(t)
    return min(candidates)


def one_prop(kind: str, outage_ms: int, i: int) -> int:
    host = Host(kind, outage_ms)
    rng = Rng(1000 + i * 7919)
    host.t = -60000 - rng.below(8000)
    venue = Venue(CFG, Link(), App(), {"prop": "clock", "firmware": "test", "board": "pico"},
                  "uid%d" % i, rng, socket_module=SocketModule(host))
    venue.client._poll = Poll()
    venue.backoff.retry_at = ticks_add(T0, host.t)
    limit = outage_ms + 60000
    busy_at = host.t
    while host.online_at is None and host.t < limit:
        if kind == "busy" and host.t >= busy_at:  # an event: the retained state follows
            venue._state_dirty = True
            busy_at = host.t + 250
        venue.poll(ticks_add(T0, host.t))
        host.t = next_step(venue, host)
    if host.online_at is None or host.online_at < outage_ms:
        raise RuntimeError("prop %d never came back (%s, %d ms)" % (i, kind, outage_ms))
    return host.online_at - outage_ms


def main() -> None:
    kind = sys.argv[1]
    for arg in sys.argv[2:]:
        outage = int(arg)
        back = sorted(one_prop(kind, outage, i) for i in range(PROPS))
        print(json.dumps({"kind": kind, "outage_ms": outage, "back_ms": back}))


main()
