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
messages per poll().

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

DOWN = const(0)
TCP = const(1)      # TCP connect under way
CONNACK = const(2)  # CONNECT sent (or queued), waiting for the broker's answer
UP = const(3)

TCP_TIMEOUT_MS = const(5000)
CONNACK_TIMEOUT_MS = const(5000)
READ_CHUNK = const(256)
MAX_CHUNKS = const(4)      # at most 1 KB read per poll()
MAX_MESSAGES = const(8)    # at most 8 messages handed on per poll()

_CONNECT = const(0x10)
_PUBLISH = const(0x30)
_PUBACK = const(0x40)
_SUBSCRIBE = const(0x82)
_PINGREQ = const(0xC0)
_DISCONNECT = const(0xE0)

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
                 socket_module=None) -> None:
        self.client_id = client_id
        self.keepalive_ms = keepalive_s * 1000
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
        self.dropped = 0             # publishes refused for want of room
        # outgoing bytes: [_out_start, _out_len) still to write
        self._out = bytearray(out_size)
        self._out_mv = memoryview(self._out)
        self._out_start = 0
        self._out_len = 0
        # incoming: a chunk from the socket, parsed into one packet at a time
        self._rx = bytearray(READ_CHUNK)
        self._rx_pos = 0
        self._rx_len = 0
        self._pkt = bytearray(in_size)
        self._pkt_len = 0
        self._phase = 0              # 0 header byte, 1 length bytes, 2 body, 3 skipping
        self._header = 0
        self._remaining = 0
        self._shift = 0

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
        self._out_start = self._out_len = 0
        self._phase = self._rx_pos = self._rx_len = 0
        self._pinging = False
        self.unacked = 0
        self._set(TCP, now)
        self._queue_connect()

    def close(self, polite: bool = True) -> None:
        """Drop the connection (with a DISCONNECT first when polite: no will is published)."""
        sock = self._sock
        if sock is None:
            return
        if polite and self.state == UP:
            try:
                sock.write(b"\xe0\x00")
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
            if ticks_diff(now, self._last_rx) >= self.keepalive_ms:
                self._down(now, "lost", "no answer from the broker for %d s" % (self.keepalive_ms // 1000))
                return
        elif ticks_diff(now, self._last_tx) >= self.keepalive_ms // 2:
            if self._room(2):
                self._byte(_PINGREQ)
                self._byte(0)
                self._pinging = True
                self._last_rx = now  # the answer is due within keepalive_ms from here

    def _flush(self, now: int) -> bool:
        start = self._out_start
        end = self._out_len
        if start == end:
            return True
        try:
            n = self._sock.write(self._out_mv[start:end])  # type: ignore[attr-defined]
        except OSError as exc:
            if exc.args[0] in _NOT_YET:
                return True
            self._down(now, "lost", "cannot send (%s)" % _errname(exc))
            return False
        if n:
            start += n
            self._last_tx = now
        if start >= end:
            start = end = 0
        self._out_start = start
        self._out_len = end
        return True

    def _read(self, now: int) -> bool:
        messages = 0
        chunks = 0
        while messages < MAX_MESSAGES:
            if self._rx_pos >= self._rx_len:
                if chunks >= MAX_CHUNKS:
                    return True
                chunks += 1
                try:
                    n = self._sock.readinto(self._rx)  # type: ignore[attr-defined]
                except OSError as exc:
                    if exc.args[0] in _NOT_YET:
                        return True
                    self._down(now, "lost", "the connection broke (%s)" % _errname(exc))
                    return False
                if n is None:
                    return True
                if n == 0:
                    self._down(now, "lost", "the broker closed the connection")
                    return False
                self._rx_pos = 0
                self._rx_len = n
                self._last_rx = now
            done = self._parse(now)
            if done < 0:
                return False
            messages += done
        return True

    def _parse(self, now: int) -> int:
        """Parse buffered bytes up to the end of one packet: 1 if a packet was handled,
        0 if the chunk ran out, -1 if the connection was dropped."""
        rx = self._rx
        pos = self._rx_pos
        end = self._rx_len
        while pos < end:
            byte = rx[pos]
            pos += 1
            phase = self._phase
            if phase == 0:
                self._header = byte
                self._remaining = 0
                self._shift = 0
                self._phase = 1
            elif phase == 1:
                self._remaining |= (byte & 0x7F) << self._shift
                self._shift += 7
                if byte & 0x80:
                    if self._shift > 21:
                        self._rx_pos = pos
                        self._down(now, "lost", "the broker sent a malformed packet")
                        return -1
                    continue
                self._pkt_len = 0
                if self._remaining == 0:
                    self._phase = 0
                    self._rx_pos = pos
                    return self._dispatch(now)
                self._phase = 2 if self._remaining <= len(self._pkt) else 3
            elif phase == 2:
                self._pkt[self._pkt_len] = byte
                self._pkt_len += 1
                if self._pkt_len == self._remaining:
                    self._phase = 0
                    self._rx_pos = pos
                    return self._dispatch(now)
            else:  # skipping a packet larger than the buffer
                self._remaining -= 1
                if self._remaining == 0:
                    self._phase = 0
                    self._rx_pos = pos
                    if self._header >> 4 == 3:
                        self.on_message(None, None, False)
                    return 1
        self._rx_pos = pos
        return 0

    def _dispatch(self, now: int) -> int:
        kind = self._header >> 4
        pkt = self._pkt
        if kind == 2:  # CONNACK
            code = pkt[1] if self._pkt_len >= 2 else 255
            if code == 0:
                self._set(UP, now)
                self.on_change("up", "")
                return 1 if self.state == UP else -1
            why = REFUSALS[code] if code < len(REFUSALS) else "refused with code %d" % code
            self._down(now, "refused", why)
            return -1
        if kind == 3:  # PUBLISH
            qos = (self._header >> 1) & 3
            size = self._pkt_len
            tlen = (pkt[0] << 8) | pkt[1] if size >= 2 else size
            pos = 2 + tlen
            if qos:
                pos += 2
            if pos > size:
                self._down(now, "lost", "the broker sent a malformed PUBLISH")
                return -1
            if qos == 1 and self._room(4):
                self._byte(_PUBACK)
                self._byte(2)
                self._byte(pkt[pos - 2])
                self._byte(pkt[pos - 1])
            self.on_message(bytes(pkt[2:2 + tlen]), bytes(pkt[pos:size]), bool(self._header & 1))
            return 1 if self._sock is not None else -1
        if kind == 4:  # PUBACK
            if self.unacked:
                self.unacked -= 1
        elif kind == 13:  # PINGRESP
            self._pinging = False
        elif kind == 9:  # SUBACK
            if self._pkt_len >= 3 and pkt[2] == 0x80:
                self.on_change("denied", "the broker refused a subscription (check the ACL)")
        return 1

    # --- outgoing ---------------------------------------------------
    def _room(self, size: int) -> bool:
        if self._out_len + size <= len(self._out):
            return True
        if self._out_start:  # move what is left to the front (rare: only when nearly full)
            left = self._out_len - self._out_start
            self._out[0:left] = self._out[self._out_start:self._out_len]
            self._out_start = 0
            self._out_len = left
        return self._out_len + size <= len(self._out)

    def _byte(self, value: int) -> None:
        self._out[self._out_len] = value
        self._out_len += 1

    def _bytes(self, data) -> None:
        n = len(data)
        self._out[self._out_len:self._out_len + n] = data
        self._out_len += n

    def _field(self, data) -> None:
        self._byte(len(data) >> 8)
        self._byte(len(data) & 0xFF)
        self._bytes(data)

    def _begin(self, header: int, remaining: int) -> bool:
        """Room for a packet with this header and remaining length? Then write its fixed header."""
        size = 2 if remaining < 128 else (3 if remaining < 16384 else 4)
        if remaining >= 2097152 or not self._room(size + remaining):
            return False
        self._byte(header)
        while True:
            digit = remaining & 0x7F
            remaining >>= 7
            if remaining:
                self._byte(digit | 0x80)
            else:
                self._byte(digit)
                return True

    def _queue_connect(self) -> None:
        flags = 0x02  # clean session
        size = 10 + 2 + len(self.client_id)
        will = self._will
        if will is not None:
            flags |= 0x04 | 0x20  # will, QoS 0, retained
            size += 4 + len(will[0]) + len(will[1])
        if self._user:
            flags |= 0x80
            size += 2 + len(self._user)
            if self._password:
                flags |= 0x40
                size += 2 + len(self._password)
        self._begin(_CONNECT, size)
        self._field(b"MQTT")
        self._byte(4)
        self._byte(flags)
        self._byte(self.keepalive_ms // 1000 >> 8)
        self._byte(self.keepalive_ms // 1000 & 0xFF)
        self._field(self.client_id)
        if will is not None:
            self._field(will[0])
            self._field(will[1])
        if self._user:
            self._field(self._user)
            if self._password:
                self._field(self._password)

    def _next_pid(self) -> int:
        self._pid = self._pid % 65535 + 1
        return self._pid

    def publish(self, topic: bytes, payload, retain: bool = False, qos: int = 0) -> bool:
        """Queue one PUBLISH; False (nothing queued) when not connected or the buffer is full."""
        if self.state != UP:
            return False
        size = 2 + len(topic) + len(payload) + (2 if qos else 0)
        if not self._begin(_PUBLISH | (qos << 1) | (1 if retain else 0), size):
            self.dropped += 1
            return False
        self._field(topic)
        if qos:
            pid = self._next_pid()
            self._byte(pid >> 8)
            self._byte(pid & 0xFF)
            self.unacked += 1
        self._bytes(payload)
        return True

    def subscribe(self, topic: bytes, qos: int = 0) -> bool:
        """Queue one SUBSCRIBE (QoS 0 or 1); False when not connected or no room."""
        if self.state != UP or not self._begin(_SUBSCRIBE, 2 + 2 + len(topic) + 1):
            return False
        pid = self._next_pid()
        self._byte(pid >> 8)
        self._byte(pid & 0xFF)
        self._field(topic)
        self._byte(qos)
        return True

    def fits(self, topic: bytes, size: int) -> bool:
        """Could a PUBLISH of `size` payload bytes to `topic` ever fit the out buffer?"""
        return 5 + 2 + len(topic) + size <= len(self._out)

    def pending(self) -> int:
        """Bytes queued and not yet taken by the socket."""
        return self._out_len - self._out_start


def _errname(exc) -> str:
    code = exc.args[0] if exc.args else 0
    for name in ("ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ETIMEDOUT", "ENOTCONN", "EPIPE"):
        if getattr(errno, name, None) == code:
            return name
    return "error %s" % code
