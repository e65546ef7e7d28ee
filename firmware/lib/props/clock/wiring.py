"""The clock's wiring: which driver each of its signals gets, on which pins, with which limits.

One place for both users, props.clock.build (the prop) and props.clock.selftest_steps (the
wiring self-test): a self-test turns the motor, strikes the chime and reads the
battery exactly as a round does, with the same guards against a value a driver
would refuse (the settings' schema refuses those already; a guard keeps the
clock running should one get past it, and says so in `notes`).

    wiring = ClockWiring(machine, settings)
    motor = wiring.motor()        # StepperMotor (ULN2003), or HBridgeMotor on a TB6612 / DRV8833
    chime = wiring.chime()        # SolenoidChime or PiezoChime (its bell)
    battery = wiring.battery()    # drivers.battery.Battery on the divider, None without one
    wiring.notes                  # config errors for the settings a guard replaced
"""
from props.pins import Pins

STEPPER_PINS = ("stepper_in1", "stepper_in2", "stepper_in3", "stepper_in4")
# What the guards use instead of a value the driver refuses.
STEPPER_RATE = 300


def divider_permille(cfg: dict, limits: dict) -> int:
    """The battery divider in use: clock.battery_divider_permille, or (0, the default) the one
    the board's wiring table wires (boardprofiles LIMITS: 100k/100k, on an ESP32 100k over 47k)."""
    return cfg["battery_divider_permille"] or limits["battery_divider_permille"]


class ClockWiring:
    """The clock's drivers from settings["board"]'s clock profile and settings["clock"]."""

    def __init__(self, machine, settings) -> None:
        self.cfg = settings["clock"]
        self.pins = Pins(machine, settings["board"], "clock")
        self.notes: list = []

    def motor(self):
        """The hand's motor with the clock's ramp, dwell and limits (drivers.motor)."""
        from drivers.motor import HBridgeMotor, StepperMotor
        cfg, pins = self.cfg, self.pins
        if cfg["motor"] == "stepper":
            rate = cfg["stepper_steps_per_s"]
            if rate < 1 or rate > 1000:  # the driver refuses these: keep the clock running
                self.notes.append("clock.stepper_steps_per_s: %d is not 1..1000; using %d"
                                  % (rate, STEPPER_RATE))
                rate = STEPPER_RATE
            return StepperMotor([pins.out(name) for name in STEPPER_PINS], ramp_ms=cfg["ramp_ms"],
                                dwell_ms=cfg["dwell_ms"], max_steps_per_s=rate)
        from drivers.bridge import DRV8833, TB6612
        hz = pins.limits["pwm_motor_hz"]
        stby = pins.out("motor_stby") if pins.has("motor_stby") else None
        if cfg["bridge"] == "tb6612":
            bridge: object = TB6612(pins.out("motor_in1"), pins.out("motor_in2"),
                                    pins.pwm("motor_pwm", hz), stby)
        else:
            bridge = DRV8833(pins.pwm("motor_in1", hz), pins.pwm("motor_in2", hz), stby)
        # speed 1000 is the motor's rated voltage: on supply_mv until the pack is read (the
        # fresh pack's voltage by default, so the motor is never over-driven)
        return HBridgeMotor(bridge, ramp_ms=cfg["ramp_ms"], dwell_ms=cfg["dwell_ms"],
                            max_permille=cfg["motor_max_permille"], rated_mv=cfg["motor_rated_mv"],
                            supply_mv=cfg["supply_mv"])

    def chime(self):
        if self.cfg["chime"] == "solenoid":
            from drivers.chime import SolenoidChime
            return SolenoidChime(self.pins.out("solenoid"))
        return self.pins.piezo()

    def battery(self):
        """The pack's voltage through the divider; None when it is not wired or not used."""
        cfg, pins = self.cfg, self.pins
        if cfg["battery_min_mv"] <= 0 or not pins.has("battery_adc"):
            return None
        from drivers.battery import on_pin
        divider = divider_permille(cfg, pins.limits)
        if divider < 1000:  # the driver refuses these: keep the clock running
            self.notes.append("clock.battery_divider_permille: %d is below 1000; using the board's %d"
                              % (divider, pins.limits["battery_divider_permille"]))
            divider = pins.limits["battery_divider_permille"]
        return on_pin(pins.machine, pins.names["battery_adc"], divider, pins.limits)
