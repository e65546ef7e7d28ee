"""The board's end of the link: routes requests to a prop's commands, numbers every line.

How a prop plugs in (every prop alike):
  * it offers a command table: name -> (handler, schema), where handler(**args)
    returns a JSON-able value (or None) and raises ValueError, with a message
    a player understands, to refuse; schema is described in link.schema;
  * it reports what happens through a callback `on_event(name, fields)`; pass
    `link.event` as that callback.
The link itself answers `hello` (identity, versions, capabilities), `ping` and
`help` (the command table with schemas). Nothing a request carries is ever
evaluated: names are looked up in the table, values are checked against the
schema, and each request gets exactly one reply.
"""
from . import protocol
from .framing import OVERLONG, LineBuffer
from .schema import check_schema, validate

# The link's own commands and their schemas.
BUILTIN = {"hello": {"protocol": "int?"}, "ping": {}, "help": {}}


class Link:
    """Board side of the protocol.

    write(bytes) sends one line. identity holds `firmware`, `prop`, `board`
    and anything else `hello` should report.
    """

    def __init__(self, write, identity: dict, commands=None) -> None:
        self._write = write
        self._identity = identity
        self._commands: dict = {}
        self._seq = 0
        self._lines = LineBuffer(protocol.MAX_LINE)
        # Also gets every event (net.venue publishes them): mirror(name, line_bytes)
        self.mirror = None
        if commands:
            self.add_commands(commands)

    def add_commands(self, table: dict) -> None:
        """Add a prop's command table (name -> (handler, schema))."""
        for name in table:
            if name in BUILTIN:
                raise ValueError("command name %s is reserved by the link" % name)
            handler, schema = table[name]
            check_schema(schema)
            self._commands[name] = (handler, schema)

    def _next_seq(self) -> int:
        self._seq = self._seq % protocol.SEQ_WRAP + 1
        return self._seq

    def _send(self, message: dict, write=None) -> None:
        (write or self._write)(protocol.encode(message))

    def event(self, name: str, fields=None) -> None:
        """Send an event; a prop's on_event callback. The mirror gets the same line."""
        line = protocol.encode(protocol.event(self._next_seq(), name, fields if fields is not None else {}))
        self._write(line)
        if self.mirror is not None:
            self.mirror(name, line)

    def hello_info(self) -> dict:
        """What `hello` answers."""
        info: dict = {"protocol": protocol.PROTOCOL_VERSION, "max_line": protocol.MAX_LINE}
        for key in self._identity:
            info[key] = self._identity[key]
        info["caps"] = sorted(self._commands)
        return info

    def _builtin(self, cmd: str):
        if cmd == "hello":
            return self.hello_info()
        if cmd == "ping":
            return {"pong": True}
        table = {}
        for name in self._commands:
            table[name] = self._commands[name][1]
        return table

    def _error(self, request_id, code: str, message: str, write=None) -> None:
        self._send(protocol.reply_error(self._next_seq(), request_id, code, message), write)

    def handle_line(self, line, write=None, refuse=None) -> None:
        """Answer one request line (bytes without newline, or framing.OVERLONG).

        write: where the reply goes (default: the serial line); refuse: a dict
        command name -> why, for commands this channel may not run (the network
        may not reboot the board for deploy)."""
        if line == OVERLONG:
            self._error(None, protocol.TOO_LONG, "line longer than %d bytes" % protocol.MAX_LINE, write)
            return
        if not line:
            return  # an empty line is no request: terminals send them
        try:
            request_id, cmd, args = protocol.parse_request(line)
        except protocol.LinkError as exc:
            self._error(exc.request_id, exc.code, exc.message, write)
            return
        if refuse is not None and cmd in refuse:
            self._error(request_id, protocol.REFUSED, refuse[cmd], write)
            return
        if cmd in BUILTIN:
            schema = BUILTIN[cmd]
        else:
            entry = self._commands.get(cmd)
            if entry is None:
                self._error(request_id, protocol.UNKNOWN_COMMAND,
                            "unknown command %s; send help for the list" % cmd, write)
                return
            handler, schema = entry
        problem = validate(schema, args)
        if problem:
            self._error(request_id, protocol.BAD_ARGS, problem, write)
            return
        if cmd in BUILTIN:
            result = self._builtin(cmd)
            if refuse and cmd == "hello":  # what this caller may use: no refused command (the network)
                result["caps"] = [name for name in result["caps"] if name not in refuse]
            self._send(protocol.reply_ok(self._next_seq(), request_id, result), write)
            return
        try:
            result = handler(**args)
        except ValueError as exc:
            self._error(request_id, protocol.REFUSED, str(exc), write)
            return
        except Exception as exc:  # a handler bug must not stop the board
            self._error(request_id, protocol.FAULT, "%s: %s" % (type(exc).__name__, exc), write)
            return
        self._send(protocol.reply_ok(self._next_seq(), request_id, result), write)

    def feed_byte(self, byte: int) -> int:
        """One byte from the serial line; answers the line it finishes. Returns lines handled (0/1).

        Allocates nothing until a line is finished.
        """
        line = self._lines.push(byte)
        if line is None:
            return 0
        self.handle_line(line)
        return 1

    def feed(self, data) -> int:
        """Bytes from the serial line; answers each finished line. Returns lines handled."""
        count = 0
        for byte in data:
            count += self.feed_byte(byte)
        return count
