"""Boot modes: three failed boots in a row start a safe mode; deploy asks for maintenance.

main.py calls `guard.begin()` first thing. It counts the boot in a small file
on the flash; `guard.stable()` (once the prop has run for a while) sets the
count back to zero. A boot that crashes, or is reset by the watchdog, before
that point leaves the count raised. When it reaches LIMIT, begin() returns
True: main.py then starts no prop, says so over the link and returns, which
leaves the REPL reachable for `propctl deploy` or `mpremote`.

Leave safe mode by deploying again (deploy clears the count) or with
`import safemode; safemode.BootGuard().clear()` at the REPL.

Maintenance: `propctl deploy` asks a running prop (link command `maintenance`)
to reboot with the prop and its watchdog off, so copying files cannot be cut
short by a watchdog reset. The flag file is removed by deploy when it is done,
or by `end_maintenance()` (the link's `leave`, or at the REPL after
`propctl repl`): the flag outlives resets, so a deploy cut short by a power
loss finds the board in maintenance again.
"""
LIMIT = 3
DEFAULT_PATH = "boot_count"
LAST_FAULT_PATH = "last_fault"   # the error that ended the last crashed boot, for `why`
_FAULT_CHARS = 200
MAINTENANCE_FLAG = "maintenance"
SAFE = "safe"
MAINTENANCE = "maintenance"
RUN = "run"
# A prop that has run this long has booted fine; a later crash is not a boot loop
# (crashes in building the prop or in its first ticks come well within it).
STABLE_MS = 1000


class BootGuard:
    """Counts boots that did not reach `stable()`; fs is injectable like store's."""

    def __init__(self, path: str = DEFAULT_PATH, limit: int = LIMIT, fs=None) -> None:
        self.path = path
        self.limit = limit
        if fs is None:
            from store import _OsFs
            fs = _OsFs()
        self._fs = fs

    def count(self) -> int:
        """Boots in a row that did not get as far as stable()."""
        try:
            with self._fs.open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return 0
        try:
            return max(0, int(data.decode().strip()))
        except (ValueError, UnicodeError):
            return 0  # a damaged counter must not cause a safe mode on its own

    def _write(self, value: int) -> None:
        with self._fs.open(self.path, "wb") as f:
            f.write(("%d\n" % value).encode())

    def begin(self) -> bool:
        """Count this boot; True means safe mode (too many crashed boots in a row)."""
        crashes = self.count()
        if crashes >= self.limit:
            return True
        self._write(crashes + 1)
        return False

    def stable(self) -> None:
        """The prop runs: this boot did not crash (an earlier crash's note is no longer news)."""
        for _ in self.stable_steps():
            pass

    def stable_steps(self):
        """stable() one flash write per step (a generator), for the runtime to place clear of
        the prop's deadlines (runtime.Runtime)."""
        if self.count():
            self._write(0)
            yield
        try:
            self._fs.remove(LAST_FAULT_PATH)
        except OSError:
            pass

    def clear(self) -> None:
        """Leave safe mode at the next boot."""
        try:
            self._fs.remove(self.path)
        except OSError:
            pass


def note_fault(text: str, fs=None) -> None:
    """Keep the error that is about to reset the board, so safe mode can say what it was."""
    guard = BootGuard(fs=fs)
    try:
        with guard._fs.open(LAST_FAULT_PATH, "wb") as f:
            f.write(text[:_FAULT_CHARS].encode())
    except OSError:
        pass  # a full or broken flash: the crash count still works


def last_fault(fs=None) -> str:
    """The error noted by note_fault ("" if none)."""
    guard = BootGuard(fs=fs)
    try:
        with guard._fs.open(LAST_FAULT_PATH, "rb") as f:
            return f.read()[:_FAULT_CHARS].decode()
    except (OSError, UnicodeError):
        return ""


# A prop the image does not hold: the reason a safe mode names (link.startup.missing_prop)
NOT_IN_IMAGE = "prop_not_in_image"


def advice(crashes: int, config_errors=(), fault: str = "", refused: str = "") -> dict:
    """The safe-mode event's fields: what happened, what the config had wrong, and what to do.

    refused: why the prop was not started at all (a prop this image does not hold)."""
    if refused:
        return {"crashes": crashes, "why": refused, "error": NOT_IN_IMAGE, "fault": "",
                "config_errors": list(config_errors),
                "fix": "the REPL is free: deploy a config for a prop this image holds (`propctl "
                       "deploy --prop PROP`), or flash the image made for the prop config.json names"}
    why = "the prop crashed during %d boots in a row, so it was not started" % crashes
    if fault:
        why += "; the last crash: " + fault
    if config_errors:
        why += "; config.json has problems (the defaults were used for them): " + "; ".join(config_errors)
    return {
        "crashes": crashes,
        "why": why,
        "fault": fault,
        "config_errors": list(config_errors),
        "fix": "the REPL is free: redeploy with `propctl deploy`, or clear with "
               "`import safemode; safemode.BootGuard().clear()` and reset",
    }


def _exists(fs, path: str) -> bool:
    try:
        with fs.open(path, "rb"):
            return True
    except OSError:
        return False


def request_maintenance(fs=None) -> None:
    """Make the next boot a maintenance boot (no prop, no watchdog)."""
    guard = BootGuard(fs=fs)
    with guard._fs.open(MAINTENANCE_FLAG, "wb") as f:
        f.write(b"deploy\n")


def end_maintenance(fs=None) -> None:
    """The next boot runs the prop again (no maintenance flag)."""
    guard = BootGuard(fs=fs)
    try:
        guard._fs.remove(MAINTENANCE_FLAG)
    except OSError:
        pass  # not in maintenance: nothing to end


def boot_mode(guard=None) -> str:
    """SAFE, MAINTENANCE or RUN for this boot (RUN counts the boot in the guard)."""
    if guard is None:
        guard = BootGuard()
    if _exists(guard._fs, MAINTENANCE_FLAG):
        return MAINTENANCE
    if guard.begin():
        return SAFE
    return RUN
