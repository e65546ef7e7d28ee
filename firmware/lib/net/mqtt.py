"""A small non-blocking MQTT 3.1.1 client for the deadline loop.

    client = Client(b"prop-e6614c", keepalive_s=30, user=b"clock1", password=b"...",
                    will=(b"props/clock1/status", b"offline"), on_message=f, on_change=g)
    client.open(addr, now)               # TCP connect started, CONNECT queued; returns at once
    client.poll(now)                     # every pass: bounded work, never waits
    client.publish(topic, payload, retain=True)   # False when not connected or no room
    client.subscribe(topic)

Why not micropython-lib's umqtt.simple: its connect() and publish() block
(a blocking connect to a silent broker waits for the TCP stack's timeout,
seconds; a publish to a stalled socket waits until the kernel takes it), and
its check_msg() reads a packet with blocking reads once the first byte is
there. Any of those would hold the clock's stop or the fuse box's scan. Here
the socket is never blocking: connect is polled for writability, outgoing
packets go into one preallocated buffer that poll() writes as far as the
socket takes, incoming bytes are read into a preallocated chunk and parsed
byte by byte into one preallocated packet buffer, at most MAX_MESSAGES
messages per poll(). The bytes on the wire (both ways) are net.mqtt_packets;
this module is the connection: its states, the socket, the keep-alive.

What it does: CONNECT (clean session, will, user and password), CONNACK
with its refusal codes, PUBLISH QoS 0 both ways and QoS 1 both ways (a
PUBACK for each QoS 1 message received; with a clean session nothing is
resent after a reconnect, the caller republishes its retained state),
SUBSCRIBE (QoS 0 or 1), PINGREQ/PINGRESP keep-alive, DISCONNECT. An incoming
packet larger than the packet buffer is skipped whole (on_message gets None
as its payload). Topics and payloads are bytes: nothing is encoded here.

on_change(kind, why) reports "up", "lost" (why: text) and "refused" (why:
the CONNACK refusal); after "lost" or "refused" the client is down and the
caller decides when to open() again (net.venue: backoff with jitter).

Idle passes allocate nothing: no packet in, nothing to send, keep-alive not
due. Times are ticks_ms values compared with ticks_diff only.
"""
import errno
import select
import socket
from time import ticks_diff

from micropython import const

from net.mqtt_packets import DISCONNECT, MALFORMED, MORE, PACKET, Outbox, PacketReader

DOWN = const(0)
TCP = const(1)      # TCP connect under way
CONNACK = const(2)  # CONNECT sent (or queued), waiting for the broker's answer
UP = const(3)

TCP_TIMEOUT_MS = const(5000)
CONNACK_TIMEOUT_MS = const(5000)
# The keep-alive, the client's side (MQTT 3.1.1, 3.1.2.10: a control packet at least every
# keepalive; "If a Client does not receive a PINGRESP Packet within a reasonable amount of
# time after it has sent a PINGREQ, it SHOULD close the Network Connection"). A PINGREQ
# after PING_IDLE_MS without sending or without receiving (keepalive/2 if that is shorter),
# an answer due within
# PING_ANSWER_MS (keepalive if shorter). Short, so a prop notices a broker that went away
# silently (its host switched off) within 12 s, and a broker that came back before the prop
# noticed it was gone (a host that rebooted, an access point restarted) answers the next
# ping with a reset within 7 s: a ping is 2 bytes each way (docs/venue.md, "The deadline
# loop comes first").
PING_IDLE_MS = const(7000)
PING_ANSWER_MS = const(5000)
MAX_CHUNKS = const(4)      # at most 1 KB read per poll()...
MAX_MESSAGES = const(8)    # ...and at most 8 messages handed on per poll()
# A flood: messages the caller drops unread (on_message returns False: a backlog it cannot
# serve) cost a parse only, so a poll may read on past the limits above, up to these
MAX_DROP_CHUNKS = const(8)
MAX_DROPPED = const(32)

# CONNACK return codes 1..5, for a person
REFUSALS = ("accepted", "the broker does not speak MQTT 3.1.1", "the broker refused the client id",
            "the broker is unavailable", "bad user name or password", "not authorised")

