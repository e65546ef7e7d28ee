"""Driver scenarios on the virtual board (MicroPython only, through the `vboard_process` fixture).

Each builds one driver on fresh vboard pins, plays a script in virtual
milliseconds and returns what came out, for the pytest side to judge.
"""
import vboard
from drivers.battery import Battery
from drivers.chime import PiezoChime, SolenoidChime
from drivers.indicator import Indicator
from drivers.switches import Mcp23017Source, PinSource, Switches, event_index, event_kind
from machine import ADC, I2C, PWM, Pin


def _events(switches, t, out):
    while switches.pending():
        e = switches.pop()
        out.append([t, event_index(e), event_kind(e)])


def switch_events(count, script, debounce_ms, long_press_ms, until_ms, active_low=True):
    """Scan `count` GPIO inputs every ms; script = [[t, input, level], ...] raw pin levels.

    Returns [[t, index, kind], ...] with kind 0 released, 1 pressed, 2 long.
    """
    board = vboard.new_board(0, 1000)
    pins = [Pin(n, Pin.IN, Pin.PULL_UP if active_low else Pin.PULL_DOWN) for n in range(count)]
    switches = Switches(PinSource(pins, active_low), count, debounce_ms, long_press_ms)
    script = sorted(script)
    out = []
    t = 0
    k = 0
    while t <= until_ms:
        while k < len(script) and script[k][0] <= t:
            board.set_input(script[k][1], script[k][2])
            k += 1
        switches.update(t)
        _events(switches, t, out)
        t += 1
    return out


class FakeMcp23017:
    """Just the registers the source reads: GPPU at 0x0C/0x0D and GPIOA/GPIOB at 0x12/0x13, in
    one sequential read from 0x0C; every pin level as the script says, GPA7/GPB7 included (the
    whole chip model is vboard/fake_mcp23017.py)."""

    def __init__(self):
        self.levels = 0xFFFF  # pulled up, nothing pressed
        self.pullups = 0

    def readfrom_mem_into(self, reg, buf):
        if reg != 0x0C or len(buf) != 8:
            raise OSError(5)
        buf[0] = self.pullups & 0xFF
        buf[1] = self.pullups >> 8
        buf[6] = self.levels & 0xFF
        buf[7] = self.levels >> 8

    def writeto_mem(self, reg, data):
        if reg == 0x0C:
            self.pullups = data[0] | (data[1] << 8)


def mcp23017_events(script, until_ms):
    """Like switch_events, through a (fake) MCP23017 on I2C: script = [[t, levels16], ...]."""
    board = vboard.new_board(0, 1000)
    chip = FakeMcp23017()
    board.i2c_devices[0x20] = chip
    source = Mcp23017Source(I2C(0), 0x20, 14)
    source.enable_pullups()
    switches = Switches(source, 14, 10, 0)
    out = []
    t = 0
    k = 0
    while t <= until_ms:
        while k < len(script) and script[k][0] <= t:
            chip.levels = script[k][1]
            k += 1
        switches.update(t)
        _events(switches, t, out)
        t += 1
    return {"events": out, "pullups": chip.pullups}


def _on_periods(log, name, on):
    """[[start, length], ...] of the times `name` was at a value satisfying on(value)."""
    periods = []
    start = None
    for t, signal, value in log:
        if signal != name:
            continue
        if on(value) and start is None:
            start = t
        elif not on(value) and start is not None:
            periods.append([start, t - start])
            start = None
    if start is not None:
        periods.append([start, -1])
    return periods


def solenoid_pulses(pulse_ms, gap_ms, strikes, tick_ms):
    """Strike pulses (start, length) of a SolenoidChime asked for pulse_ms."""
    board = vboard.new_board(0, 1000)
    chime = SolenoidChime(Pin(20, Pin.OUT), strikes=strikes, pulse_ms=pulse_ms, gap_ms=gap_ms)
    chime.start(0)
    t = 0
    while chime.busy and t < 60000:
        t += tick_ms
        board.clock.elapsed = t
        chime.update(t)
    return {"pulses": _on_periods(board.log(), "20", lambda v: v == 1), "done_at": t, "busy": chime.busy}


def piezo_melody(melody, tick_ms):
    """(freq, start, length) of each sounding note of a PiezoChime, and the PWM objects made."""
    board = vboard.new_board(0, 1000)
    pwm = PWM(Pin(15), freq=1000, duty_u16=0)
    chime = PiezoChime(pwm, tuple(melody))
    outputs_before = len(board.outputs)
    chime.start(0)
    t = 0
    while chime.busy and t < 60000:
        t += tick_ms
        board.clock.elapsed = t
        chime.update(t)
    log = board.log()
    notes = []
    freq = 0
    sounding = None
    for when, signal, value in log:
        if signal == "15.freq":
            freq = value
        elif signal == "15.duty":
            if value > 0 and sounding is None:
                sounding = [freq, when]
            elif value == 0 and sounding is not None:
                notes.append([sounding[0], sounding[1], when - sounding[1]])
                sounding = None
            elif value > 0:
                notes.append([sounding[0], sounding[1], when - sounding[1]])
                sounding = [freq, when]
    return {"notes": notes, "new_outputs": len(board.outputs) - outputs_before,
            "final_duty": pwm.duty_u16(), "done_at": t}


