"""Shared fixtures: the MicroPython process and the differential runner."""
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
# The tests are grouped in folders that mirror the tree (tests/clock, tests/venue, ...). Each
# folder's scenarios (scenario_*.py) and helpers are imported by module name, on CPython as in
# MicroPython (micropython_harness puts the same folders on MICROPYPATH).
for group in sorted(TESTS.iterdir()):
    if group.is_dir() and any(group.glob("test_*.py")) and group.name != "both":
        sys.path.append(str(group))
# what the tests share with the bench (a private Mosquitto, the games' players): tools/testbed
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tools" / "testbed"))

from board_names import alias_board_names  # noqa: E402
from micropython_harness import (  # noqa: E402
    Differential,
    MicroPythonProcess,
    find_micropython,
    wasm_runner,
)

# Tests press Ctrl-C as a person at a terminal does (SIGINT to a sim serve, propctl web, monitor).
# A run started in the background by a shell without job control has SIGINT ignored, and every
# child inherits that: Python then installs no KeyboardInterrupt and the child never hears it.
# Here (the controller and each xdist worker) it is made a Python handler again, so each child
# starts with SIGINT at its default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Board-side code run here under CPython imports `rules`, the desktop propctl.shared.rules: one module.
alias_board_names()

# Every scenario crosses a process boundary: keep hypothesis deadlines off and
# the example counts steady so a noisy machine cannot make a test flaky. The too_slow
# health check times input generation on the wall clock: on a loaded machine it failed
# the link fuzz ("only 6 valid inputs after 35 s"), so it is off too (a test that sets its
# own suppress_health_check names it again: hypothesis replaces that list, it does not merge).
SLOW_MACHINE = [HealthCheck.too_slow]
settings.register_profile("default", deadline=None, max_examples=100, suppress_health_check=SLOW_MACHINE)
settings.register_profile("quick", deadline=None, max_examples=20, suppress_health_check=SLOW_MACHINE)
settings.load_profile("default")


@pytest.fixture(scope="session")
def micropython_process():
    process = MicroPythonProcess(find_micropython(), name="MicroPython unix")
    yield process
    process.close()


@pytest.fixture(scope="session")
def wasm_process():
    """The same scenario server on the MicroPython WebAssembly port (wasm32: 31-bit small ints)."""
    process = MicroPythonProcess(wasm_runner(), name="MicroPython wasm32", copies_files=True)
    yield process
    process.close()


@pytest.fixture(scope="session")
def differential(micropython_process, request):
    """CPython against the unix port and, where node is installed, the wasm32 port too."""
    try:
        wasm = request.getfixturevalue("wasm_process")
    except pytest.skip.Exception:
        return Differential(micropython_process)
    return Differential(micropython_process, wasm)


@pytest.fixture(scope="session")
def vboard_process():
    """A MicroPython process with the virtual board's fake `machine` ahead of the firmware.

    Scenarios called through it (tests/clock/scenario_clock_*.py and the like) run the real
    firmware on the virtual board. A large heap: the board records every
    output change of a round.
    """
    from propctl.sim.runner import VBOARD_DIR
    process = MicroPythonProcess(find_micropython(), heap="64M", paths=[VBOARD_DIR],
                                 name="MicroPython unix")
    yield process
    process.close()


@pytest.fixture(scope="session")
def wasm_vboard_process():
    """vboard_process on the wasm32 port: the heap-lock checks with 31-bit small ints."""
    from propctl.sim.runner import VBOARD_DIR
    process = MicroPythonProcess(wasm_runner(), heap="64M", paths=[VBOARD_DIR],
                                 name="MicroPython wasm32", copies_files=True)
    yield process
    process.close()


# The heap-lock checks run on both MicroPython ports: the unix port (64-bit) and
# wasm32, whose small ints are 31 bits as on a board, so a value past 2**30 on a
# hot path (a big int) fails there even when the 64-bit port cannot see it.
@pytest.fixture(params=["unix", "wasm32"])
def each_micropython_process(request):
    return request.getfixturevalue("micropython_process" if request.param == "unix" else "wasm_process")


@pytest.fixture(params=["unix", "wasm32"])
def each_vboard_process(request):
    return request.getfixturevalue("vboard_process" if request.param == "unix" else "wasm_vboard_process")


@pytest.fixture(autouse=True)
def _private_data_home(tmp_path_factory, monkeypatch):
    """Every test gets its own XDG_DATA_HOME: a game master's play history never lands in (or is
    read from) the real user's ~/.local/share/propctl."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    # and its own runtime folder: a `propctl sim serve` running on the machine (or in another
    # test) is never what `--port auto` finds here (propctl.serial_link.announce)
    runtime = tmp_path_factory.mktemp("runtime")
    runtime.chmod(0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))

