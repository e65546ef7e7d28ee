"""Waiting for a served virtual board (propctl.serial_link.serve.VirtualBoard) to say what a test expects."""
import time

import pytest

from propctl.serial_link.session import wait_for_hello


def hello_until(port, predicate, timeout=30.0):
    """Poll hello until predicate(info) holds; the info, or fail the test."""
    deadline = time.monotonic() + timeout
    info = None
    while time.monotonic() < deadline:
        info = wait_for_hello(port, timeout=min(5.0, max(0.5, deadline - time.monotonic())))
        if info is not None and predicate(info):
            return info
        time.sleep(0.1)
    pytest.fail("the board never answered as expected; last hello: %r" % (info,))
