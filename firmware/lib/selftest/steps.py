"""The self-test's steps for each prop: the outputs to run and the inputs to follow (see selftest.py).

BUILDERS[prop](test, settings) builds the prop's drivers with the prop's own wiring
module (props.clock.wiring, ...: the drivers, pins and guards the prop's build()
uses) and adds them to the selftest.session.Session `test`.
"""
from micropython import const

RUN_MS = const(2000)        # how long the motor runs each way
BLINKS = (300, 300, 300, 300, 300, 300)  # three blinks
RELAY_MS = const(1000)
# The motor step's speed (per mille) when the round's speed_min is slower: the N20 model
# (host_tools/propctl/vboard/dcmotor.py, slow decay) breaks away at about 267, so 450 starts a
# real motor with a margin (tests/test_motor_model.py).
MOTOR_PERMILLE = const(450)


def where(board: str, gpio) -> str:
    """A pin as the builder finds it: "GP9 (pin 12)", "GPIO 17 (pin J3-11)", "LED (on the board)"."""
    import boardprofiles
    if type(gpio) is not int:
        return "%s (on the board)" % gpio
    name = ("GP%d" if board.startswith("pico") else "GPIO %d") % gpio
    header = boardprofiles.header_pin(board, gpio)
    return name + (" (on the board)" if header == "-" else " (pin %s)" % header)


def _led(test, pins, signal: str, prompt: str) -> None:
    led = pins.led(signal)
    if led is None:
        return
    test.add_driver(led, led.off)
    test.add_output(signal, prompt, 2000, where(test.board, pins.names[signal]),
                    lambda now: led.start(now, BLINKS), led.off)


# What each sound of a prop's SOUNDS table is, for the person listening.
SOUND_WORDS = {
    "bell": "the bell: 3 strikes, each high then low",
    "alarm": "the low-battery alarm: low double beeps",
    "blown": "the blown fuse: a falling buzz",
    "click": "the safe window: one short tick",
    "wrong": "the refused card: a low double beep",
    "go": "the start of the count: one high beep",
    "beat": "a beat of the count: one short beep",
    "end": "the end of the count: one long low beep",
    "refused": "a refused button: one short low beep",
}


def _length(melody) -> int:
    ms = 0
    i = 1
    while i < len(melody):
        ms += melody[i]
        i += 2
    return ms


def _piezo(test, pins, part: str, sounds) -> None:
    """One step per sound of the prop (its SOUNDS table), each played on the piezo."""
    chime = pins.piezo()
    test.add_driver(chime, chime.silence)
    place = where(test.board, pins.names["piezo"])
    for name, melody in sounds:
        test.add_output("piezo_" + name, "the %s should play %s" % (part, SOUND_WORDS[name]),
                        _length(melody) + 300, place, _play(chime, melody), chime.silence)


def _play(chime, melody):
    return lambda now: chime.start(now, melody)


def _buttons(test, pins, labels, source=None) -> None:
    """Buttons [(pin name, label on the box)], read through `source` (default: their own pins)."""
    names = [name for name, _ in labels]
    test.add_inputs(source or pins.buttons(names), [
        [n, "press the %s button" % label, where(pins.board, pins.names[n])] for n, label in labels])


def _motor_words(board: str, pins, cfg) -> tuple:
    """(the motor's pins for a person, what else to check) for the clock's motor step."""
    names = pins.names
    if cfg["motor"] == "stepper":
        from props.clock.wiring import STEPPER_PINS
        place = "IN1-IN4 on " + ", ".join(where(board, names[n]) for n in STEPPER_PINS)
        return place, "is the ULN2003 powered (the battery pack's + at its + pin)?"
    place = "AIN1 on %s, AIN2 on %s" % (where(board, names["motor_in1"]), where(board, names["motor_in2"]))
    if cfg["bridge"] == "tb6612":
        place += ", PWMA on %s" % where(board, names["motor_pwm"])
        chip, sleep = "TB6612", "STBY"
    else:
        chip, sleep = "DRV8833", "nSLEEP (EEP)"
    if pins.has("motor_stby"):
        place += ", %s on %s" % (sleep, where(board, names["motor_stby"]))
    check = "is VM powered (the battery pack's + at the %s's VM pin)?" % chip
    if chip == "DRV8833":  # the hint for a motor that hums but stands: the decay mode
        check += (" if it hums but does not turn: this firmware drives the DRV8833 in slow decay"
                  " (one input held high), which starts an N20 at this speed; fast decay (one"
                  " input held low) would only hum. Free the gearbox or raise speed_min")
    else:
        check += " if it hums but does not turn: free the gearbox or raise speed_min"
    return place, check


