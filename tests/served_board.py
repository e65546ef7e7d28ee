"""Waiting for a served virtual board (propctl.serial_link.serve.VirtualBoard) to say what a test expects."""
import time

import pytest
from waits import START_S, wait_until

from propctl.serial_link.session import wait_for_hello


def hello_until(port, predicate, timeout=START_S):
    """Poll hello until predicate(info) holds (a boot, a reset: a failsafe bound, tools/testbed/waits.py);
    the info, or fail the test."""
    deadline = time.monotonic() + timeout
    info = None
    while time.monotonic() < deadline:
        info = wait_for_hello(port, timeout=min(5.0, max(0.5, deadline - time.monotonic())))
        if info is not None and predicate(info):
            return info
        time.sleep(0.1)
    pytest.fail("the board never answered as expected; last hello: %r" % (info,))


def wait_stable(flash) -> None:
    """Until the running boot is stable: the boot guard wrote 0 to the flash's boot_count
    (safemode.STABLE_MS of board time after the boot, once the firmware's loop got that far; a
    sleep of that long was not enough on a loaded host, where the board's process waits too)."""
    path = flash / "boot_count"

    def stable():
        try:
            return path.read_text().strip() == "0"
        except OSError:
            return False
    assert wait_until(stable), "the boot never became stable (boot_count: %r)" % (
        path.read_text() if path.exists() else None)
