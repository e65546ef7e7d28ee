"""A prop's pins as drivers: the board profile's pin names turned into machine objects.

    pins = Pins(machine, "pico", "clock")     # the profile of settings["board"] for a prop
    pins.out("led"), pins.pwm("piezo", 1000), pins.buttons(("btn_next", "btn_prev"))
    pins.has("motor_stby")                    # not every board wires every pin

Every output starts low (value=0) and every PWM at duty 0, so nothing moves or
sounds until a driver says so; every button input gets the pull-up (pressed =
low), except on a GPIO that has none (the ESP32's input-only 34-39, the board's
"no_pull" limit), where the wiring tables put a 10k pull-up to 3V3 and no pull
is asked for. Each prop's wiring module (props.clock.wiring, ...) builds its drivers
from these, for the prop's build() and for the wiring self-test alike.
"""


class Pins:
    """The pins of one prop's profile on one board, built on demand (see the module docstring)."""

    def __init__(self, machine, board: str, prop: str) -> None:
        import boardprofiles
        self.machine = machine
        self.board = board
        self.names = boardprofiles.profile(board, prop)
        self.limits = boardprofiles.limits(board)

    def has(self, name: str) -> bool:
        return self.names.get(name) is not None

    def out(self, name: str):
        m = self.machine
        return m.Pin(self.names[name], m.Pin.OUT, value=0)

    def pwm(self, name: str, freq: int):
        return self.machine.PWM(self.out(name), freq=freq, duty_u16=0)

    def button(self, name: str):
        m = self.machine
        gpio = self.names[name]
        if gpio in self.limits.get("no_pull", ()):
            return m.Pin(gpio, m.Pin.IN)  # input-only: no internal pull; a 10k to 3V3 is wired
        return m.Pin(gpio, m.Pin.IN, m.Pin.PULL_UP)

    def buttons(self, names):
        """A drivers.switches.PinSource of these buttons (bit i: names[i] pressed)."""
        from drivers.switches import PinSource
        return PinSource([self.button(name) for name in names], active_low=True)

    def led(self, name: str):
        """A drivers.indicator.Indicator on output `name`, None where the board has no such pin."""
        from drivers.indicator import Indicator
        return Indicator(self.out(name)) if self.has(name) else None

    def piezo(self, melody=None):
        """A drivers.chime.PiezoChime on the "piezo" pin (one long-lived PWM, silent at duty 0)."""
        from drivers.chime import PiezoChime
        pwm = self.pwm("piezo", 1000)
        return PiezoChime(pwm) if melody is None else PiezoChime(pwm, melody=melody)
