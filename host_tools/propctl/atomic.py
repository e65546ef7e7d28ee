"""Write a desktop file so that a crash or a full disk leaves the old file or the new one, never half.

The new content goes to a temp file next to the target, named so a person
sees whose it is: `deck.bin.propctl-12345-k3j9.tmp` (12345 is the writing
process). A `kill -9` leaves that file behind; the next write to the same
target removes every such file whose process is gone.
"""
import errno
import os
import re
import secrets
import stat
import time
from typing import Iterable, List, Optional, Union

from propctl.inputfile import what_kind

TEMP_MARK = ".propctl-"
TEMP_SUFFIX = ".tmp"
# Earlier versions wrote hidden `.deck.bin.k3j9x_2a.tmp` files (tempfile.mkstemp)
# without a process id; those are removed once they are an hour old.
_LEGACY_AGE_S = 3600


def write_atomic(path, data: Union[bytes, Iterable[bytes]]) -> None:
    """Write `data` (bytes, or pieces of bytes) to `path`: temp file, fsync, os.replace.

    The file gets the mode a new file gets (0666 less the umask). On any
    failure the temp file is removed and `path` is untouched. A `path` that
    cannot take the file (see check_output) raises OSError before anything is written.
    """
    path = os.fspath(path)
    _refuse_special(path)
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale_temps(path)
    temp, fd = _create_temp(folder, os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in ([data] if isinstance(data, (bytes, bytearray)) else data):
                out.write(piece)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise


def check_output(path) -> None:
    """The one check of an output file a person named (`plan --svg`, `sim --wav`, ...), made
    before the work that fills it: OSError, whose strerror says why, unless `path` can take a
    new file from write_atomic. Refused: an empty name or one ending in '/', something that is
    there but no regular file (a directory, a FIFO, a device such as /dev/full, or a link to
    one), a file that is read-only, and a folder that is missing, read-only or takes no new
    files (/proc). A temp file is made and removed again to be sure."""
    path = os.fspath(path)
    _refuse_special(path)
    temp, fd = _create_temp(os.path.dirname(os.path.abspath(path)), os.path.basename(path))
    os.close(fd)
    os.unlink(temp)


def output_problem(path) -> Optional[str]:
    """Why `path` cannot be written (check_output's reason, to follow the file's name), or None."""
    try:
        check_output(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _refuse_special(path: str) -> None:
    if not path:
        raise OSError(errno.ENOENT, "an empty name is no file name", path)
    if path.endswith(("/", os.sep)):
        raise OSError(errno.EISDIR, "names a folder, not a file", path)
    if path == "-":  # a person means standard output; a file called '-' is written ./-
        raise OSError(errno.EINVAL, "'-' is standard output, which takes no file here; name a file "
                                    "(./- for one called '-')", path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return  # a new file (or a dangling link, which the rename replaces)
    except OSError:
        return  # the write itself will say what is wrong
    if not stat.S_ISREG(mode):
        code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
        raise OSError(code, "is %s, not a regular file" % what_kind(mode), path)
    if not os.access(path, os.W_OK):
        raise OSError(errno.EACCES, "is read-only", path)


def temp_name(path, pid: int, token: str) -> str:
    """The temp file name used while process `pid` writes `path`."""
    return "%s%s%d-%s%s" % (os.fspath(path), TEMP_MARK, pid, token, TEMP_SUFFIX)


def remove_stale_temps(path) -> list:
    """Remove the temp files of `path` left by writers that no longer run; return their names."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    prefix = os.path.basename(path) + TEMP_MARK
    removed: List[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    legacy = re.compile(r"\.%s\.[a-z0-9_]{8}\.tmp\Z" % re.escape(os.path.basename(path)))
    for name in names:
        full = os.path.join(folder, name)
        if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            pid_text, _, token = name[len(prefix):-len(TEMP_SUFFIX)].partition("-")
            if not (pid_text.isdigit() and token) or _running(int(pid_text)):
                continue
        elif not (legacy.match(name) and _older_than(full, _LEGACY_AGE_S)):
            continue
        try:
            os.unlink(full)
            removed.append(name)
        except OSError:
            pass  # gone already, or not ours to remove: leave it
    return removed


def _create_temp(folder: str, base: str):
    # os.open with 0666 applies the umask like any new file (mkstemp would force 0600).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = os.path.join(folder, temp_name(base, os.getpid(), secrets.token_hex(3)))
        try:
            return temp, os.open(temp, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise OSError(exc.errno, _folder_problem(folder, exc), temp) from None


def _folder_problem(folder: str, exc: OSError) -> str:
    """Why no new file can be made in `folder`, in words (the error of the attempt was `exc`)."""
    if not os.path.isdir(folder):
        return ("the folder %s does not exist" % folder if not os.path.lexists(folder)
                else "%s is not a folder" % folder)
    if exc.errno == errno.EROFS:
        return "the folder %s is on a read-only file system" % folder
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "no permission to write in the folder %s" % folder
    if exc.errno == errno.ENOENT:  # /proc, /sys: they exist but make no new files
        return "the folder %s takes no new files" % folder
    return "cannot make a file in the folder %s: %s" % (folder, exc.strerror or exc)


def _older_than(path: str, seconds: float) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime > seconds
    except OSError:
        return False


def _running(pid: int) -> bool:
    if pid == os.getpid() or os.name != "posix":
        return True  # ours; or no safe liveness test (os.kill would terminate on Windows)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # exists (another user's), or cannot tell: keep the file
    return True
