"""A fixed ring buffer of small-int events, shared by the input drivers.

Preallocated at construction; push and pop allocate nothing, so drivers that
queue events stay usable with the heap locked. Events are ints 0..255.
When the queue is full the oldest event is dropped: a board that nobody
polls must not run out of memory.
"""


class EventQueue:
    """Up to `size` events, oldest first."""

    def __init__(self, size: int) -> None:
        self._buf = bytearray(size)
        self._size = size
        self._head = 0
        self._len = 0

    def __len__(self) -> int:
        return self._len

    def push(self, event: int) -> None:
        if self._len == self._size:  # full: drop the oldest
            self._head = (self._head + 1) % self._size
            self._len -= 1
        self._buf[(self._head + self._len) % self._size] = event
        self._len += 1

    def pop(self) -> int:
        """The oldest event, or -1 if there is none."""
        if self._len == 0:
            return -1
        event = self._buf[self._head]
        self._head = (self._head + 1) % self._size
        self._len -= 1
        return event

    def peek(self, k: int = 0) -> int:
        """The k-th oldest event (0: the one pop() would return), or -1 if there is none."""
        if k < 0 or k >= self._len:
            return -1
        return self._buf[(self._head + k) % self._size]

    def clear(self) -> None:
        self._len = 0
