"""hardware/<prop>/wokwi/<board>/diagram.json: generated from the board profiles, wired as they say.

The check here does not trust the generator's pin naming: it finds each board pin
by its place on the header (Pico pin 1-40, DevKitC or S3 DevKitC-1 J1/J3 pin, from boardprofiles.py's
header maps) and names it as Wokwi's board definition does at that place.
"""
import copy
import json
import shutil

import pytest
from hardware_docs import HARDWARE, boardprofiles

from propctl import cli, wokwi

# Wokwi's pin names in header order (wokwi-pi-pico reference: GND.1-8 are pins 3, 8, ..., 38;
# wokwi-boards esp32-devkit-c-v4/board.json, left column = J1, right column = J3).
PICO_PINS = ["GP0", "GP1", "GND.1", "GP2", "GP3", "GP4", "GP5", "GND.2", "GP6", "GP7", "GP8", "GP9",
             "GND.3", "GP10", "GP11", "GP12", "GP13", "GND.4", "GP14", "GP15", "GP16", "GP17", "GND.5",
             "GP18", "GP19", "GP20", "GP21", "GND.6", "GP22", "RUN", "GP26", "GP27", "GND.7", "GP28",
             "ADC_VREF", "3V3", "3V3_EN", "GND.8", "VSYS", "VBUS"]
DEVKITC_J1 = ["3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26", "27", "14", "12", "GND.1", "13",
              "D2", "D3", "CMD", "5V"]
DEVKITC_J3 = ["GND.2", "23", "22", "TX", "RX", "21", "GND.3", "19", "18", "5", "17", "16", "4", "0", "2",
              "15", "D1", "D0", "CLK"]
# wokwi-boards esp32-s3-devkitc-1/board.json: left column = J1, right column = J3.
S3_J1 = ["3V3.1", "3V3.2", "RST", "4", "5", "6", "7", "15", "16", "17", "18", "8", "3", "46", "9", "10", "11",
         "12", "13", "14", "5V", "GND.1"]
S3_J3 = ["GND.2", "TX", "RX", "1", "2", "42", "41", "40", "39", "38", "37", "36", "35", "0", "45", "48", "47",
         "21", "20", "19", "GND.3", "GND.4"]
HEADERS = {"esp32": {"J1": DEVKITC_J1, "J3": DEVKITC_J3}, "esp32s3": {"J1": S3_J1, "J3": S3_J3}}
BOARD_ID = {"pico": "pico", "esp32": "esp", "esp32s3": "esp"}
# signals whose part serves two signals
SHARED_PARTS = {"motor_in1": "motor_cw", "motor_in2": "motor_cw", "oled_sda": "oled", "oled_scl": "oled"}
POWER = {"pico": {"3V3"}, "esp32": {"3V3"}, "esp32s3": {"3V3.1"}}


def header_name(board: str, gpio: int) -> str:
    where = boardprofiles.header_pin(board, gpio)
    if board == "pico":
        return PICO_PINS[int(where) - 1]
    column, number = where.split("-")
    return HEADERS[board][column][int(number) - 1]


def is_ground(board: str, pin: str) -> bool:
    return pin.startswith("GND.")


def expected_part(signal: str) -> tuple:
    """(Wokwi part type, its pin) that the wiring table's "connects to" becomes in the simulator."""
    if signal == "button" or signal.startswith("btn_"):
        return "wokwi-pushbutton", "1.l"
    if signal.startswith("window"):
        return "wokwi-slide-switch", "2"
    if signal == "piezo":
        return "wokwi-buzzer", "2"
    if signal == "relay":
        return "wokwi-relay-module", "IN"
    if signal == "battery_adc":
        return "wokwi-potentiometer", "SIG"
    if signal.startswith("oled_"):
        return "board-ssd1306", signal[5:].upper()
    if signal == "motor_in2":
        return "wokwi-led", "C"  # the clockwise LED's cathode: the motor's other lead (AIN1 its anode)
    return "wokwi-led", "A"      # LEDs, bridge inputs, ULN2003 inputs, MOSFET gate


def nets(data: dict) -> dict:
    """{"part:pin": set of "part:pin" joined by wires alone}."""
    joined: dict = {}
    for a, b, *_ in data["connections"]:
        group = joined.get(a, {a}) | joined.get(b, {b})
        for end in group:
            joined[end] = group
    return joined


def reached(data: dict, start: str) -> set:
    """Part pins on the net of `start`, and on the far side of any resistor on it."""
    types = {p["id"]: p["type"] for p in data["parts"]}
    net = nets(data)
    found = set(net.get(start, {start}))
    for end in list(found):
        part, _, pin = end.partition(":")
        if types[part] == "wokwi-resistor":
            found |= net.get("%s:%s" % (part, "2" if pin == "1" else "1"), set())
    return found


