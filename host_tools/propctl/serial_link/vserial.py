"""A serial port with no hardware: two pseudo-terminals and a byte relay.

The desktop side opens `port` (a /dev/pts/N path) like any USB serial port;
the board side gets a file descriptor to use as a child's stdin/stdout. Both
slave ends stay open here, so neither side sees a hang-up while the other
closes and reopens (mpremote reconnecting, the virtual board restarting).
"""
import os
import pty
import select
import threading
import tty


class VirtualSerial:
    """A pty pair with a relay thread; `port` for the desktop, `board_fd` for the board."""

    def __init__(self, link_path=None) -> None:
        self._host_master, self._host_slave = pty.openpty()
        self._board_master, self.board_fd = pty.openpty()
        for fd in (self._host_slave, self.board_fd):
            tty.setraw(fd)
        self.port = os.ttyname(self._host_slave)
        self.link_path = link_path
        if link_path:
            if os.path.islink(link_path):
                os.unlink(link_path)
            os.symlink(self.port, link_path)
        self.bytes_to_board = 0
        self.bytes_to_host = 0
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._relay, name="vserial-relay", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        # Non-blocking both ways with a queue per direction: a side that stops
        # reading (a test busy writing, a board busy replying) must never stall
        # the other direction, or both ends would wait for each other.
        host, board = self._host_master, self._board_master
        for fd in (host, board):
            os.set_blocking(fd, False)
        queued = {host: bytearray(), board: bytearray()}  # bytes waiting to be written to fd
        other = {host: board, board: host}
        while not self._stop.is_set():
            writers = [fd for fd in (host, board) if queued[fd]]
            readable, writable, _ = select.select([host, board, self._wake_r], writers, [])
            for fd in readable:
                if fd == self._wake_r:
                    continue
                try:
                    data = os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    continue
                if fd == host:
                    self.bytes_to_board += len(data)
                else:
                    self.bytes_to_host += len(data)
                queued[other[fd]] += data
            for fd in writable:
                try:
                    written = os.write(fd, queued[fd])
                except (BlockingIOError, OSError):
                    continue
                del queued[fd][:written]

    def close(self) -> None:
        """Stop the relay and close every descriptor."""
        self._stop.set()
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=2)
        for fd in (self._host_master, self._host_slave, self._board_master, self.board_fd,
                   self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.link_path and os.path.islink(self.link_path):
            os.unlink(self.link_path)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