def battery_reading(pack_mv, full_mv, divider_permille, use_uv=False, chip_full_mv=0):
    """Battery.read_mv() with `pack_mv` at the pack (the pin sees pack_mv / divider).

    chip_full_mv: this chip's real read_u16 full scale, when it differs from the one the driver assumes.
    """
    board = vboard.new_board(0, 100)
    board.adc_full_mv = chip_full_mv or full_mv
    board.set_adc_mv(26, pack_mv * 1000 // divider_permille)
    battery = Battery(ADC(Pin(26)), full_mv=full_mv, divider_permille=divider_permille, use_uv=use_uv)
    return {"mv": battery.read_mv(), "ok_3600": battery.ok(3600), "ok_0": battery.ok(0)}


def indicator_pattern(pattern, tick_ms):
    """On-periods of an Indicator playing `pattern` once."""
    board = vboard.new_board(0, 1000)
    led = Indicator(Pin(25, Pin.OUT))
    led.start(0, tuple(pattern))
    t = 0
    while led.busy and t < 60000:
        t += tick_ms
        board.clock.elapsed = t
        led.update(t)
    return _on_periods(board.log(), "25", lambda v: v == 1)


def stepper_angles(positions):
    """The hand model's angle (millidegrees) of a 28BYJ-48 standing at each half-step position."""
    import physics
    hand = physics.StepperHand(vboard.new_board(0, 10), (2, 3, 4, 5))
    out = []
    for position in positions:
        hand.position = position
        out.append(hand.angle_mdeg())
    return out


def motor_script(kind, script, until_ms, tick_ms, options):
    """Drive one motor (drv8833, tb6612, stepper) through script = [[t, speed or "stop"/"release"], ...].

    Returns the hand model's figures, the pin log and the applied speed per tick.
    """
    import physics
    from drivers.bridge import DRV8833, TB6612
    from drivers.motor import HBridgeMotor, StepperMotor
    board = vboard.new_board(0, 100000)
    ramp = options.get("ramp_ms", 120)
    dwell = options.get("dwell_ms", 150)
    if kind == "stepper":
        hand = physics.StepperHand(board, (2, 3, 4, 5), dwell_ms=dwell)
        motor = StepperMotor([Pin(n, Pin.OUT) for n in (2, 3, 4, 5)], ramp, dwell,
                             options.get("max_steps_per_s", 300))
    elif kind == "tb6612":
        hand = physics.HBridgeHand(board, "tb6612", 16, 17, 18, 19, dwell_ms=dwell)
        motor = HBridgeMotor(TB6612(Pin(16, Pin.OUT), Pin(17, Pin.OUT), PWM(Pin(18)), Pin(19, Pin.OUT)),
                             ramp, dwell, options.get("max_permille", 1000))
    else:
        hand = physics.HBridgeHand(board, "drv8833", 16, 17, None, 19, dwell_ms=dwell)
        motor = HBridgeMotor(DRV8833(PWM(Pin(16)), PWM(Pin(17)), Pin(19, Pin.OUT)),
                             ramp, dwell, options.get("max_permille", 1000))
    speeds = []
    t = 0
    k = 0
    motor.update(0)
    while t <= until_ms:
        while k < len(script) and script[k][0] <= t:
            board.clock.elapsed = script[k][0]  # an action lands between ticks, at its own time
            action = script[k][1]
            if action == "stop":
                motor.stop()
            elif action == "release":
                motor.release()
            else:
                motor.set_speed(action)
            k += 1
        board.clock.elapsed = t
        motor.update(t)
        speeds.append(motor.speed)
        t += tick_ms
    hand.settle()
    return {"forbidden": hand.forbidden, "quick_reversals": hand.quick_reversals,
            "reversals": hand.reversals, "min_reverse_gap": hand.min_reverse_gap,
            "energised": hand.energised, "motor_energised": motor.energised,
            "angle_mdeg": hand.angle_mdeg(), "speeds": speeds, "log": board.log(),
            "position": getattr(motor, "position", None), "skipped": getattr(hand, "skipped", 0)}


def physics_catches_bad_driving(kind):
    """Drive the bridge pins by hand, badly: the hand model must count every violation.

    drv8833: both inputs at partial duty; tb6612: direction flipped under
    power; both: a reversal with only 20 ms standing (dwell 150).
    """
    import physics
    board = vboard.new_board(0, 1000)
    if kind == "drv8833":
        hand = physics.HBridgeHand(board, "drv8833", 16, 17, None, None, dwell_ms=150)
        a, b = PWM(Pin(16)), PWM(Pin(17))
        a.duty_u16(65535)          # forward at full
        board.clock.elapsed = 100
        a.duty_u16(30000)
        b.duty_u16(20000)          # both sides at partial duty: forbidden
        board.clock.elapsed = 200
        b.duty_u16(65535)          # now reverse (slow decay): 100 ms after forward drive, too soon
        a.duty_u16(0)
        board.clock.elapsed = 300
        b.duty_u16(0)
    else:
        hand = physics.HBridgeHand(board, "tb6612", 16, 17, 18, 19, dwell_ms=150)
        in1, in2, pwm, stby = Pin(16, Pin.OUT), Pin(17, Pin.OUT), PWM(Pin(18)), Pin(19, Pin.OUT)
        stby.value(1)
        in1.value(1)
        in2.value(0)
        pwm.duty_u16(40000)
        board.clock.elapsed = 100
        in1.value(0)               # under power: forbidden
        in2.value(1)               # and a reversal with no standing time
        board.clock.elapsed = 200
        pwm.duty_u16(0)
    hand.settle()
    return {"forbidden": hand.forbidden, "quick_reversals": hand.quick_reversals,
            "reversals": hand.reversals, "first_forbidden_ms": hand.first_forbidden_ms}