def check_diagram(data: dict, board: str, prop: str) -> None:
    """Every profile signal goes from its header pin to the part its table row names; nothing else."""
    wokwi.check_pin_names(data)
    types = {p["id"]: p["type"] for p in data["parts"]}
    board_id = BOARD_ID[board]
    pins = boardprofiles.profile(board, prop)
    used = {}
    for signal, gpio in pins.items():
        if gpio is None or boardprofiles.header_pin(board, gpio) == "-":
            continue  # not wired, or on the board itself (the Pico's LED)
        if signal in wokwi.NOT_DRAWN.get(prop, {}):
            continue
        name = header_name(board, gpio)
        used[name] = signal
        start = "%s:%s" % (board_id, name)
        kind, part_pin = expected_part(signal)
        ends = reached(data, start)
        part_id = SHARED_PARTS.get(signal, signal)  # each part is named after its signal
        hits = [e for e in ends if e == "%s:%s" % (part_id, part_pin) and types[part_id] == kind]
        assert hits, "%s %s: %s (GPIO %s) does not reach %s pin %s (%s): %s" % (
            board, prop, signal, gpio, part_id, part_pin, kind, sorted(ends))
        others = [e for e in nets(data).get(start, ()) if e.startswith(board_id + ":") and e != start]
        assert not others, "%s %s: %s shorted to %s" % (board, prop, signal, others)
        if kind in ("wokwi-pushbutton", "wokwi-slide-switch"):
            far = "2.l" if kind == "wokwi-pushbutton" else "1"
            grounds = [e for e in nets(data).get("%s:%s" % (part_id, far), ())
                       if e.startswith(board_id + ":") and is_ground(board, e.split(":")[1])]
            assert grounds, "%s %s: %s's switch does not go to GND" % (board, prop, signal)
    for a, b, *_ in data["connections"]:
        for end in (a, b):
            part, _, pin = end.partition(":")
            if part == board_id:
                assert pin in used or is_ground(board, pin) or pin in POWER[board], (
                    "%s %s: a wire on %s, which carries no signal of the profile" % (board, prop, pin))


@pytest.mark.parametrize("prop", wokwi.PROPS)
@pytest.mark.parametrize("board", sorted(wokwi.WOKWI_BOARDS))
def test_committed_diagram_is_wired_as_the_profile_says(board, prop):
    data = json.loads(wokwi.diagram_path(HARDWARE, prop, board).read_text(encoding="utf-8"))
    assert data["parts"][0]["type"] == wokwi.WOKWI_BOARDS[board]["type"]
    check_diagram(data, board, prop)


def test_committed_diagrams_are_what_the_profiles_generate():
    assert wokwi.generate_all(wokwi.load_boards(), HARDWARE, write=False) == []
    assert cli.main(["wokwi", "--check"]) == 0


def test_every_profile_signal_is_drawn_or_left_out_with_a_reason():
    for prop in wokwi.PROPS:
        drawn = set(wokwi._signals(wokwi.PROP_PARTS[prop]))
        left_out = set(wokwi.NOT_DRAWN.get(prop, {}))
        for board in wokwi.WOKWI_BOARDS:
            assert set(boardprofiles.profile(board, prop)) == drawn | left_out, (board, prop)
    assert set(wokwi.NOT_DRAWN) == {"fusebox"} and set(wokwi.NOT_DRAWN["fusebox"]) == {"i2c_sda", "i2c_scl"}


def test_esp32_buttons_without_internal_pull_up_get_a_10k_to_3v3():
    data = json.loads(wokwi.diagram_path(HARDWARE, "fusebox", "esp32").read_text(encoding="utf-8"))
    for signal in ("btn_next", "btn_prev", "btn_bolt"):
        start = "esp:" + header_name("esp32", boardprofiles.profile("esp32", "fusebox")[signal])
        assert "esp:3V3" in reached(data, start), signal


def test_check_notices_a_miswired_diagram():
    data = json.loads(wokwi.diagram_path(HARDWARE, "fusebox", "pico").read_text(encoding="utf-8"))
    swapped = copy.deepcopy(data)
    for connection in swapped["connections"]:  # windows 3 and 4 swapped at the board
        if connection[0] == "window3:2":
            connection[1] = "pico:GP7"
        elif connection[0] == "window4:2":
            connection[1] = "pico:GP6"
    with pytest.raises(AssertionError, match="window3"):
        check_diagram(swapped, "pico", "fusebox")
    stray = copy.deepcopy(data)
    stray["connections"].append(["relay:NO", "pico:GP28", "green", []])
    with pytest.raises(AssertionError, match="GP28"):
        check_diagram(stray, "pico", "fusebox")
    unknown = copy.deepcopy(data)
    unknown["connections"].append(["relay:OUT", "pico:GND.8", "black", []])
    with pytest.raises(ValueError, match="no pin 'OUT'"):
        check_diagram(unknown, "pico", "fusebox")


def test_a_changed_profile_makes_the_check_fail(tmp_path, capsys):
    firmware = tmp_path / "lib"
    firmware.mkdir()
    shutil.copy(wokwi.FIRMWARE_LIB / "boardprofiles.py", firmware)
    shutil.copytree(wokwi.FIRMWARE_LIB / "props", firmware / "props")
    pinout = firmware / "props" / "fusebox" / "pinout.py"  # the fuse box's pins, in its folder
    text = pinout.read_text(encoding="utf-8")
    moved = text.replace('"window3": 6,', '"window3": 28,')
    assert moved != text
    pinout.write_text(moved, encoding="utf-8")
    assert cli.main(["wokwi", "--check", "--firmware", str(firmware)]) == 1
    out = capsys.readouterr().out
    assert "fusebox/wokwi/pico/diagram.json" in out and "clock" not in out
    # written into a copy of hardware/, the new diagram carries the new pin
    copy_root = tmp_path / "hardware"
    shutil.copytree(HARDWARE, copy_root)
    assert cli.main(["wokwi", "--firmware", str(firmware), "--out", str(copy_root)]) == 0
    data = json.loads(wokwi.diagram_path(copy_root, "fusebox", "pico").read_text(encoding="utf-8"))
    assert ["window3:2", "pico:GP28", "green", []] in data["connections"]
