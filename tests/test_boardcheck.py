"""propctl deploy's check of the running MicroPython's machine string against the chosen profile."""
import pytest

from propctl.boardcheck import detect, mismatch

MACHINES = {
    "Raspberry Pi Pico with RP2040": "pico",
    "Raspberry Pi Pico W with RP2040": "pico_w",
    "Raspberry Pi Pico2 with RP2350": "pico2",
    "Generic ESP32 module with ESP32": "esp32",
    "Generic ESP32 module with SPIRAM with ESP32": "esp32",
}


@pytest.mark.parametrize("machine,profile", sorted(MACHINES.items()))
def test_each_board_people_buy_is_its_profile_and_no_other(machine, profile):
    assert detect(machine)[0] == profile
    assert mismatch(profile, machine) is None
    for other in set(MACHINES.values()) - {profile}:
        problem = mismatch(other, machine)
        assert problem and machine in problem, (other, machine)
        if profile != "esp32" or other != "esp32":
            assert "--board %s" % profile in problem or "pico" in problem


def test_the_pico_w_is_not_deployed_as_a_pico():
    problem = mismatch("pico", "Raspberry Pi Pico W with RP2040")
    assert problem == ("the board says it is a 'Raspberry Pi Pico W with RP2040', which is the pico_w "
                       "profile, not pico: deploy with --board pico_w")


def test_boards_without_a_profile_are_refused_with_the_reason():
    assert "no profile" in mismatch("pico2", "Raspberry Pi Pico 2 W with RP2350")
    assert "do not fit the ESP32S3" in mismatch("esp32", "Generic ESP32S3 module with ESP32S3")
    assert "not an ESP32" in mismatch("esp32", "Seeed XIAO RP2040 with RP2040")


def test_what_cannot_be_told_is_not_refused():
    # the virtual board (unix port) and RP2040 clones: nothing to compare
    assert mismatch("pico", "linux [GCC 14.2.1] version") is None
    assert mismatch("pico", "Seeed XIAO RP2040 with RP2040") is None


def test_deploy_refuses_a_board_that_is_not_the_chosen_profile(monkeypatch):
    from propctl import deploy

    class FakeFiles:
        calls: list = []

        def __init__(self, port):
            pass

        def machine(self):
            return "Raspberry Pi Pico W with RP2040"

        def remove(self, path):
            self.calls.append(("remove", path))

        def reset_and_close(self):
            self.calls.append(("reset",))

        def close(self):
            pass

        def __getattr__(self, name):  # anything else would touch the flash
            raise AssertionError("deploy went on to %s" % name)

    monkeypatch.setattr(deploy, "firmware_files", lambda *a, **k: {"lib/boards.mpy": b"x"})
    monkeypatch.setattr(deploy, "request_maintenance", lambda port, say: "run")
    monkeypatch.setattr(deploy, "BoardFiles", FakeFiles)
    with pytest.raises(deploy.DeployError, match="deploy with --board pico_w; nothing was copied"):
        deploy.deploy("/dev/null", prop="clock", board="pico", say=lambda m: None)
    assert FakeFiles.calls == [("remove", deploy.MAINTENANCE_FLAG), ("reset",)]
