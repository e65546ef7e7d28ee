"""Write a desktop file so that a crash or a full disk leaves the old file or the new one, never half."""
import os
import tempfile


def write_atomic(path, data: bytes) -> None:
    """Write `data` to `path` via a temp file in the same folder, fsync, then os.replace.

    On any failure the temp file is removed and `path` is untouched.
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
