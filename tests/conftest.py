"""Shared fixtures: the MicroPython process and the differential runner."""
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

from micropython_harness import Differential, MicroPythonProcess, find_micropython  # noqa: E402

# Every scenario crosses a process boundary: keep hypothesis deadlines off and
# the example counts steady so a noisy machine cannot make a test flaky.
settings.register_profile("default", deadline=None, max_examples=100)
settings.register_profile("quick", deadline=None, max_examples=20)
settings.load_profile("default")


@pytest.fixture(scope="session")
def micropython_process():
    process = MicroPythonProcess(find_micropython())
    yield process
    process.close()


@pytest.fixture(scope="session")
def differential(micropython_process):
    return Differential(micropython_process)


@pytest.fixture(scope="session")
def vboard_process():
    """A MicroPython process with the virtual board's fake `machine` ahead of the firmware.

    Scenarios called through it (tests/scenarios/clock_*.py) run the real
    firmware on the virtual board. A large heap: the board records every
    output change of a round.
    """
    from propctl.sim.runner import VBOARD_DIR
    process = MicroPythonProcess(find_micropython(), heap="64M", paths=[VBOARD_DIR])
    yield process
    process.close()
