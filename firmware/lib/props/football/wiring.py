"""The football box's wiring: four buttons, the piezo, the scoreboard (OLED or LEDs), the board's LED.

One place for props.football.build (the prop) and props.football.selftest_steps (the wiring
self-test), so both find the same pins and the same scoreboard.

    wiring = FootballWiring(machine, settings)
    buttons = wiring.buttons()                # bit i: BUTTON_NAMES[i] pressed
    display = wiring.display(errors)          # OledDisplay, or LedDisplay (asked for, or no OLED)
    for name, what in SCOREBOARD_LEDS: ...    # the LED scoreboard's outputs, named for a person
"""
# SOUNDS: the piezo's sounds, which the self-test plays one by one
from props.football.constants import BUTTON_NAMES, SOUNDS, box_settings  # noqa: F401
from props.pins import Pins

SCOREBOARD_LEDS = (("led_home", "home"), ("led_away", "away"), ("led_kick", "kick"),
                   ("led_down1", "1st down"), ("led_down2", "2nd down"), ("led_down3", "3rd down"),
                   ("led_down4", "4th down"))


class FootballWiring:
    """The box's drivers from settings["board"]'s football profile and settings["football"]."""

    def __init__(self, machine, settings) -> None:
        self.cfg = box_settings(settings)[0]
        self.pins = Pins(machine, settings["board"], "football")

    def buttons(self):
        return self.pins.buttons(["btn_" + name for name in BUTTON_NAMES])

    def leds_asked_for(self) -> bool:
        return self.cfg["display"] == "leds"

    def display(self, errors: list):
        """The scoreboard: the OLED when asked for and answering, else the LEDs (errors say why)."""
        from props.football.scoreboard import LedDisplay, OledDisplay
        cfg, pins = self.cfg, self.pins
        if cfg["display"] == "oled":
            from drivers.ssd1306 import SSD1306
            m = pins.machine
            try:
                i2c = m.I2C(0, scl=m.Pin(pins.names["oled_scl"]), sda=m.Pin(pins.names["oled_sda"]),
                            freq=400000)
                return OledDisplay(SSD1306(i2c, 128, cfg["oled_height"], cfg["oled_address"]))
            except (OSError, ValueError) as exc:
                errors.append("football.display: no OLED (%s); using the LEDs" % (exc,))
        elif not self.leds_asked_for():
            errors.append("football.display: %r is not oled or leds; using the LEDs" % (cfg["display"],))
        out = self._output
        return LedDisplay(out("led_home"), out("led_away"), out("led_kick"),
                          [out("led_down%d" % i) for i in (1, 2, 3, 4)])

    def _output(self, name: str):
        return self.pins.out(name) if self.pins.has(name) else None
