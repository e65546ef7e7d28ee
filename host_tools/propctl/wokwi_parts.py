"""The parts of a Wokwi diagram (propctl.wokwi), each standing for what a wiring table connects.

Each prop draws its pins with these in propctl/props/<name>/wokwi.py (PARTS; NOT_DRAWN: the
profile signals left out on purpose, and why). A wire end is ("sig", profile signal),
("part", part id, pin), GND or V33.
"""
GND = ("gnd",)
V33 = ("3v3",)


def sig(name: str) -> tuple:
    return ("sig", name)


def part(part_id: str, kind: str, attrs: dict, wires: dict) -> dict:
    return {"id": part_id, "type": kind, "attrs": attrs, "wires": wires}


def button(signal: str, label: str, key: str, color: str = "red") -> list:
    """A push button from the input to GND (internal pull-up; pressed reads low)."""
    return [part(signal, "wokwi-pushbutton", {"color": color, "label": label, "key": key},
                  {"1.l": sig(signal), "2.l": GND})]


def window(signal: str, number: int) -> list:
    """A window sensor: slide switch, left (closed window) shorts the input to GND."""
    return [part(signal, "wokwi-slide-switch", {}, {"2": sig(signal), "1": GND}),
            part("label_" + signal, "wokwi-text", {"text": "window %d" % number}, {})]


def led(signal: str, ohms: int, color: str, label: str) -> list:
    """An LED from the output through its resistor to GND."""
    return [part("r_" + signal, "wokwi-resistor", {"value": str(ohms)},
                  {"1": sig(signal), "2": ("part", signal, "A")}),
            part(signal, "wokwi-led", {"color": color, "label": label}, {"C": GND})]


def piezo(signal: str) -> list:
    return [part("r_" + signal, "wokwi-resistor", {"value": "100"},
                  {"1": sig(signal), "2": ("part", signal, "2")}),
            part(signal, "wokwi-buzzer", {"volume": "0.1"}, {"1": GND})]


def dc_motor(in1: str, in2: str) -> list:
    """The motor across the bridge inputs: two LEDs in anti-parallel behind one resistor."""
    return [part("r_motor", "wokwi-resistor", {"value": "220"},
                  {"1": sig(in1), "2": ("part", "motor_cw", "A")}),
            part("motor_cw", "wokwi-led", {"color": "green", "label": "hand clockwise (AIN1 high)"},
                  {"C": sig(in2)}),
            part("motor_ccw", "wokwi-led", {"color": "orange", "label": "anticlockwise (AIN2 high)"},
                  {"A": sig(in2), "C": ("part", "r_motor", "2")})]
