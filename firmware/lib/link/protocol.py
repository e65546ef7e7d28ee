"""Wire format of the host link: one JSON object per line, both directions.

Desktop -> board (a request):
    {"id": 7, "cmd": "start_round", "args": {"seed": 3}}
    `id` (optional int) is echoed back in the reply; `args` (optional object).
Board -> desktop (every line carries `seq`, +1 per line, so a lost line shows):
    {"seq": 12, "re": 7, "ok": {...}}                         reply, success
    {"seq": 13, "re": 7, "err": "bad_args", "msg": "..."}     reply, refused
    {"seq": 14, "ev": "chime", "data": {...}}                 event
`seq` starts at 1 after every boot, which is how the desktop notices a reset.

Board input is printable ASCII only (non-ASCII text travels as JSON \\u
escapes); that keeps the parser's behaviour identical on every interpreter.
Board output is ASCII JSON too (encode() escapes the rest), so every line
the board writes is valid UTF-8 whatever a request or a prop put in it.
"""
import json

PROTOCOL_VERSION = 1
# Hard limit for one request line, newline excluded; longer lines are dropped
# whole and answered with `too_long`.
MAX_LINE = 512
# Sequence numbers wrap well inside a 31-bit small int.
SEQ_WRAP = 1 << 30

# Error codes a reply can carry; `msg` says the same for a person.
BAD_BYTES = "bad_bytes"
BAD_JSON = "bad_json"
BAD_MESSAGE = "bad_message"
TOO_LONG = "too_long"
UNKNOWN_COMMAND = "unknown_command"
BAD_ARGS = "bad_args"
REFUSED = "refused"       # the prop said no (a game rule): ValueError from the app
FAULT = "fault"           # the handler crashed; the board keeps running
ERROR_CODES = (BAD_BYTES, BAD_JSON, BAD_MESSAGE, TOO_LONG, UNKNOWN_COMMAND, BAD_ARGS, REFUSED, FAULT)

_REQUEST_KEYS = ("id", "cmd", "args")
MAX_ID = 0x3FFFFFFF
MAX_NAME = 32


