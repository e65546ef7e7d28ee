"""Events while the broker is away: kept, then published late (net.venue).

    late = Late()
    late.keep(line)                   # an event line (b'{"seq":...}\n') while the broker is away
    late.publish(client, topic)       # after the next connect: True once all are out

The last SLOTS event lines (each up to SLOT_BYTES, marked {"late":true,...}) wait in one
preallocated buffer and go out oldest first; older ones and longer ones are counted in
`lost`. Chosen over QoS 1 with a persistent session: a broker restarted without persistence
forgets the session, and the prop would keep the unacknowledged messages in its heap
anyway (docs/venue.md).
"""
from micropython import const

SLOTS = const(6)
SLOT_BYTES = const(256)
_MARK = b'{"late":true,'


class Late:
    def __init__(self) -> None:
        self._buf = bytearray(SLOTS * SLOT_BYTES)
        self._len = [0] * SLOTS
        self._head = 0   # the oldest kept event's slot
        self.kept = 0    # events waiting for the broker
        self.sent = 0
        self.lost = 0

    def keep(self, line) -> None:
        size = len(line) - 2 + len(_MARK)  # the line without its "{" and newline, marked
        if size > SLOT_BYTES:
            self.lost += 1
            return
        if self.kept == SLOTS:  # full: the oldest goes
            self._head = (self._head + 1) % SLOTS
            self.kept -= 1
            self.lost += 1
        slot = (self._head + self.kept) % SLOTS
        base = slot * SLOT_BYTES
        mark = len(_MARK)
        self._buf[base:base + mark] = _MARK
        self._buf[base + mark:base + size] = memoryview(line)[1:-1]
        self._len[slot] = size
        self.kept += 1

    def publish(self, client, topic: bytes) -> bool:
        """The kept events, oldest first; True once all are out (retried on the next pass)."""
        view = memoryview(self._buf)
        while self.kept:
            slot = self._head
            base = slot * SLOT_BYTES
            if not client.publish(topic, view[base:base + self._len[slot]]):
                return False
            self._head = (slot + 1) % SLOTS
            self.kept -= 1
            self.sent += 1
        return True
