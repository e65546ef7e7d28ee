"""How the desktop starts the firmware under MicroPython: one place for all of them.

The sims, `propctl sim serve`, the venue's virtual props, the web page's file
list, the reference generator, the tests' harness and the bench all start
MicroPython through this module, so they find the same interpreter, give the
virtual board the same module path and say the heap the same way:

    find_micropython()          the unix port: $MICROPYTHON, else beside this Python,
                                else in the clone's .venv, else on PATH
    find_micropython_wasm()     the WebAssembly port under node (tools/wasm/run.mjs)
    micropypath(lib, *extra)    MICROPYPATH: the virtual board, extra folders, then lib
    board_env(lib, *extra)      os.environ with that MICROPYPATH
    command(script, heap)       [micropython, "-X", "heapsize=...", script ...]

The virtual board (vboard/: a fake `machine`, `time` whose ticks wrap at 2^30,
`network`) comes first: its modules stand for what a board has built in, so
nothing in a firmware folder may shadow them. It imports nothing of propctl.
"""
import os
import shutil
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Union

PROPCTL_DIR = Path(__file__).resolve().parent
VBOARD_DIR = PROPCTL_DIR / "vboard"
REPO_ROOT = PROPCTL_DIR.parents[1]       # the clone (an installed propctl has no firmware there)
REPO_FIRMWARE_LIB = REPO_ROOT / "firmware" / "lib"
FROZEN = ".frozen"  # the unix port's name for its frozen modules on the path, as on a board

Folder = Union[str, Path]


class MicroPythonNotFound(FileNotFoundError):
    """No MicroPython unix port where find_micropython looks; the message says where it looked."""


class SimError(Exception):
    """A run on the virtual board cannot start; `code` is the exit code (1 setup problem, 2 bad
    command line)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def find_micropython() -> str:
    """$MICROPYTHON, else `micropython` beside this Python (its venv), else the clone's .venv,
    else on PATH; MicroPythonNotFound naming where it looked."""
    explicit = os.environ.get("MICROPYTHON")
    if explicit:
        found = shutil.which(explicit)  # a path (a file that can run, not a folder), or a name on PATH
        if found:
            return found
        raise MicroPythonNotFound(_bad_micropython(explicit))
    candidates = [str(Path(sys.executable).with_name("micropython")),
                  str(REPO_ROOT / ".venv" / "bin" / "micropython"), shutil.which("micropython")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise MicroPythonNotFound(
        "no MicroPython unix port found: run `make setup`, or set MICROPYTHON=/path/to/micropython "
        "(looked at: %s)" % ", ".join(c for c in candidates if c))


def _bad_micropython(value: str) -> str:
    """Why MICROPYTHON=value names no interpreter, and what to do."""
    if os.sep not in value:
        why = "is not on PATH"
    elif os.path.isdir(value):
        why = "is a folder, not the program in it"
    elif not os.path.exists(value):
        why = "names no such file"
    else:
        why = "is not executable (chmod +x it, if it is the interpreter)"
    return ("MICROPYTHON=%s %s; point it at the MicroPython unix port's `micropython` program, "
            "or unset MICROPYTHON to use the one `make setup` installs in .venv/bin" % (value, why))


# The wasm32 leg (31-bit small ints like a board): a `micropython`-compatible command under node.
WASM_RUNNER = REPO_ROOT / "tools" / "wasm" / "run.mjs"
WASM_PACKAGE = (REPO_ROOT / "tools" / "wasm" / "node_modules" / "@micropython"
                / "micropython-webassembly-pyscript")


def find_micropython_wasm() -> str:
    """tools/wasm/run.mjs when node and the pinned npm package are installed (a clone's
    `make setup`); MicroPythonNotFound saying what is missing."""
    if not shutil.which("node"):
        raise MicroPythonNotFound(
            "no node on PATH, so the MicroPython wasm32 leg cannot run (install nodejs and npm, "
            "then `make setup`)")
    if not (WASM_PACKAGE / "micropython.mjs").exists():
        raise MicroPythonNotFound(
            "the MicroPython WebAssembly port is not installed in tools/wasm: run `make setup`")
    return str(WASM_RUNNER)


def micropypath(lib: Optional[Folder] = None, *extra: Folder, vboard: bool = True,
                root: bool = False) -> str:
    """MICROPYPATH for the firmware in `lib` (None: the clone's firmware/lib): the virtual board
    first (vboard=False: a bare interpreter, e.g. the rules core alone), then `extra` folders
    (a test's or the bench's scripts), then, as on a board, the current folder (root=True: the
    board's filesystem is the working folder), the frozen modules and lib."""
    parts: List[str] = [str(VBOARD_DIR)] if vboard else []
    parts += [str(folder) for folder in extra]
    firmware = str(lib if lib is not None else REPO_FIRMWARE_LIB)
    parts += ["", FROZEN, firmware] if root else [firmware, FROZEN]  # a board's own order
    return ":".join(parts)


def board_env(lib: Optional[Folder] = None, *extra: Folder, vboard: bool = True, root: bool = False,
              base: Optional[dict] = None) -> dict:
    """`base` (default os.environ) with MICROPYPATH = micropypath(lib, *extra, ...)."""
    env = dict(os.environ if base is None else base)
    env["MICROPYPATH"] = micropypath(lib, *extra, vboard=vboard, root=root)
    return env


def command(script: Sequence[Folder], heap: Optional[str] = None, micropython: Optional[str] = None) -> list:
    """The command line that runs `script` (a file and its arguments, or ["-i", ...], ["-c", code])
    with a heap of `heap` ("360K", "8M"; None: the port's default)."""
    line = [micropython or find_micropython()]
    if heap:
        line += ["-X", "heapsize=" + heap]
    return line + [str(part) for part in script]
