"""The ghost clock's self-test steps: the motor each way, the chime, the LED, the start button.

build(test, settings) makes the clock's drivers with its own wiring module (props.clock.wiring:
the drivers, pins and guards build() uses) and adds them to the selftest.session.Session
`test`, with the step helpers of selftest.steps. Imported by name (selftest.session) only
when the self-test begins.
"""
from micropython import const
from selftest.steps import add_buttons, add_led, add_piezo, where

RUN_MS = const(2000)        # how long the motor runs each way
# The motor step's speed (per mille) when the round's speed_min is slower: the N20 model
# (host_tools/propctl/vboard/dcmotor.py, slow decay) breaks away at about 267, so 450 starts a
# real motor with a margin (tests/clock/test_motor_model.py).
MOTOR_PERMILLE = const(450)
# What each sound of the clock's SOUNDS table (drivers.chime.CLOCK_SOUNDS) is, for the listener.
SOUND_WORDS = {
    "bell": "the bell: 3 strikes, each high then low",
    "alarm": "the low-battery alarm: low double beeps",
}


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


def build(test, settings) -> None:
    import machine

    from props.clock.wiring import ClockWiring
    wiring = ClockWiring(machine, settings)
    board, cfg, pins = settings["board"], wiring.cfg, wiring.pins
    add_buttons(test, pins, [("button", "start")])
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
        add_piezo(test, pins, "piezo", CLOCK_SOUNDS, SOUND_WORDS)
    add_led(test, pins, "led", "the LED should blink 3 times")
