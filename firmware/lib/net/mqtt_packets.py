"""MQTT 3.1.1 on the wire: packets written into one preallocated buffer, and read out of the
byte stream one byte at a time. No sockets, no times, no connection state: net.mqtt.Client
owns those and drives these two.

    Outbox       the outgoing bytes: CONNECT, PUBLISH, PUBACK, SUBSCRIBE, PINGREQ encoded in place
    PacketReader the incoming bytes: a chunk from the socket parsed into one packet at a time

Why apart from the client: the encoding and the parsing are plain byte work a test can drive
without a broker, and the client reads as the state machine it is. Both allocate nothing once
built (the buffers are made once, in __init__), so a pass with nothing to do stays free.
"""
from micropython import const

_CONNECT = const(0x10)
_PUBLISH = const(0x30)
_PUBACK = const(0x40)
_SUBSCRIBE = const(0x82)
_PINGREQ = const(0xC0)
DISCONNECT = b"\xe0\x00"

_READ_CHUNK = const(256)

# PacketReader.parse() results
MORE = const(0)       # the chunk ran out inside a packet: read more
PACKET = const(1)     # reader.header and reader.packet[:reader.size] hold one whole packet
SKIPPED = const(2)    # a packet larger than the packet buffer went by unread (reader.header is its header)
MALFORMED = const(3)  # a remaining length over four bytes: the stream cannot be trusted


class Outbox:
    """The bytes still to send, [start, end) of one buffer; the encoders write at the end."""

    def __init__(self, size: int) -> None:
        self.buf = bytearray(size)
        self.view = memoryview(self.buf)  # slices of it go to socket.write without a copy
        self.start = 0
        self.end = 0

    def clear(self) -> None:
        self.start = self.end = 0

    def pending(self) -> int:
        """Bytes queued and not yet taken by the socket."""
        return self.end - self.start

    def sent(self, n: int) -> None:
        """The socket took n more bytes."""
        self.start += n
        if self.start >= self.end:
            self.start = self.end = 0

    def fits(self, topic: bytes, size: int) -> bool:
        """Could a PUBLISH of `size` payload bytes to `topic` ever fit the buffer?"""
        return 5 + 2 + len(topic) + size <= len(self.buf)

    # --- the packets ------------------------------------------------
    def connect(self, client_id: bytes, keepalive_s: int, will, user, password) -> None:
        """CONNECT with a clean session; will is (topic, payload), published retained at QoS 0."""
        flags = 0x02  # clean session
        size = 10 + 2 + len(client_id)
        if will is not None:
            flags |= 0x04 | 0x20  # will, QoS 0, retained
            size += 4 + len(will[0]) + len(will[1])
        if user:
            flags |= 0x80
            size += 2 + len(user)
            if password:
                flags |= 0x40
                size += 2 + len(password)
        self._begin(_CONNECT, size)
        self._field(b"MQTT")
        self._byte(4)
        self._byte(flags)
        self._byte(keepalive_s >> 8)
        self._byte(keepalive_s & 0xFF)
        self._field(client_id)
        if will is not None:
            self._field(will[0])
            self._field(will[1])
        if user:
            self._field(user)
            if password:
                self._field(password)

    def publish(self, topic: bytes, payload, retain: bool, qos: int, pid: int) -> bool:
        """PUBLISH (pid is used only when qos > 0); False when there is no room."""
        size = 2 + len(topic) + len(payload) + (2 if qos else 0)
        if not self._begin(_PUBLISH | (qos << 1) | (1 if retain else 0), size):
            return False
        self._field(topic)
        if qos:
            self._byte(pid >> 8)
            self._byte(pid & 0xFF)
        self._bytes(payload)
        return True

    def subscribe(self, topic: bytes, qos: int, pid: int) -> bool:
        if not self._begin(_SUBSCRIBE, 2 + 2 + len(topic) + 1):
            return False
        self._byte(pid >> 8)
        self._byte(pid & 0xFF)
        self._field(topic)
        self._byte(qos)
        return True

    def puback(self, pid_high: int, pid_low: int) -> None:
        """Acknowledge a QoS 1 message (dropped when there is no room: the broker sends it again)."""
        if self._room(4):
            self._byte(_PUBACK)
            self._byte(2)
            self._byte(pid_high)
            self._byte(pid_low)

    def pingreq(self) -> bool:
        if not self._room(2):
            return False
        self._byte(_PINGREQ)
        self._byte(0)
        return True

    # --- the bytes --------------------------------------------------
    def _room(self, size: int) -> bool:
        if self.end + size <= len(self.buf):
            return True
        if self.start:  # move what is left to the front (rare: only when nearly full)
            left = self.end - self.start
            self.buf[0:left] = self.buf[self.start:self.end]
            self.start = 0
            self.end = left
        return self.end + size <= len(self.buf)

    def _byte(self, value: int) -> None:
        self.buf[self.end] = value
        self.end += 1

    def _bytes(self, data) -> None:
        n = len(data)
        self.buf[self.end:self.end + n] = data
        self.end += n

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


class PacketReader:
    """Incoming bytes: the socket reads into `chunk`, then parse() parses up to one packet.

    The parse keeps its place across chunks (phase, remaining length), so a packet split over
    any number of reads comes out whole, and never more than one packet per parse() call."""

    def __init__(self, packet_size: int) -> None:
        self.chunk = bytearray(_READ_CHUNK)
        self.packet = bytearray(packet_size)
        self.size = 0                # bytes of the packet body in `packet`
        self.header = 0
        self._pos = 0
        self._len = 0
        self._phase = 0              # 0 header byte, 1 length bytes, 2 body, 3 skipping
        self._remaining = 0
        self._shift = 0

    def reset(self) -> None:
        """A new connection: forget any half-read packet."""
        self._phase = self._pos = self._len = 0

    def empty(self) -> bool:
        """Every byte of the last chunk parsed?"""
        return self._pos >= self._len

    def filled(self, n: int) -> None:
        """The socket put n bytes into `chunk`."""
        self._pos = 0
        self._len = n

    def parse(self) -> int:
        """Parse chunk bytes up to the end of one packet: MORE, PACKET, SKIPPED or MALFORMED."""
        chunk = self.chunk
        pos = self._pos
        end = self._len
        while pos < end:
            byte = chunk[pos]
            pos += 1
            phase = self._phase
            if phase == 0:
                self.header = byte
                self._remaining = 0
                self._shift = 0
                self._phase = 1
            elif phase == 1:
                self._remaining |= (byte & 0x7F) << self._shift
                self._shift += 7
                if byte & 0x80:
                    if self._shift > 21:
                        self._pos = pos
                        return MALFORMED
                    continue
                self.size = 0
                if self._remaining == 0:
                    self._phase = 0
                    self._pos = pos
                    return PACKET
                self._phase = 2 if self._remaining <= len(self.packet) else 3
            elif phase == 2:
                self.packet[self.size] = byte
                self.size += 1
                if self.size == self._remaining:
                    self._phase = 0
                    self._pos = pos
                    return PACKET
            else:  # skipping a packet larger than the buffer
                self._remaining -= 1
                if self._remaining == 0:
                    self._phase = 0
                    self._pos = pos
                    return SKIPPED
        self._pos = pos
        return MORE
