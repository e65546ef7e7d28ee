"""A normal reset of the served virtual board is logged as a reset, not as a process that died.

Before: every deploy or self-test reset logged "virtual board: process ended (code -9),
resetting", which a newcomer reads as a crash.
"""
import time

from waits import WAIT_S

from propctl.serial_link.serve import VirtualBoard


def test_machine_reset_is_logged_as_a_reset(tmp_path):
    (tmp_path / "main.py").write_text("import machine\nimport time\ntime.sleep(0.3)\nmachine.reset()\n")
    said = []
    board = VirtualBoard(tmp_path, log=said.append)
    with board:
        deadline = time.monotonic() + WAIT_S
        while board.boots < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert board.boots >= 3, said
    assert "virtual board: reset, booting again" in said
    assert not [line for line in said if "code -9" in line], said
