"""The ESP32's GPIO 34-39 are input-only and have no internal pull resistors; asking
for a pull-up there makes ESP-IDF print a warning per pin at every boot. The props ask for no
pull on those pins (the wiring tables put a 10k pull-up to 3V3 on each) and a pull-up on every
other button input."""
import pytest

S = "scenario_input_pulls:pulls"
PULL_UP = 1  # machine.Pin.PULL_UP on the virtual board


@pytest.mark.parametrize("prop,overrides", [
    ("fusebox", {"board": "esp32"}),
    ("football", {"board": "esp32"}),
    ("clock", {"board": "esp32"}),
])
def test_no_pull_is_asked_for_on_the_esp32_input_only_pins(vboard_process, prop, overrides):
    pulls = vboard_process.call(S, prop, overrides)
    # the I2C bus pins (i2c_*, oled_*) belong to the I2C driver
    buttons = {gpio: pull for gpio, (name, pull) in pulls.items() if not name.startswith(("i2c_", "oled_"))}
    assert buttons, "the build made no input pins"
    for gpio, pull in buttons.items():
        if 34 <= int(gpio) <= 39:
            assert pull is None, "GPIO %s asks for a pull it does not have (%s)" % (gpio, prop)
        else:
            assert pull == PULL_UP, (prop, gpio, pull)
    if prop == "fusebox":
        assert {"34", "35", "39"} <= set(pulls)  # NEXT, PREV and BOLT are there


@pytest.mark.parametrize("board", ["esp32s3", "pico"])
def test_other_boards_keep_their_pull_ups(vboard_process, board):
    pulls = vboard_process.call(S, "fusebox", {"board": board})
    assert pulls and all(pull == PULL_UP for _, pull in pulls.values()), pulls
