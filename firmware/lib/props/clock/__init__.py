"""The ghost clock: idle -> button -> hand runs the planned round -> stop -> chime -> idle.

ClockApp (props.clock.app) is a tickable state machine: `tick(now_ms)` with an injected time
does all the work (switch scan, plan, motor, chime). The board runs it in
runtime.Runtime, which wakes it at `wait_ms(now)` (the planned stop to the
millisecond); the tests run a whole round through the same Runtime in
virtual time (vboard.Board.run):

    app = build(settings, on_event)       # drivers from machine pins of the board profile
    Runtime(app, wdt=...).run()           # motor released on any exit

Methods the link's commands use: `start_round(seed=None)`, `emergency_stop()`,
`snapshot()`; `commands()` is the link's table (props.clock.game: these plus
the saved game). Events go to `on_event(name, fields)`: button, start, reverse,
stop, chime, estop, fault, battery_low, idle. The fields dict of each event
name is allocated once and reused (a tick must not allocate): copy it to keep it.

Safety: the motor is braked when the round ends and released after the
dwell, released at once on any exception (which is re-raised) and on
shutdown; a round never runs longer than HARD_MAX_RUN_MS, whatever the plan,
settings or board say; a watchdog resets a hung board (the bridge inputs
are pulled low on reset, so the motor coasts). A long press while the hand
turns is an emergency stop; short presses while it turns are ignored.
"""
# The clock's logic lives in props.clock.app; its names stay importable from here
# (the prop contract is this module).
from props.clock.app import CHIMING, FAULT, HARD_MAX_RUN_MS, IDLE, RUNNING, STATE_FILE, ClockApp, print_event  # noqa: F401


def build(settings, on_event=None, store=None, **app_options) -> ClockApp:
    """A ClockApp with drivers on the pins of settings["board"]'s clock profile (the prop contract).

    store: a store.Store for the game (None: nothing saved). Extra keyword
    options go to ClockApp (planner, entropy, ...).
    """
    import boards
    import machine as m
    from drivers.battery import Battery
    from drivers.chime import PiezoChime, SolenoidChime
    from drivers.indicator import Indicator
    from drivers.motor import DRV8833, TB6612, HBridgeMotor, StepperMotor
    from drivers.switches import PinSource, Switches
    cfg = settings["clock"]
    pins = boards.profile(settings["board"], "clock")
    limits = boards.limits(settings["board"])

    def out(name):
        return m.Pin(pins[name], m.Pin.OUT, value=0)

    def pwm(name, freq):
        return m.PWM(m.Pin(pins[name], m.Pin.OUT, value=0), freq=freq, duty_u16=0)

    button = m.Pin(pins["button"], m.Pin.IN, m.Pin.PULL_UP)
    switches = Switches(PinSource([button], active_low=True), 1,
                        debounce_ms=cfg["debounce_ms"], long_press_ms=cfg["long_press_ms"])
    motor: object
    bridge: object
    chime: object
    notes = []
    if cfg["motor"] == "stepper":
        coils = [out("stepper_in1"), out("stepper_in2"), out("stepper_in3"), out("stepper_in4")]
        rate = cfg["stepper_steps_per_s"]
        if rate < 1 or rate > 1000:  # the driver refuses these: keep the clock running
            notes.append("clock.stepper_steps_per_s: %d is not 1..1000; using 300" % rate)
            rate = 300
        motor = StepperMotor(coils, ramp_ms=cfg["ramp_ms"], dwell_ms=cfg["dwell_ms"], max_steps_per_s=rate)
    else:
        hz = limits["pwm_motor_hz"]
        stby = out("motor_stby") if pins.get("motor_stby") is not None else None
        if cfg["bridge"] == "tb6612":
            bridge = TB6612(out("motor_in1"), out("motor_in2"), pwm("motor_pwm", hz), stby)
        else:
            bridge = DRV8833(pwm("motor_in1", hz), pwm("motor_in2", hz), stby)
        motor = HBridgeMotor(bridge, ramp_ms=cfg["ramp_ms"], dwell_ms=cfg["dwell_ms"],
                             max_permille=cfg["motor_max_permille"])
    if cfg["chime"] == "solenoid":
        chime = SolenoidChime(out("solenoid"))
    else:
        chime = PiezoChime(pwm("piezo", 1000))
    battery = None
    if cfg["battery_min_mv"] > 0 and pins.get("battery_adc") is not None:
        atten = getattr(m.ADC, "ATTN_11DB", None)
        adc_pin = m.Pin(pins["battery_adc"])
        adc = m.ADC(adc_pin, atten=atten) if atten is not None else m.ADC(adc_pin)
        divider = cfg["battery_divider_permille"]
        if divider < 1000:  # the driver refuses these: keep the clock running
            notes.append("clock.battery_divider_permille: %d is below 1000; using 2000" % divider)
            divider = 2000
        battery = Battery(adc, full_mv=limits["adc_full_mv"], divider_permille=divider,
                          use_uv=limits["adc_read_uv"])
    indicator = Indicator(out("led")) if pins.get("led") is not None else None
    app = ClockApp(motor, switches, chime, settings, on_event, battery=battery, indicator=indicator,
                   max_run_ms=limits["max_run_ms"], store=store, **app_options)
    app.config_errors.extend(notes)
    return app
