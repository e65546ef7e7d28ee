"""The board's filesystem through mpremote's raw-REPL transport, and deploy's record of it.

    files = BoardFiles(port)                 # raw REPL entered, no soft reset
    record = read_record(files)              # /.deploy.json: path -> {"sha256", "size", "kind"}
    copy, remove = plan(local, record, files.sizes(paths), "firmware")
    files.write("lib/a.mpy", data); write_record(files, record); files.reset_and_close()

The record is what the board holds according to the deploys that wrote it;
`sizes` says what it really holds, so a file deleted or cut short by hand shows.
Both the record and config.json are written through a temporary file and a
rename: a reset halfway leaves the old or the new file, never half of one.
"""
import contextlib
import hashlib
import io
import json
import time

RECORD = ".deploy.json"
CONFIG = "config.json"
# Files main.py's boot modes keep on the flash (firmware/lib/safemode.py); a deploy clears them.
MAINTENANCE_FLAG = "maintenance"
BOOT_FLAGS = ("boot_count", MAINTENANCE_FLAG)
CHUNK = 1024


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class BoardFiles:
    """The board's filesystem through mpremote's transport (raw REPL, no soft reset)."""

    def __init__(self, port: str, attempts: int = 4) -> None:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        # a read timeout: on a pseudo-terminal mpremote reads block without one
        self.transport = SerialTransport(port, baudrate=115200, timeout=2)
        for attempt in range(attempts):
            try:
                # mpremote prints what it got when the handshake fails: not for our user
                with contextlib.redirect_stdout(io.StringIO()):
                    self.transport.enter_raw_repl(soft_reset=False, timeout_overall=5)
                    # a slow board may still be stopping its program or printing a banner
                    # after the raw REPL's prompt: only a command that runs proves it is ready
                    self.transport.exec("pass")
                return
            except TransportError:
                if attempt == attempts - 1:
                    self.transport.close()
                    raise
                # a board in a crash loop may be resetting right now: let it settle, try again
                time.sleep(0.5 + attempt)
                self.transport.serial.reset_input_buffer()

    def run(self, script: str) -> bytes:
        """What a short script printed on the board."""
        return self.transport.exec(script)

    def read(self, path: str):
        """Bytes of a file, or None if it does not exist."""
        if not self.transport.fs_exists(path):
            return None
        return bytes(self.transport.fs_readfile(path, chunk_size=CHUNK))

    def sizes(self, paths) -> dict:
        """path -> size in bytes (-1: missing), with one round trip."""
        if not paths:
            return {}
        script = ("import os\nr=[]\nfor p in %r:\n try:\n  r.append(os.stat(p)[6])\n"
                  " except OSError:\n  r.append(-1)\nprint(r)" % (list(paths),))
        out = self.transport.exec(script).decode().strip()
        return dict(zip(paths, json.loads(out)))

    def make_dirs(self, paths) -> None:
        dirs = set()
        for path in paths:
            parts = path.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        if dirs:
            script = ("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
                      % (sorted(dirs, key=lambda d: d.count("/")),))
            self.transport.exec(script)

    def write(self, path: str, data: bytes, progress=None) -> None:
        self.transport.fs_writefile(path, data, chunk_size=CHUNK, progress_callback=progress)

    def write_atomic(self, path: str, data: bytes) -> None:
        """Write via a temp file and rename (the board's record must never be half written)."""
        self.write(path + ".tmp", data)
        self.transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r, %r)"
                            % (path, path + ".tmp", path))

    def remove(self, path: str) -> None:
        self.transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % path)

    def reset_and_close(self) -> None:
        """Hard-reset the board (it boots main.py) and let go of the port."""
        try:
            self.transport.exec_raw_no_follow("import machine\nmachine.reset()")
        finally:
            self.transport.close()

    def close(self) -> None:
        """Leave the raw REPL (the board stays as it is) and let go of the port."""
        try:
            self.transport.exit_raw_repl()
        finally:
            self.transport.close()


def plan(local: dict, record: dict, sizes: dict, kind: str) -> tuple:
    """(copy, remove): paths whose content differs from the board's record, paths to delete.

    `record` is the board's record (path -> {"sha256", "size", "kind"}),
    `sizes` what the board really holds (path -> size, -1 if missing), so a
    file deleted or cut short by hand is copied again.
    """
    copy = []
    for path in sorted(local):
        known = record.get(path)
        if (known is None or known.get("sha256") != sha256(local[path])
                or sizes.get(path, -1) != len(local[path])):
            copy.append(path)
    remove = set(path for path, entry in record.items()
                 if entry.get("kind") == kind and path not in local)
    # MicroPython imports X.py before X.mpy: a stray source file would shadow the new code
    for path in source_twins(local):
        if sizes.get(path, -1) >= 0:
            remove.add(path)
    return copy, sorted(remove)


def source_twins(local: dict) -> list:
    """X.py for every compiled X.mpy in `local`."""
    return sorted(path[:-4] + ".py" for path in local if path.endswith(".mpy"))


def read_record(files) -> dict:
    """The board's record of what deploys put on it ({} when there is none or it is damaged)."""
    raw = files.read(RECORD)
    if raw is None:
        return {}
    try:
        data = json.loads(raw.decode())
        return data["files"] if isinstance(data.get("files"), dict) else {}
    except (ValueError, UnicodeError, AttributeError):
        return {}  # a damaged record: copy everything again


def record_entry(data: bytes, kind: str) -> dict:
    """The record's entry for a file of `kind` ("firmware" or "cards") holding `data`."""
    return {"sha256": sha256(data), "size": len(data), "kind": kind}


def record_text(record: dict) -> bytes:
    """The record file's content (deploy writes it to the board, `propctl image` into an image)."""
    return json.dumps({"files": record}, sort_keys=True).encode()


def write_record(files, record: dict) -> None:
    files.write_atomic(RECORD, record_text(record))