class LinkError(Exception):
    """A request the board refuses; carries the error code and a readable message."""

    def __init__(self, code: str, message: str, request_id=None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


def _escape_non_ascii(text: str) -> str:
    """JSON text with every non-ASCII character written as a \\u escape."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            out.append(ch)
        elif code < 0x10000:  # a lone surrogate too: escaped, it is valid JSON and valid UTF-8
            out.append("\\u%04x" % code)
        else:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
    return "".join(out)


def encode(message: dict) -> bytes:
    """One message as a newline-terminated line of ASCII JSON, whatever its strings hold.

    CPython's json escapes non-ASCII itself; MicroPython's writes it raw, and
    a string holding a lone surrogate (from a request's "\\ud800") would then
    go out as bytes that are not UTF-8. Non-ASCII can only stand inside JSON
    strings, so escaping it there keeps the line's meaning.
    """
    text = json.dumps(message)
    data = text.encode()
    if len(data) != len(text):  # MicroPython wrote non-ASCII characters
        data = _escape_non_ascii(text).encode()
    return data + b"\n"


def _printable(line) -> bool:
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            if byte != 0x09:
                return False
    return True


# _strict_json's states: what may come next
_VALUE = 0      # a value
_VALUE_OR_END = 1  # a value, or ] (just after [)
_KEY = 2        # a key string
_KEY_OR_END = 3  # a key string, or } (just after {)
_COLON = 4      # the : after a key
_NEXT = 5       # , or the closing bracket (or the line's end, after the outermost value)
_ESCAPES = b'"\\/bfnrtu'


def _digits_end(line, i: int, n: int) -> int:
    """The index after the run of digits at i (i itself if there is none)."""
    while i < n and 0x30 <= line[i] <= 0x39:
        i += 1
    return i


def _number_end(line, i: int, n: int) -> int:
    """The index after the JSON number starting at i, or -1 if none starts there."""
    if i < n and line[i] == 0x2D:  # -
        i += 1
    start = i
    i = 1 + i if i < n and line[i] == 0x30 else _digits_end(line, i, n)  # no leading zeros
    if i == start:
        return -1
    if i < n and line[i] == 0x2E:  # . and at least one digit
        start = i = i + 1
        i = _digits_end(line, i, n)
        if i == start:
            return -1
    if i < n and (line[i] == 0x65 or line[i] == 0x45):  # e E, a sign, at least one digit
        i += 1
        if i < n and (line[i] == 0x2B or line[i] == 0x2D):
            i += 1
        start = i
        i = _digits_end(line, i, n)
        if i == start:
            return -1
    return i


def _string_end(line, i: int, n: int) -> int:
    """The index after the JSON string whose quote is at i, or -1 if it is not one."""
    i += 1
    while True:
        end = line.find(b'"', i)  # the scans run in C: most strings hold no backslash
        if end < 0:
            return -1
        if line.find(b"\t", i, end) >= 0:  # a raw tab (the only control byte that gets here)
            return -1
        slash = line.find(b"\\", i, end)
        if slash < 0:
            return end + 1
        i = slash + 1  # an escape: check it, then look on from after it
        if i >= n or line[i] not in _ESCAPES:
            return -1
        if line[i] == 0x75:  # u: four hex digits
            if i + 4 >= n:
                return -1
            for k in range(i + 1, i + 5):
                if line[k] not in b"0123456789abcdefABCDEF":
                    return -1
            i += 4
        i += 1


def _strict_json(line) -> bool:
    """Whether `line` is one JSON value by the standard's grammar. MicroPython's json takes
    much more (a trailing comma, no commas or colons at all, 01, 1., "\\x", {1: 2}) where
    CPython's refuses; checking the grammar first makes both refuse the same lines."""
    n = len(line)
    stack: list = []  # the open brackets
    state = _VALUE
    i = 0
    while i < n:
        c = line[i]
        if c == 0x20 or c == 0x09:
            i += 1
            continue
        if state == _NEXT:
            if not stack:
                return False  # something after the value
            if c == 0x2C:  # ,
                state = _KEY if stack[-1] == 0x7B else _VALUE
            elif c == stack[-1] + 2:  # { + 2 is }, [ + 2 is ]
                stack.pop()
            else:
                return False
            i += 1
        elif state == _COLON:
            if c != 0x3A:
                return False
            state = _VALUE
            i += 1
        elif state == _KEY or state == _KEY_OR_END:
            if c == 0x7D and state == _KEY_OR_END:
                stack.pop()
                state = _NEXT
                i += 1
                continue
            if c != 0x22:
                return False
            i = _string_end(line, i, n)
            if i < 0:
                return False
            state = _COLON
        else:  # a value
            if c == 0x5D and state == _VALUE_OR_END:
                stack.pop()
                state = _NEXT
                i += 1
                continue
            if c == 0x7B or c == 0x5B:  # { [
                stack.append(c)
                state = _KEY_OR_END if c == 0x7B else _VALUE_OR_END
                i += 1
                continue
            i = _scalar_end(line, i, n)
            if i < 0:
                return False
            state = _NEXT
    return state == _NEXT and not stack


def _scalar_end(line, i: int, n: int) -> int:
    """Where the string, true, false, null or number at line[i] ends; -1 if there is none."""
    c = line[i]
    if c == 0x22:
        return _string_end(line, i, n)
    if c == 0x74 and line[i:i + 4] == b"true":
        return i + 4
    if c == 0x66 and line[i:i + 5] == b"false":
        return i + 5
    if c == 0x6E and line[i:i + 4] == b"null":
        return i + 4
    return _number_end(line, i, n)


def parse_request(line) -> tuple:
    """Bytes of one line (no newline) -> (id, cmd, args); raise LinkError if unusable."""
    if len(line) > MAX_LINE:
        raise LinkError(TOO_LONG, "line longer than %d bytes" % MAX_LINE)
    if not _printable(line):
        raise LinkError(BAD_BYTES, "only printable ASCII is accepted; escape other text as \\uXXXX")
    if not _strict_json(line):
        raise LinkError(BAD_JSON, "not valid JSON")
    try:
        message = json.loads(line.decode())
    except (ValueError, UnicodeError):
        raise LinkError(BAD_JSON, "not valid JSON") from None
    if not isinstance(message, dict):
        raise LinkError(BAD_MESSAGE, "a request must be a JSON object")
    request_id = message.get("id")
    if request_id is not None:
        if isinstance(request_id, bool) or not isinstance(request_id, int) or not 0 <= request_id <= MAX_ID:
            raise LinkError(BAD_MESSAGE, "id must be an integer from 0 to %d" % MAX_ID)
    for key in message:
        if key not in _REQUEST_KEYS:
            raise LinkError(BAD_MESSAGE, "unexpected field in request (allowed: id, cmd, args)", request_id)
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or not cmd or len(cmd) > MAX_NAME:
        raise LinkError(BAD_MESSAGE, "cmd must be a command name", request_id)
    args = message.get("args", {})
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise LinkError(BAD_MESSAGE, "args must be a JSON object", request_id)
    return request_id, cmd, args


def reply_ok(seq: int, request_id, result) -> dict:
    """A success reply."""
    return {"seq": seq, "re": request_id, "ok": result}


def reply_error(seq: int, request_id, code: str, message: str) -> dict:
    """An error reply."""
    return {"seq": seq, "re": request_id, "err": code, "msg": message}


def event(seq: int, name: str, data) -> dict:
    """An event line."""
    return {"seq": seq, "ev": name, "data": data}


def request(cmd: str, args=None, request_id=None) -> dict:
    """A request as the desktop sends it."""
    message = {"cmd": cmd}
    if request_id is not None:
        message["id"] = request_id
    if args:
        message["args"] = args
    return message
