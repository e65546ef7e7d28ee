"""hardware/README.md's boards table says what boardprofiles.board_profile and boardprofiles.VARIANTS say."""
import re

from hardware_docs import BOARD_COLUMNS, HARDWARE, board_variants, boardprofiles, settings, table_rows


def rows() -> dict:
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    return {row["profile"].strip("`"): row for row in table_rows(text, "profile")}


def test_every_profile_is_in_the_boards_table_with_its_name():
    table = rows()
    assert set(table) == set(boardprofiles.NAMES)
    for board, row in table.items():
        assert row["board"] == boardprofiles.board_profile(board)["name"], board


def test_variants_are_documented_with_their_differences():
    docs = board_variants()
    for board, (base, _, changes) in docs.items():
        if board in BOARD_COLUMNS:
            assert base == board and changes == {}, board
        else:
            variant = boardprofiles.VARIANTS[board]
            assert variant[0] == base and variant[2] == changes, board
    assert set(boardprofiles.VARIANTS) == set(docs) - set(BOARD_COLUMNS)


def test_limits_columns_are_the_profiles_limits():
    for board, row in rows().items():
        limits = boardprofiles.limits(board)
        assert row["watchdog max"] == "%d ms" % limits["wdt_max_ms"], board
        assert row["motor PWM"] == "%d Hz" % limits["pwm_motor_hz"], board
        if limits["adc_read_uv"]:
            assert row["battery ADC"].startswith("read_uv"), board
        else:
            assert row["battery ADC"] == "read_u16, %d mV full scale" % limits["adc_full_mv"], board


def test_pico_w_led_is_the_wireless_chips_and_every_other_pin_the_picos():
    for prop in ("clock", "football"):
        pico = dict(boardprofiles.profile("pico", prop))
        pico_w = dict(boardprofiles.profile("pico_w", prop))
        assert pico_w["led"] == "LED" and pico["led"] == 25
        del pico_w["led"], pico["led"]
        assert pico_w == pico


def test_header_maps_put_each_gpio_on_one_pin():
    # Pico: 40 pins, 8 of them GND and 7 power/control, so 26 GPIOs on the header.
    pico = boardprofiles.board_profile("pico")["header"]
    assert len(pico) == 26 and len(set(pico.values())) == 26
    assert set(pico.values()).isdisjoint({3, 8, 13, 18, 23, 28, 33, 38, 30, 35, 36, 37, 39, 40})
    esp = boardprofiles.board_profile("esp32")["header"]
    assert len(set(esp.values())) == len(esp)
    assert all(re.fullmatch(r"J[13]-(\d+)", where) for where in esp.values())
    # no GPIO on a DevKitC power or ground pin (J1-1 3V3, J1-2 EN, J1-14 GND, J1-19 5V, J3-1/J3-7 GND)
    assert set(esp.values()).isdisjoint({"J1-1", "J1-2", "J1-14", "J1-19", "J3-1", "J3-7"})


def test_every_profile_can_be_deployed():
    # propctl deploy compiles for the board's architecture: a profile without one cannot be chosen.
    from propctl.build import BOARD_ARCH
    assert set(BOARD_ARCH) == set(boardprofiles.NAMES)


# ESP32-S3 pins the esp32s3 profile must leave alone, though many are on the DevKitC-1's header:
# strapping pins (0 boot mode, 3 JTAG source, 45 flash voltage, 46 boot/ROM log), the USB
# socket's D-/D+ (19, 20), the SPI flash and the octal PSRAM/flash of N8R8/N16R8 modules
# (26-37), the RGB LED (48 on v1.0 boards, 38 on v1.1), UART0 to the USB-UART bridge (43, 44).
S3_AVOIDED = {0, 3, 45, 46, 19, 20, 38, 48, 43, 44} | set(range(26, 38))
S3_ADC1 = range(1, 11)  # GPIO 1-10; ADC2 (GPIO 11-20) does not read while Wi-Fi is on


def test_esp32s3_header_map_is_the_devkitc1_headers():
    header = boardprofiles.board_profile("esp32s3")["header"]
    assert len(set(header.values())) == len(header) == 36
    for where in header.values():
        column, number = re.fullmatch(r"(J[13])-(\d+)", where).groups()
        # J1: 3V3, 3V3, RST first and 5V, GND last; J3: GND first and the last two GND
        assert (4 <= int(number) <= 20) if column == "J1" else (2 <= int(number) <= 20), where


def esp32s3_problems(pins: dict) -> list:
    problems = []
    header = boardprofiles.board_profile("esp32s3")["header"]
    for signal, pin in pins.items():
        if pin in S3_AVOIDED or pin not in header:
            problems.append(signal)
    if "battery_adc" in pins and pins["battery_adc"] not in S3_ADC1:
        problems.append("battery_adc")
    wired = [pin for pin in pins.values() if pin is not None]
    if len(set(wired)) != len(wired):
        problems.append("a pin twice")
    return problems


def test_esp32s3_profile_keeps_off_strapping_usb_psram_and_led_pins():
    for prop in ("clock", "fusebox", "football"):
        assert esp32s3_problems(boardprofiles.profile("esp32s3", prop)) == [], prop


def test_esp32s3_pin_check_can_fail():
    wrong = dict(boardprofiles.profile("esp32s3", "clock"), piezo=46, led=48, battery_adc=12, button=5)
    assert sorted(esp32s3_problems(wrong)) == ["a pin twice", "battery_adc", "led", "piezo"]
    assert esp32s3_problems({"relay": 35}) == ["relay"]  # octal PSRAM on an N8R8 module


def test_every_profile_is_a_board_choice_of_the_settings():
    for board in boardprofiles.NAMES:
        result, errors = settings.merge({"board": board})
        assert errors == [] and result["board"] == board, board
    result, errors = settings.merge({"board": "esp32c3"})  # no profile: the default, and a message
    assert result["board"] == "pico" and any("esp32c3" in message for message in errors)
