"""Writing a board's flash: the steps of a deploy on the board, each keeping one rule.

    summary = write_board(port, {"main.py": b"..."}, "firmware", board="pico",
                          new_config=lambda old: (text, notes), dry_run=False)

The steps, in order: stop the prop (maintenance boot), open the raw REPL,
check the board, survey (the plan against the board's record and its real
file sizes, and the new config.json); then either the dry run's report and
the board left as found, or forget, copy, remove, record, config, restart.
Each step's docstring names the rule it keeps. A board lost on the way (it
reset, or was unplugged) is a BoardError saying to run the same deploy again.
"""
import time

from propctl.progress import TTY, end_progress
from propctl.serial_link import BoardError
from propctl.serial_link.files import (
    BOOT_FLAGS,
    CONFIG,
    MAINTENANCE_FLAG,
    BoardFiles,
    plan,
    read_record,
    record_entry,
    source_twins,
    write_record,
)
from propctl.serial_link.session import check_board, lost, request_maintenance


class Work:
    """What this deploy does to the board: the plan against its record, and the config it writes."""

    def __init__(self, local: dict, kind: str, record: dict, sizes: dict) -> None:
        self.local = local
        self.kind = kind
        self.record = record
        self.copy, self.remove = plan(local, record, sizes, kind)
        self.config = None  # config.json's new text, None: unchanged (or a card deck)

    def summary(self) -> dict:
        return {"copied": self.copy, "removed": self.remove, "config": self.config, "hello": None,
                "skipped": sorted(set(self.local) - set(self.copy))}


def write_board(port: str, local: dict, kind: str, board=None, new_config=None, dry_run: bool = False,
                say=print, shown=str) -> dict:
    """Maintenance boot, the plan, then the dry run's report or the copy and the reset; the summary.

    local: path -> bytes of kind "firmware" or "cards"; board: the profile the board must fit
    (firmware only); new_config(old config text or None) -> (text, notes): config.json to write;
    shown(config text): how the dry run shows it (deploy hides the passwords)."""
    from mpremote.transport import TransportError
    found = _stop_the_prop(port, say)
    files = _open_raw_repl(port)
    try:
        if kind == "firmware":
            check_board(files, board, say)  # a board that cannot run it: refused before any write
        work = _survey(files, local, kind, new_config, say)
        if dry_run:
            _report(work, say, shown)
            _leave_as_found(files, found, say)
        else:
            _forget(files, work)
            _copy(files, work, say)
            _remove(files, work, say)
            _record(files, work)
            _write_config(files, work, say)
            _restart(files, say)
    except BaseException as exc:
        end_progress()
        try:
            files.close()
        except Exception:
            pass
        if isinstance(exc, (TransportError, OSError)):
            raise lost(port, exc) from None
        raise
    return work.summary()


def _stop_the_prop(port: str, say) -> str:
    """Rule: no prop and no watchdog run while the raw REPL works on the flash (a watchdog would
    reset the board under it), a dry run included: a running prop reboots into maintenance.
    Returns the mode the board was found in."""
    try:
        found = request_maintenance(port, say)
    except OSError as exc:
        raise lost(port, exc) from None
    say("board mode before deploy: %s" % found)
    return found


def _open_raw_repl(port: str) -> BoardFiles:
    try:
        return BoardFiles(port)
    except Exception as exc:
        raise BoardError("no REPL on %s: %s (is it a MicroPython board? is another program "
                         "using the port?)" % (port, exc)) from None


def _survey(files, local: dict, kind: str, new_config, say) -> Work:
    """Rule: the plan trusts the board's record only where the board's own file sizes agree."""
    work = Work(local, kind, read_record(files), files.sizes(sorted(local) + source_twins(local)))
    if new_config is not None:
        existing = files.read(CONFIG)
        old = existing.decode("utf-8", "replace") if existing is not None else None
        text, notes = new_config(old)
        for note in notes:
            say("note: " + note)
        work.config = None if text == old else text
    say("%d to copy, %d unchanged, %d to remove%s" % (
        len(work.copy), len(local) - len(work.copy), len(work.remove),
        ", config.json to write" if work.config else ""))
    return work


def _report(work: Work, say, shown) -> None:
    """Rule: a dry run writes nothing on the board; it says what a deploy would do."""
    for path in work.copy:
        say("  would copy %s (%d bytes)" % (path, len(work.local[path])))
    for path in work.remove:
        say("  would remove %s" % path)
    if work.config:
        say("  would write config.json:\n" + shown(work.config).rstrip())


def _leave_as_found(files, found: str, say) -> None:
    """Rule: a dry run leaves the board in the mode it found it in: it restarts the prop it
    stopped, and a board found in maintenance, in safe mode or at the REPL stays there."""
    if found != "run":
        say("dry run: no file copied; the board stays as it was found (%s)" % found)
        files.close()
        return
    say("dry run: no file copied; resetting the board to restart its prop")
    files.remove(MAINTENANCE_FLAG)
    files.reset_and_close()


def _forget(files, work: Work) -> None:
    """Rule: before a file is replaced, the record stops vouching for it, so a deploy cut short
    never trusts a half-written file (not even when the next deploy brings the old one back).
    Written only when the record held such a file: a first deploy writes the record once."""
    stale = [path for path in work.copy if path in work.record]
    for path in stale + work.remove:
        work.record.pop(path, None)
    if stale:
        write_record(files, work.record)


def _copy(files, work: Work, say) -> None:
    local, copy = work.local, work.copy
    files.make_dirs(copy)
    total = sum(len(local[p]) for p in copy)
    done = 0
    started = time.monotonic()
    for i, path in enumerate(copy, 1):
        size = len(local[path])

        def shown(written, _size, base=done, i=i, path=path):
            if TTY:
                print("\r  [%d/%d] %-40s %7d/%d bytes" % (i, len(copy), path, base + written, total),
                      end="", flush=True)
        if not TTY:
            say("  [%d/%d] %s (%d bytes)" % (i, len(copy), path, size))
        files.write(path, local[path], progress=shown)
        done += size
        work.record[path] = record_entry(local[path], work.kind)
    if copy:
        end_progress()
        say("  copied %d files, %d bytes in %.1f s" % (len(copy), total, time.monotonic() - started))


def _remove(files, work: Work, say) -> None:
    """Rule (the plan's): only files an earlier deploy of the same kind put there, and stray
    sources that would shadow a compiled module."""
    for path in work.remove:
        files.remove(path)
        say("  removed %s" % path)


def _record(files, work: Work) -> None:
    """Rule: the record lists what the board now holds, written after the files (atomically)."""
    if work.copy or work.remove:
        write_record(files, work.record)


def _write_config(files, work: Work, say) -> None:
    """Rule: config.json is written after the code it configures, atomically."""
    if work.config:
        files.write_atomic(CONFIG, work.config.encode())
        say("  wrote config.json")


def _restart(files, say) -> None:
    """Rule: the new firmware starts afresh: no crash count from the old one, no maintenance flag."""
    for flag in BOOT_FLAGS:
        files.remove(flag)
    say("resetting the board")
    files.reset_and_close()
