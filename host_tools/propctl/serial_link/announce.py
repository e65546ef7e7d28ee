"""Where a running `propctl sim serve` says it is, so `--port auto` and `propctl ports` find it.

Each served virtual board writes one small JSON file, `vboard-PID.json`, into a per-user runtime
folder: `$XDG_RUNTIME_DIR/propctl` (the XDG Base Directory spec's place for a user's runtime files:
owned by the user, mode 0700, emptied at logout), else `propctl-UID` in the system's temporary
folder, made mode 0700 and used only when it is ours and nobody else can write it. The file is
mode 0600 and names the board's pty port and the server's pid; the server removes it when it
stops. A file whose pid is gone (a server that was killed) or whose port no longer exists is
stale: it is ignored, and removed when seen.
"""
import json
import os
import stat
import tempfile
from typing import Optional

PREFIX = "vboard-"


def runtime_folder(make: bool = False) -> Optional[str]:
    """The per-user folder for announcements, or None when there is no safe one (made if `make`)."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg) and _ours(xdg):
        folder = os.path.join(xdg, "propctl")
    else:
        uid = os.getuid() if hasattr(os, "getuid") else 0
        folder = os.path.join(tempfile.gettempdir(), "propctl-%d" % uid)
    if make:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError:
            return None
    return folder if _ours(folder) else None


def _ours(folder: str) -> bool:
    """A real folder (not a symlink) of this user that no one else may write into."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def announce(port: str, link: Optional[str] = None, flash: Optional[str] = None) -> Optional[str]:
    """Write this process's announcement; its path (for withdraw), or None when there is no
    safe folder (the board still serves; only --port auto will not find it)."""
    folder = runtime_folder(make=True)
    if folder is None:
        return None
    path = os.path.join(folder, "%s%d.json" % (PREFIX, os.getpid()))
    part = path + ".part"
    data = json.dumps({"port": port, "pid": os.getpid(), "link": link, "flash": flash})
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(data)
        os.replace(part, path)
    except OSError:
        return None
    return path


def withdraw(path: Optional[str]) -> None:
    """Remove an announcement written by announce()."""
    if path:
        try:
            os.remove(path)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process took the pid: not our server
        return False
    except OSError:
        return False
    return True


def _port_there(port: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(port).st_mode)
    except (OSError, ValueError):
        return False


def served_boards() -> list:
    """(port, pid) of every running virtual board of this user, oldest announcement first.
    Stale announcements (dead pid, missing port, unreadable) are skipped and removed."""
    folder = runtime_folder()
    if folder is None:
        return []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        if not (name.startswith(PREFIX) and name.endswith(".json")):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as source:
                data = json.loads(source.read(4096))
            port, pid = data["port"], data["pid"]
            if not isinstance(port, str) or not isinstance(pid, int) or isinstance(pid, bool):
                raise ValueError("not an announcement")
            when = os.stat(path).st_mtime
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not _alive(pid) or not _port_there(port):
            withdraw(path)
            continue
        found.append((when, port, pid))
    found.sort()
    return [(port, pid) for _when, port, pid in found]
