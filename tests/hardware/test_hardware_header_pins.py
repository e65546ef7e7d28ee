"""Every prop's hardware docs give each pin's physical place on the board's header (Pico pin
1-40, DevKitC J1/J3 pin), in the wiring table and (Pico) in the picture, where the board
profile puts the GPIO."""
import pytest
from hardware_docs import HARDWARE, boardprofiles, check_header_pins, check_picture_header_pins

PROPS = ["clock", "fusebox", "football"]


def readme(prop: str) -> str:
    return (HARDWARE / prop / "README.md").read_text()


@pytest.mark.parametrize("prop", PROPS)
def test_physical_pin_column_is_where_each_gpio_sits_on_the_header(prop):
    check_header_pins(readme(prop), prop)


@pytest.mark.parametrize("prop", PROPS)
def test_physical_pin_check_can_fail(prop):
    text = readme(prop)
    gpio = boardprofiles.profile("pico", prop)["piezo"]
    wrong = text.replace("| `piezo` | %d | %s |" % (gpio, boardprofiles.header_pin("pico", gpio)),
                         "| `piezo` | %d | 99 |" % gpio)
    assert wrong != text
    with pytest.raises(AssertionError):
        check_header_pins(wrong, prop)


@pytest.mark.parametrize("prop", PROPS)
def test_esp32s3_physical_pin_check_can_fail(prop):
    text = readme(prop)
    gpio = boardprofiles.profile("esp32s3", prop)["piezo"]
    cell = "| %d | %s | " % (gpio, boardprofiles.header_pin("esp32s3", gpio))
    row = next(line for line in text.splitlines() if line.startswith("| `piezo` |"))
    assert row.count(cell) == 1
    wrong = text.replace(row, row.replace(cell, "| %d | J3-21 | " % gpio))
    with pytest.raises(AssertionError):
        check_header_pins(wrong, prop)


@pytest.mark.parametrize("prop", PROPS)
def test_picture_labels_name_the_physical_pins(prop):
    svg = (HARDWARE / prop / "wiring.svg").read_text(encoding="utf-8")
    check_picture_header_pins(svg, prop)
    piezo = " (pin %s)" % boardprofiles.header_pin("pico", boardprofiles.profile("pico", prop)["piezo"])
    assert piezo in svg
    with pytest.raises(AssertionError):
        check_picture_header_pins(svg.replace(piezo, " (pin 21)"), prop)  # the piezo's pin, wrong
