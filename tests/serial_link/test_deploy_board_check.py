"""deploy checks the board's MicroPython and chip against --board before it copies anything."""
from propctl.serial_link.session import board_problem


def test_the_right_board_passes_and_names_itself():
    problem, shown = board_problem("pico", "micropython", [1, 24, 1], "Raspberry Pi Pico with RP2040", "rp2")
    assert problem is None and shown == "micropython 1.24.1 on Raspberry Pi Pico with RP2040"
    assert board_problem("esp32", "micropython", [1, 23, 0], "Generic ESP32 module with ESP32",
                         "esp32")[0] is None
    assert board_problem("pico_w", "micropython", [1, 24, 0], "Raspberry Pi Pico W with RP2040",
                         "rp2")[0] is None
    assert board_problem("pico2", "micropython", [1, 24, 0], "Raspberry Pi Pico2 with RP2350",
                         "rp2")[0] is None
    assert board_problem("pico2_w", "micropython", [1, 24, 0], "Raspberry Pi Pico 2 W with RP2350",
                         "rp2")[0] is None


# What ESP32_GENERIC_S3 builds report: the plain and the octal-PSRAM (SPIRAM_OCT) variant, and
# newer releases that spell the chip "ESP32-S3".
S3_MACHINES = ["Generic ESP32S3 module with ESP32S3", "Generic ESP32S3 module with Octal-SPIRAM with ESP32S3",
               "Generic ESP32S3 module with Octal-SPIRAM with ESP32-S3"]


def test_an_esp32_s3_passes_as_esp32s3_only():
    for machine in S3_MACHINES:
        assert board_problem("esp32s3", "micropython", [1, 24, 1], machine, "esp32")[0] is None, machine
        problem, _ = board_problem("esp32", "micropython", [1, 24, 1], machine, "esp32")
        assert "an ESP32-S3" in problem and "--board esp32s3" in problem, machine
        problem, _ = board_problem("pico", "micropython", [1, 24, 1], machine, "esp32")
        assert "--board pico is for boards that report RP2040" in problem, machine


def test_esp32s3_refuses_every_other_chip():
    for machine, platform in (("Generic ESP32 module with ESP32", "esp32"),
                              ("ESP32C3 module with ESP32C3", "esp32"),
                              ("Generic ESP32S2 module with ESP32S2", "esp32"),
                              ("Raspberry Pi Pico with RP2040", "rp2")):
        problem, _ = board_problem("esp32s3", "micropython", [1, 24, 1], machine, platform)
        assert "--board esp32s3 is for boards that report ESP32S3" in problem, machine
    for machine in ("ESP32C3 module with ESP32C3", "Generic ESP32S2 module with ESP32S2"):
        problem, _ = board_problem("esp32", "micropython", [1, 24, 1], machine, "esp32")
        assert "no profile for it yet" in problem, machine


def test_a_board_of_another_kind_is_refused_with_what_to_do():
    problem, _ = board_problem("pico", "micropython", [1, 24, 0], "Generic ESP32 module with ESP32", "esp32")
    assert "--board pico is for boards that report RP2040" in problem and "docs/flashing.md" in problem
    problem, _ = board_problem("pico", "micropython", [1, 24, 0], "Raspberry Pi Pico W with RP2040", "rp2")
    assert "--board pico_w" in problem and "GPIO 25" in problem
    problem, _ = board_problem("pico", "micropython", [1, 24, 0], "Raspberry Pi Pico2 with RP2350", "rp2")
    assert "--board pico2" in problem
    problem, _ = board_problem("pico_w", "micropython", [1, 24, 0], "Raspberry Pi Pico with RP2040", "rp2")
    assert "--board pico_w is for boards that report Pico W" in problem
    problem, _ = board_problem("pico2", "micropython", [1, 24, 0], "Raspberry Pi Pico 2 W with RP2350", "rp2")
    assert "Pico 2 W" in problem and "--board pico2_w" in problem and "GPIO 25" in problem
    problem, _ = board_problem("pico", "micropython", [1, 24, 0], "Raspberry Pi Pico 2 W with RP2350", "rp2")
    assert "--board pico2_w" in problem
    problem, _ = board_problem("pico2_w", "micropython", [1, 24, 0], "Raspberry Pi Pico2 with RP2350", "rp2")
    assert "--board pico2_w is for boards that report Pico 2 W" in problem
    problem, _ = board_problem("pico2_w", "micropython", [1, 24, 0], "Raspberry Pi Pico W with RP2040", "rp2")
    assert "--board pico_w" in problem
    problem, _ = board_problem("esp32", "micropython", [1, 24, 0], "Raspberry Pi Pico with RP2040", "rp2")
    assert "--board esp32" in problem


def test_every_board_profile_has_a_chip_to_check():
    from propctl.build import BOARD_ARCH
    from propctl.serial_link.session import BOARD_MACHINES
    assert set(BOARD_MACHINES) == set(BOARD_ARCH)


def test_an_old_micropython_or_another_python_is_refused():
    problem, _ = board_problem("pico", "micropython", [1, 18, 0], "Raspberry Pi Pico with RP2040", "rp2")
    assert "MicroPython 1.18.0" in problem and "1.19 or newer" in problem
    problem, _ = board_problem("pico", "circuitpython", [9, 0, 0], "Raspberry Pi Pico with rp2040", "RP2040")
    assert "not MicroPython" in problem


def test_the_unix_port_is_the_virtual_board():
    problem, shown = board_problem("pico", "micropython", [1, 28, 0], "", "linux")
    assert problem is None and "virtual board" in shown
