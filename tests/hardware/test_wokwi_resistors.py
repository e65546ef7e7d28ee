"""The Wokwi diagrams used 150 ohm for the fuse box's green LED and the football's
down bar, against the wiring tables' 220 ohm; a builder copying from Wokwi got about 45 mA on
the football's LEDs. Every LED's and the piezo's resistor in every committed diagram must equal
the value its prop's wiring table gives."""
import json
import re

import pytest
from hardware_docs import HARDWARE, table_rows

PROPS = ("clock", "fusebox", "football")


def doc_ohms(prop: str) -> dict:
    """{signal: ohms} for the wiring-table rows that put a resistor before an LED or the piezo."""
    text = (HARDWARE / prop / "README.md").read_text(encoding="utf-8")
    out = {}
    for row in table_rows(text, "signal"):
        what = row.get("connects to", "")
        signal = row["signal"].strip("`")
        if ("LED" in what or signal == "piezo") and re.search(r"\d+ ohm", what):
            out[signal] = int(re.search(r"(\d+) ohm", what).group(1))
    return out


def diagram_ohms(prop: str, board: str) -> dict:
    diagram = json.loads((HARDWARE / prop / "wokwi" / board / "diagram.json").read_text())
    return {part["id"][2:]: int(part["attrs"]["value"]) for part in diagram["parts"]
            if part["type"] == "wokwi-resistor" and part["id"].startswith("r_")}


@pytest.mark.parametrize("board", ["pico", "esp32", "esp32s3"])
@pytest.mark.parametrize("prop", PROPS)
def test_every_led_and_piezo_resistor_in_wokwi_is_the_docs_value(prop, board):
    docs = doc_ohms(prop)
    drawn = diagram_ohms(prop, board)
    compared = 0
    for signal, ohms in docs.items():
        if signal in drawn:
            assert drawn[signal] == ohms, "%s/%s: %s has %d ohm in Wokwi, %d ohm in the docs" % (
                prop, board, signal, drawn[signal], ohms)
            compared += 1
    assert compared >= 1 and "piezo" in docs


def test_the_green_leds_are_compared_and_no_diagram_has_150_ohm():
    assert doc_ohms("fusebox")["led_green"] == 220
    assert all(doc_ohms("football")["led_down%d" % n] == 220 for n in range(1, 5))
    for prop in PROPS:
        for board in ("pico", "esp32", "esp32s3"):
            assert 150 not in diagram_ohms(prop, board).values(), (prop, board)
