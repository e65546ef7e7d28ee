"""The self-test's steps for each prop: the outputs to run and the inputs to follow (see selftest.py).

BUILDERS[prop](test, settings) builds the prop's drivers on the profile's pins,
with the prop's own settings, and adds them to the selftest.session.Session `test`.
"""
from micropython import const

RUN_MS = const(2000)        # how long the motor runs each way
BLINKS = (300, 300, 300, 300, 300, 300)  # three blinks
BEEPS = (880, 150, 0, 150, 880, 150, 0, 150, 880, 150)
RELAY_MS = const(1000)


def where(board: str, gpio) -> str:
    """A pin as the builder finds it: "GP9 (pin 12)", "GPIO 17 (pin J3-11)", "LED (on the board)"."""
    import boards
    if type(gpio) is not int:
        return "%s (on the board)" % gpio
    name = ("GP%d" if board.startswith("pico") else "GPIO %d") % gpio
    header = boards.header_pin(board, gpio)
    return name + (" (on the board)" if header == "-" else " (pin %s)" % header)


def _led(test, m, pins, signal: str, prompt: str) -> None:
    from drivers.indicator import Indicator
    if pins.get(signal) is None:
        return
    led = Indicator(m.Pin(pins[signal], m.Pin.OUT, value=0))
    test.add_driver(led, led.off)
    test.add_output(signal, prompt, 2000, where(test.board, pins[signal]),
                    lambda now: led.start(now, BLINKS), led.off)


def _piezo(test, m, pins, prompt: str) -> None:
    from drivers.chime import PiezoChime
    chime = PiezoChime(m.PWM(m.Pin(pins["piezo"], m.Pin.OUT, value=0), freq=1000, duty_u16=0))
    test.add_driver(chime, chime.silence)
    test.add_output("piezo", prompt, 1000, where(test.board, pins["piezo"]),
                    lambda now: chime.start(now, BEEPS), chime.silence)


def _buttons(test, m, board: str, pins, labels) -> None:
    from drivers.switches import PinSource
    names = [name for name, _ in labels]
    source = PinSource([m.Pin(pins[n], m.Pin.IN, m.Pin.PULL_UP) for n in names], active_low=True)
    test.add_inputs(source, [[n, "press the %s button" % label, where(board, pins[n])]
                             for n, label in labels])


def _clock(test, settings) -> None:
    import boards
    import machine as m
    from drivers.motor import DRV8833, TB6612, HBridgeMotor, StepperMotor
    board = settings["board"]
    cfg = settings["clock"]
    pins = boards.profile(board, "clock")
    _buttons(test, m, board, pins, [("button", "start")])

    def out(name):
        return m.Pin(pins[name], m.Pin.OUT, value=0)

    motor: object
    bridge: object
    if cfg["motor"] == "stepper":
        coils = [out("stepper_in1"), out("stepper_in2"), out("stepper_in3"), out("stepper_in4")]
        motor = StepperMotor(coils, ramp_ms=cfg["ramp_ms"], dwell_ms=cfg["dwell_ms"],
                             max_steps_per_s=cfg["stepper_steps_per_s"])
    else:
        hz = boards.limits(board)["pwm_motor_hz"]

        def pwm(name):
            return m.PWM(out(name), freq=hz, duty_u16=0)
        stby = out("motor_stby") if pins.get("motor_stby") is not None else None
        if cfg["bridge"] == "tb6612":
            bridge = TB6612(out("motor_in1"), out("motor_in2"), pwm("motor_pwm"), stby)
        else:
            bridge = DRV8833(pwm("motor_in1"), pwm("motor_in2"), stby)
        motor = HBridgeMotor(bridge, ramp_ms=cfg["ramp_ms"], dwell_ms=cfg["dwell_ms"],
                             max_permille=cfg["motor_max_permille"])
    test.add_driver(motor, motor.release)
    from rules.geisteruhr import DEFAULT_LIMITS, validate_limits
    try:
        slow = validate_limits(cfg["limits"])["speed_min"]
    except ValueError:  # the clock reports the bad setting itself
        slow = DEFAULT_LIMITS["speed_min"]

    def turn(permille):
        def start(now):
            motor.wake(now)
            motor.set_speed(permille)
        return start
    # each step ends with motor.stop(): braked, released after the dwell; the driver waits out
    # the dwell before it drives the other way
    if cfg["motor"] == "stepper":
        place = "IN1-IN4 on " + ", ".join(where(board, pins["stepper_in%d" % i]) for i in (1, 2, 3, 4))
    else:
        place = "AIN1 on %s, AIN2 on %s" % (where(board, pins["motor_in1"]), where(board, pins["motor_in2"]))
    test.add_output("motor_cw", "the hand should turn clockwise slowly for 2 s", RUN_MS + cfg["dwell_ms"],
                    place, turn(slow), motor.stop)
    test.add_output("motor_ccw", "the hand should turn anticlockwise slowly for 2 s",
                    RUN_MS + cfg["dwell_ms"], place, turn(-slow), motor.stop)
    if cfg["chime"] == "solenoid":
        from drivers.chime import SolenoidChime
        chime = SolenoidChime(out("solenoid"))
        test.add_driver(chime, chime.silence)
        test.add_output("solenoid", "the solenoid should strike the bell 3 times", 2000,
                        where(board, pins["solenoid"]), lambda now: chime.start(now), chime.silence)
    else:
        _piezo(test, m, pins, "the piezo should beep 3 times")
    _led(test, m, pins, "led", "the LED should blink 3 times")


