"""Read a file a user named: only regular files, and never more than a limit.

A FIFO would block the read forever and /dev/zero never ends, and for both
os.path.getsize says 0; so the file is opened without blocking, checked with
fstat, and the read itself stops one byte past the limit.
"""
import json
import os
import stat
from typing import Any, BinaryIO

_CHUNK = 1024 * 1024


class InputFileError(Exception):
    """The file cannot be used; str() is the reason, to follow the file name."""


def open_regular(path) -> BinaryIO:
    """`path` opened for binary reading; InputFileError unless it is a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputFileError("cannot be read: %s" % (exc.strerror or exc)) from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise InputFileError("cannot be read: %s" % (exc.strerror or exc)) from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputFileError("is %s, not a regular file" % what_kind(mode))
    return os.fdopen(fd, "rb")


def read_regular(path, limit: int) -> bytes:
    """The bytes of the regular file `path`; InputFileError if it is something else,
    larger than `limit` bytes, or cannot be read."""
    with open_regular(path) as stream:
        try:
            # The size fstat reports is only a hint (the file may grow): it saves
            # allocating `limit` bytes up front; the loop stops one byte past it.
            want = min(limit + 1, os.fstat(stream.fileno()).st_size + 1)
            pieces = [stream.read(want)]
            total = len(pieces[0])
            while total == want or (len(pieces) > 1 and total <= limit):
                piece = stream.read(min(_CHUNK, limit + 1 - total))
                if not piece:
                    break
                pieces.append(piece)
                total += len(piece)
        except OSError as exc:
            raise InputFileError("cannot be read: %s" % (exc.strerror or exc)) from None
    if total > limit:
        raise InputFileError("is larger than %s" % _size(limit))
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _not_json(name: str) -> Any:
    # Python's json reads NaN and Infinity, which JSON (and MicroPython's json) has not
    raise ValueError("%s is not a JSON number" % name)


def read_json(path, limit: int) -> Any:
    """The JSON value in the regular file `path` (UTF-8, with or without the BOM spreadsheets and
    Windows editors write, as the card decks accept it); InputFileError saying what is wrong."""
    data = read_regular(path, limit)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_not_json)
    except UnicodeDecodeError as exc:
        raise InputFileError("is not UTF-8 text (byte %d)" % (exc.start + 1)) from None
    except RecursionError:
        raise InputFileError("is not valid JSON (nested too deeply)") from None
    except ValueError as exc:
        raise InputFileError("is not valid JSON (%s)" % exc) from None


def what_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message: 'a directory', 'a device'..."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _size(limit: int) -> str:
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return "%d MB" % (limit // (1024 * 1024))
    if limit >= 1024 and limit % 1024 == 0:
        return "%d KB" % (limit // 1024)
    return "%d bytes" % limit
