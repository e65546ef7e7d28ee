"""The wiring self-test: each output in turn, each input live, driven by `propctl selftest`.

    app = selftest.wrap(app, settings, on_event)   # link.board wraps every prop's app

The wrapper runs the prop as before and adds four link commands:
    selftest_begin()        stop the prop (app.shutdown(), no more prop ticks) and build the
                            test's own drivers on the profile's pins; returns the steps:
                            {"outputs": [[name, prompt, ms], ...], "inputs": [[name, prompt, where], ...]}
    selftest_output(name)   start one output step (event selftest_done {"name"} when it is over)
    selftest_inputs()       {"active": [0/1 per input], "changes": [count per input since the
                            last call]}: inputs are sampled every tick, so a short press is not missed
    selftest_end()          everything off, then the board resets and the prop starts afresh

Outputs go through the same drivers the props use, with the same settings:
the motor keeps its ramp, its brake-then-dwell before a reversal and its
release after a stop (drivers.motor), at the round's slowest speed
(`speed_min` of the clock's motion limits: slower stalls a geared motor) and
never longer than the step (RUN_MS); the solenoid's pulse is capped by drivers.chime. No step
can run on after the link goes quiet: each ends on its own time.
"""
from time import ticks_add, ticks_diff

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


class _Step:
    def __init__(self, name: str, prompt: str, ms: int, place: str, start, stop=None) -> None:
        self.name = name
        self.place = place
        self.prompt = prompt
        self.ms = ms
        self.start = start
        self.stop = stop


class SelfTest:
    """Wraps a prop's app (tick, tick_ms, shutdown, commands, wait_ms) and adds the self-test."""

    def __init__(self, app, settings, on_event) -> None:
        self.app = app
        self.tick_ms = app.tick_ms
        self._settings = settings
        self.board = settings["board"]
        self._on_event = on_event
        self.active = False
        self._steps: list = []
        self._inputs: list = []   # [name, prompt, where]
        self._sources: list = []  # (source with read() -> bitmap, first input index, count)
        self._drivers: list = []  # things with update(now)
        self._off: list = []      # things to call at the end: release(), silence(), off()
        self._active_bits = 0
        self._changes: list = []
        self._step = None
        self._until = 0
        self._now = 0
        self._ticked = False
        self._done = {"name": ""}
        if hasattr(app, "wait_ms"):
            self.wait_ms = self._wait_ms
        self.config_errors = getattr(app, "config_errors", [])

    # --- the prop contract -------------------------------------------
    def tick(self, now: int) -> None:
        self._now = now
        self._ticked = True
        if not self.active:
            self.app.tick(now)
            return
        self._sample()
        for driver in self._drivers:
            driver.update(now)
        step = self._step
        if step is not None and ticks_diff(now, self._until) >= 0:
            self._step = None
            if step.stop is not None:
                step.stop()
            self._done["name"] = step.name
            self._on_event("selftest_done", self._done)

    def _wait_ms(self, now: int) -> int:
        return self.tick_ms if self.active else self.app.wait_ms(now)

    def shutdown(self) -> None:
        self._all_off()
        self.app.shutdown()

    def commands(self) -> dict:
        table = dict(self.app.commands())
        table["selftest_begin"] = (self.begin, {})
        table["selftest_output"] = (self.output, {"name": "str"})
        table["selftest_inputs"] = (self.inputs, {})
        table["selftest_end"] = (self.end, {})
        return table

    # --- commands ------------------------------------------------------
    def begin(self) -> dict:
        """Stop the prop and build the test's drivers; the list of steps."""
        if not self._ticked:
            raise ValueError("the board is still starting up: try again in a moment")
        if not self.active:
            self.app.shutdown()
            build = _BUILDERS.get(self._settings["prop"])
            if build is None:
                raise ValueError("no self-test for the %s prop" % self._settings["prop"])
            build(self, self._settings)
            self._changes = [0] * len(self._inputs)
            self._active_bits = self._read()
            self.active = True
        return {"outputs": [[s.name, s.prompt, s.ms, s.place] for s in self._steps],
                "inputs": [list(i) for i in self._inputs]}

    def output(self, name: str) -> dict:
        """Start one output step."""
        if not self.active:
            raise ValueError("start the self-test first (selftest_begin)")
        if self._step is not None:
            raise ValueError("step %s is still running" % self._step.name)
        for step in self._steps:
            if step.name == name:
                step.start(self._now)
                self._step = step
                self._until = ticks_add(self._now, step.ms)  # type: ignore[type-var]
                return {"ms": step.ms}
        raise ValueError("no output step %r (steps: %s)" % (name, ", ".join(s.name for s in self._steps)))

    def inputs(self) -> dict:
        """Each input's state now (1 = active: pressed, or sensor closed) and its changes since last asked."""
        if not self.active:
            raise ValueError("start the self-test first (selftest_begin)")
        bits = self._active_bits
        changes = list(self._changes)
        for i in range(len(self._changes)):
            self._changes[i] = 0
        return {"active": [(bits >> i) & 1 for i in range(len(changes))], "changes": changes}

    def end(self) -> dict:
        """Everything off; the board resets so the prop starts afresh."""
        self._all_off()
        self._on_event("resetting", {"why": "self-test over"})
        import machine
        machine.reset()
        return {}

    # --- helpers for the builders --------------------------------------
    def add_output(self, name: str, prompt: str, ms: int, place: str, start, stop=None) -> None:
        self._steps.append(_Step(name, prompt, ms, place, start, stop))

    def add_driver(self, driver, off) -> None:
        self._drivers.append(driver)
        self._off.append(off)

    def add_inputs(self, source, entries: list) -> None:
        """A source (read() -> bitmap, bit i active) and its inputs' [name, prompt, where] entries."""
        self._sources.append((source, len(self._inputs), len(entries)))
        self._inputs.extend(entries)

    def _read(self) -> int:
        bits = 0
        for source, first, _ in self._sources:
            bits |= source.read() << first
        return bits

    def _sample(self) -> None:
        bits = self._read()
        changed = bits ^ self._active_bits
        if changed:
            i = 0
            while changed:
                if changed & 1:
                    self._changes[i] += 1
                changed >>= 1
                i += 1
            self._active_bits = bits

    def _all_off(self) -> None:
        self._step = None
        for off in self._off:
            off()


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


_BUILDERS = {"clock": _clock, "fusebox": _fusebox, "football": _football}


def wrap(app, settings, on_event) -> SelfTest:
    """The prop's app with the self-test commands (see the module docstring)."""
    return SelfTest(app, settings, on_event)