_NOT_YET = (errno.EAGAIN, errno.EINPROGRESS, getattr(errno, "EWOULDBLOCK", errno.EAGAIN))
_POLL_BAD = select.POLLERR | select.POLLHUP


def _ignore(*args) -> None:
    return None


class Client:
    """One connection to one broker; see the module docstring."""

    def __init__(self, client_id: bytes, keepalive_s: int = 30, user=None, password=None, will=None,
                 on_message=None, on_change=None, out_size: int = 2048, in_size: int = 640,
                 socket_module=None, tls=None) -> None:
        self.client_id = client_id
        # (ssl.SSLContext, server host name) or None: the TCP connection is wrapped once it is
        # up, before a byte of CONNECT (user, password) is written; the handshake runs inside
        # the non-blocking reads and writes that follow (do_handshake_on_connect=False)
        self._tls = tls
        self.keepalive_ms = keepalive_s * 1000
        half = self.keepalive_ms // 2
        self.ping_every_ms = half if half < PING_IDLE_MS else PING_IDLE_MS
        self.ping_answer_ms = self.keepalive_ms if self.keepalive_ms < PING_ANSWER_MS else PING_ANSWER_MS
        self._user = user
        self._password = password
        self._will = will            # (topic, payload): published retained by the broker if we vanish
        self.on_message = on_message or _ignore   # (topic, payload or None, retain)
        self.on_change = on_change or _ignore     # (kind, why)
        self._socket = socket_module or socket
        self._sock = None
        self._poll = select.poll()
        self.state = DOWN
        self._since = 0              # ticks when the state began
        self._last_tx = 0
        self._last_rx = 0
        self._pinging = False
        self._pid = 0
        self.unacked = 0             # QoS 1 publishes without PUBACK yet
        self.backlog = False         # more bytes wait behind the message on_message has now
        self._full = False
        self.dropped = 0             # publishes refused for want of room
        self._out = Outbox(out_size)
        self._in = PacketReader(in_size)

    # --- connection -------------------------------------------------
    def open(self, addr, now: int) -> None:
        """Start a TCP connect to addr (from socket.getaddrinfo) and queue CONNECT. Never waits."""
        self.close(False)
        sock = self._socket.socket()
        sock.setblocking(False)
        try:
            sock.connect(addr)
        except OSError as exc:
            if exc.args[0] not in _NOT_YET:
                sock.close()
                self._down(now, "lost", "cannot connect (%s)" % _errname(exc))
                return
        self._sock = sock
        self._poll.register(sock, select.POLLOUT)
        self._out.clear()
        self._in.reset()
        self._pinging = False
        self.unacked = 0
        self._set(TCP, now)
        self._out.connect(self.client_id, self.keepalive_ms // 1000, self._will, self._user,
                          self._password)

    def close(self, polite: bool = True) -> None:
        """Drop the connection (with a DISCONNECT first when polite: no will is published)."""
        sock = self._sock
        if sock is None:
            return
        if polite and self.state == UP:
            try:
                sock.write(DISCONNECT)
            except OSError:
                pass
        try:
            self._poll.unregister(sock)
        except (OSError, ValueError, KeyError):
            pass
        sock.close()
        self._sock = None
        self.state = DOWN

    def _set(self, state: int, now: int) -> None:
        self.state = state
        self._since = now
        self._last_rx = now
        self._last_tx = now

    def _down(self, now: int, kind: str, why: str) -> None:
        self.close(False)
        self._since = now
        self.on_change(kind, why)

    # --- the pass ---------------------------------------------------
    def poll(self, now: int) -> None:
        """Bounded work: finish the connect, write what the socket takes, read and hand on
        messages, keep the connection alive, notice a dead one. Never waits."""
        state = self.state
        if state == DOWN:
            return
        if state == TCP:
            for entry in self._poll.ipoll(0):
                if entry[1] & _POLL_BAD:
                    self._down(now, "lost", "the broker refused the connection (is it running?)")
                    return
                if entry[1] & select.POLLOUT:
                    if self._tls is not None and not self._wrap(now):
                        return
                    self._poll.modify(self._sock, select.POLLIN)
                    self._set(CONNACK, now)
            if self.state == TCP:
                if ticks_diff(now, self._since) >= TCP_TIMEOUT_MS:
                    self._down(now, "lost", "no answer to the TCP connect in %d s" % (TCP_TIMEOUT_MS // 1000))
                return
        if not self._flush(now):
            return
        if not self._read(now):
            return
        if self.state == CONNACK:
            if ticks_diff(now, self._since) >= CONNACK_TIMEOUT_MS:
                self._down(now, "lost", "the broker took the connection but never answered CONNECT")
            return
        if self._pinging:
            if ticks_diff(now, self._last_rx) >= self.ping_answer_ms:
                self._down(now, "lost", "no answer from the broker for %d s" % (self.ping_answer_ms // 1000))
                return
        elif ticks_diff(now, self._last_tx) >= self.ping_every_ms \
                or ticks_diff(now, self._last_rx) >= self.ping_every_ms:
            # quiet either way: a prop that publishes all the time (a round under way) still
            # asks, or a broker gone silent would never be noticed while the kernel takes bytes
            if self._out.pingreq():
                self._pinging = True
                self._last_rx = now  # the answer is due within ping_answer_ms from here

    def _wrap(self, now: int) -> bool:
        """The TCP connection into TLS (the server's certificate and name are checked in the
        handshake, by the context); False when that cannot even start."""
        context, host = self._tls
        sock = self._sock
        try:
            self._poll.unregister(sock)
        except (OSError, ValueError, KeyError):
            pass
        try:
            self._sock = context.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
        except (OSError, ValueError) as exc:
            self._sock = sock
            self._down(now, "lost", "TLS cannot start (%s)" % _errname(exc))
            return False
        self._poll.register(self._sock, select.POLLIN)
        return True

    def _flush(self, now: int) -> bool:
        out = self._out
        if out.start == out.end:
            return True
        try:
            n = self._sock.write(out.view[out.start:out.end])  # type: ignore[attr-defined]
        except (OSError, ValueError) as exc:  # ValueError: the ports' ssl on a refused certificate
            if exc.args and exc.args[0] in _NOT_YET:
                return True
            self._down(now, "lost", self._failed("cannot send", exc))
            return False
        if n:
            out.sent(n)
            self._last_tx = now
        return True

    def _failed(self, what: str, exc) -> str:
        if self._tls is not None and self.state != UP:  # during the handshake: TLS's doing
            return "TLS handshake with the broker failed: " + _tls_why(exc)
        return "%s (%s)" % (what, _tls_why(exc) if self._tls is not None else _errname(exc))

    def _read(self, now: int) -> bool:
        reader = self._in
        messages = 0
        chunks = 0
        dropped = 0
        while messages < MAX_MESSAGES and dropped < MAX_DROPPED:
            if reader.empty():
                if chunks >= (MAX_DROP_CHUNKS if dropped else MAX_CHUNKS):
                    return True
                chunks += 1
                try:
                    n = self._sock.readinto(reader.chunk)  # type: ignore[attr-defined]
                except (OSError, ValueError) as exc:
                    if exc.args and exc.args[0] in _NOT_YET:
                        return True
                    self._down(now, "lost", self._failed("the connection broke", exc))
                    return False
                if n is None:
                    return True
                if n == 0:
                    self._down(now, "lost", "the broker closed the connection")
                    return False
                reader.filled(n)
                self._last_rx = now
                self._full = n == len(reader.chunk)  # the socket may hold more behind it
            got = reader.parse()
            if got == MORE:
                continue
            if got == MALFORMED:
                self._down(now, "lost", "the broker sent a malformed packet")
                return False
            # more bytes behind this packet: it is part of a backlog (the caller may drop it)
            self.backlog = not reader.empty() or self._full
            if got == PACKET:
                taken = self._dispatch(now)
                if taken is None:
                    return False
                if not taken:
                    dropped += 1
                    continue
            elif reader.header >> 4 == 3:  # SKIPPED: a PUBLISH too large for the packet buffer
                self.on_message(None, None, False)
            messages += 1
        return True

    def _dispatch(self, now: int):
        """Act on the packet in the reader: True, False for a PUBLISH the caller dropped unread
        (on_message returned False), None when the connection was dropped."""
        reader = self._in
        header = reader.header
        kind = header >> 4
        pkt = reader.packet
        size = reader.size
        if kind == 2:  # CONNACK
            code = pkt[1] if size >= 2 else 255
            if code == 0:
                self._set(UP, now)
                self.on_change("up", "")
                return True if self.state == UP else None
            why = REFUSALS[code] if code < len(REFUSALS) else "refused with code %d" % code
            self._down(now, "refused", why)
            return None
        if kind == 3:  # PUBLISH
            qos = (header >> 1) & 3
            tlen = (pkt[0] << 8) | pkt[1] if size >= 2 else size
            pos = 2 + tlen
            if qos:
                pos += 2
            if pos > size:
                self._down(now, "lost", "the broker sent a malformed PUBLISH")
                return None
            if qos == 1:
                self._out.puback(pkt[pos - 2], pkt[pos - 1])
            if self.on_message(bytes(pkt[2:2 + tlen]), bytes(pkt[pos:size]), bool(header & 1)) is False:
                return False if self._sock is not None else None
            return True if self._sock is not None else None
        if kind == 4:  # PUBACK
            if self.unacked:
                self.unacked -= 1
        elif kind == 13:  # PINGRESP
            self._pinging = False
        elif kind == 9:  # SUBACK
            if size >= 3 and pkt[2] == 0x80:
                self.on_change("denied", "the broker refused a subscription (check the ACL)")
        return True

    # --- outgoing ---------------------------------------------------
    def publish(self, topic: bytes, payload, retain: bool = False, qos: int = 0) -> bool:
        """Queue one PUBLISH; False (nothing queued) when not connected or the buffer is full."""
        if self.state != UP:
            return False
        pid = self._pid % 65535 + 1  # taken only by a QoS 1 message that is queued
        if not self._out.publish(topic, payload, retain, qos, pid):
            self.dropped += 1
            return False
        if qos:
            self._pid = pid
            self.unacked += 1
        return True

    def subscribe(self, topic: bytes, qos: int = 0) -> bool:
        """Queue one SUBSCRIBE (QoS 0 or 1); False when not connected or no room."""
        pid = self._pid % 65535 + 1
        if self.state != UP or not self._out.subscribe(topic, qos, pid):
            return False
        self._pid = pid
        return True

    def fits(self, topic: bytes, size: int) -> bool:
        """Could a PUBLISH of `size` payload bytes to `topic` ever fit the out buffer?"""
        return self._out.fits(topic, size)

    def pending(self) -> int:
        """Bytes queued and not yet taken by the socket."""
        return self._out.pending()


def _tls_why(exc) -> str:
    """An mbedtls failure (a negative code; the text where the port gives one) for a person."""
    code = exc.args[0] if exc.args else 0
    text = str(exc.args[1]) if len(exc.args) > 1 else ""
    if isinstance(exc, ValueError):  # the unix port's ssl: the mbedtls verify text
        text = str(code).strip()
        if "CA" in text or "certificate" in text or "CN" in text:
            return ("the broker's certificate was refused: not signed by the CA in net.ca, or not "
                    "made for the name net.broker (%s)" % text)
        return "TLS error: %s" % text
    if type(code) is int and code < 0:
        if code in (-0x2700, -9984) or "VERIFY" in text:  # MBEDTLS_ERR_X509_CERT_VERIFY_FAILED
            return ("the broker's certificate was refused: not signed by the CA in net.ca, or not "
                    "made for the name net.broker (%d)" % code)
        return "TLS error %d %s" % (code, text)
    return _errname(exc)


def _errname(exc) -> str:
    code = exc.args[0] if exc.args else 0
    for name in ("ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ETIMEDOUT", "ENOTCONN", "EPIPE"):
        if getattr(errno, name, None) == code:
            return name
    return "error %s" % code