def _slowest(cfg) -> int:
    """The round's slowest speed (per mille): slower stalls a geared motor."""
    from rules.geisteruhr import DEFAULT_LIMITS, validate_limits
    try:
        return validate_limits(cfg["limits"])["speed_min"]
    except ValueError:  # the clock reports the bad setting itself
        return DEFAULT_LIMITS["speed_min"]


def motor_permille(cfg) -> int:
    """The motor step's speed: the round's slowest, but never below MOTOR_PERMILLE."""
    slow = _slowest(cfg)
    return slow if slow > MOTOR_PERMILLE else MOTOR_PERMILLE


def _clock(test, settings) -> None:
    import machine
    from props.clock.wiring import ClockWiring
    wiring = ClockWiring(machine, settings)
    board, cfg, pins = settings["board"], wiring.cfg, wiring.pins
    _buttons(test, pins, [("button", "start")])
    motor = wiring.motor()  # the clock's own: voltage-compensated to motor_rated_mv, same guards
    place, check = _motor_words(board, pins, cfg)
    test.add_driver(motor, motor.release)
    test.battery = wiring.battery()
    slow = motor_permille(cfg)

    def turn(permille):
        def start(now):
            if test.battery is not None:  # compensated as in a round: the pack as it is now
                from drivers.battery import motor_supply_mv
                motor.set_supply_mv(motor_supply_mv(test.battery.read_mv(), cfg["supply_mv"]))
            motor.wake(now)
            motor.set_speed(permille)
        return start
    # each step ends with motor.stop(): braked, released after the dwell; the driver waits out
    # the dwell before it drives the other way
    test.add_output("motor_cw", "the hand should turn clockwise slowly for 2 s", RUN_MS + cfg["dwell_ms"],
                    place, turn(slow), motor.stop, check=check, pack=True)
    test.add_output("motor_ccw", "the hand should turn anticlockwise slowly for 2 s",
                    RUN_MS + cfg["dwell_ms"], place, turn(-slow), motor.stop, check=check, pack=True)
    if cfg["chime"] == "solenoid":
        chime = wiring.chime()
        test.add_driver(chime, chime.silence)
        test.add_output("solenoid", "the solenoid should strike the bell 3 times", 2000,
                        where(board, pins.names["solenoid"]), lambda now: chime.start(now), chime.silence,
                        check="is the solenoid powered (the battery pack's + at the solenoid)?",
                        pack=True)
    else:
        from drivers.chime import CLOCK_SOUNDS
        _piezo(test, pins, "piezo", CLOCK_SOUNDS)
    _led(test, pins, "led", "the LED should blink 3 times")


def _fusebox(test, settings) -> None:
    import machine
    from props.fusebox.wiring import SOUNDS, FuseBoxWiring
    wiring = FuseBoxWiring(machine, settings)
    pins = wiring.pins
    _led(test, pins, "led_red", "the red LED should blink 3 times")
    _led(test, pins, "led_green", "the green LED should blink 3 times")
    _piezo(test, pins, "buzzer", SOUNDS)
    relay = wiring.relay()
    if relay is not None:
        test.add_driver(relay, relay.off)
        test.add_output("relay", "the relay should click on and, 1 s later, off", RELAY_MS + 200,
                        where(pins.board, pins.names["relay"]), lambda now: relay.start(now, (RELAY_MS,)),
                        relay.off)
    test.add_inputs(wiring.windows(), [
        ["window%d" % (i + 1), "open window %d, then close it" % (i + 1), wiring.window_place(i, where)]
        for i in range(8)])
    _buttons(test, pins, [("btn_next", "NEXT"), ("btn_prev", "PREV"), ("btn_bolt", "BOLT")],
             wiring.buttons())


def _football(test, settings) -> None:
    import machine
    from props.football.wiring import SCOREBOARD_LEDS, SOUNDS, FootballWiring
    wiring = FootballWiring(machine, settings)
    pins = wiring.pins
    _piezo(test, pins, "piezo", SOUNDS)
    if wiring.leds_asked_for():
        for name, what in SCOREBOARD_LEDS:
            _led(test, pins, name, "the %s LED should blink 3 times" % what)
    _led(test, pins, "led", "the board's LED should blink 3 times")
    _buttons(test, pins, [("btn_roll", "ROLL"), ("btn_kick", "KICK"), ("btn_good", "GOOD"),
                          ("btn_miss", "MISS")], wiring.buttons())


BUILDERS = {"clock": _clock, "fusebox": _fusebox, "football": _football}
