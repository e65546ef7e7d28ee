"""A program or port a test needs that this machine lacks. On a person's machine the test skips
with a line that says which and how to get it; under CI ($CI set), which installs them all
(.ci/run, make setup), a missing one fails the test instead, so no leg is skipped unseen."""
import os

import pytest
from chromium_cdp import find_chromium


def missing(leg: str, reason: str):
    """Skip `leg` for `reason`, or fail under CI."""
    if os.environ.get("CI"):
        pytest.fail("CI must run %s: %s" % (leg, reason))
    pytest.skip("%s SKIPPED: %s" % (leg, reason))


def chromium() -> str:
    """The Chromium the browser tests drive, or skip (fail under CI)."""
    binary = find_chromium()
    if binary is None:
        missing("the browser test", "chromium is not installed (Debian: apt-get install chromium; "
                ".ci/run installs it)")
    return binary
