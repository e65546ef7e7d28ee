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