def _fusebox(test, settings) -> None:
    import boards
    import machine as m
    from drivers.indicator import Indicator
    from drivers.switches import Mcp23017Source, PinSource, mcp23017_pin
    board = settings["board"]
    cfg = settings["fusebox"]
    pins = boards.profile(board, "fusebox")
    _led(test, m, pins, "led_red", "the red LED should blink 3 times")
    _led(test, m, pins, "led_green", "the green LED should blink 3 times")
    _piezo(test, m, pins, "the buzzer should beep 3 times")
    if cfg["relay"]:
        relay = Indicator(m.Pin(pins["relay"], m.Pin.OUT, value=0))
        test.add_driver(relay, relay.off)
        test.add_output("relay", "the relay should click on and, 1 s later, off", RELAY_MS + 200,
                        where(board, pins["relay"]), lambda now: relay.start(now, (RELAY_MS,)), relay.off)
    entries = []
    for i in range(8):
        name = "window%d" % (i + 1)
        if cfg["inputs"] == "mcp23017":
            bit = mcp23017_pin(i)
            place = "MCP23017 GP%s%d" % ("A" if bit < 8 else "B", bit % 8)
        else:
            place = where(board, pins[name])
        entries.append([name, "open window %d, then close it" % (i + 1), place])
    source: object
    if cfg["inputs"] == "mcp23017":
        source = Mcp23017Source(m.I2C(0, sda=m.Pin(pins["i2c_sda"]), scl=m.Pin(pins["i2c_scl"])),
                                cfg["mcp_address"], 8, active_low=True)
    else:
        source = PinSource([m.Pin(pins["window%d" % (i + 1)], m.Pin.IN, m.Pin.PULL_UP) for i in range(8)],
                           active_low=True)
    test.add_inputs(source, entries)
    _buttons(test, m, board, pins, [("btn_next", "NEXT"), ("btn_prev", "PREV"), ("btn_bolt", "BOLT")])


def _football(test, settings) -> None:
    import boards
    import machine as m
    board = settings["board"]
    pins = boards.profile(board, "football")
    _piezo(test, m, pins, "the piezo should beep 3 times")
    if settings.get("football", {}).get("display", "oled") == "leds":
        for name, what in (("led_home", "home"), ("led_away", "away"), ("led_kick", "kick"),
                           ("led_down1", "1st down"), ("led_down2", "2nd down"), ("led_down3", "3rd down"),
                           ("led_down4", "4th down")):
            _led(test, m, pins, name, "the %s LED should blink 3 times" % what)
    _led(test, m, pins, "led", "the board's LED should blink 3 times")
    _buttons(test, m, board, pins, [("btn_roll", "ROLL"), ("btn_kick", "KICK"), ("btn_good", "GOOD"),
                                    ("btn_miss", "MISS")])


BUILDERS = {"clock": _clock, "fusebox": _fusebox, "football": _football}
