"""The N20 motor model (vboard/dcmotor.py, in vboard/physics.py's HBridgeHand) driven by the
real bridge driver and by hand.

MicroPython only, through the `vboard_process` fixture.
"""
import vboard
from machine import PWM, Pin


def firmware_drive(speed, pack_mv, run_ms, freq_hz=20000):
    """The clock's motor (drivers.motor.HBridgeMotor on drivers.bridge.DRV8833, compensated to
    3000 mV on a pack of pack_mv) asked for `speed` per mille for run_ms; what the N20 did."""
    import physics
    from drivers.bridge import DRV8833
    from drivers.motor import HBridgeMotor
    board = vboard.new_board(0, 100000)
    board.set_battery_mv(pack_mv)
    hand = physics.HBridgeHand(board, "drv8833", 16, 17, None, 19, deg_per_s=120, dwell_ms=150)
    motor = HBridgeMotor(DRV8833(PWM(Pin(16), freq=freq_hz), PWM(Pin(17), freq=freq_hz), Pin(19, Pin.OUT)),
                         120, 150, 1000, rated_mv=3000, supply_mv=pack_mv)
    t = 0
    motor.wake(0)
    motor.update(0)
    motor.set_speed(speed)
    while t < run_ms:
        t += 10
        board.clock.elapsed = t
        motor.update(t)
    hand.settle()
    out = {"angle_mdeg": hand.angle_mdeg(), "turning": hand.turning, "hum_ms": hand.hum_ms,
           "decay": hand.decay, "motor_mv": hand.motor_mv, "forbidden": hand.forbidden}
    motor.stop()
    return out


def hand_drive(decay, duty, pack_mv, run_ms, freq_hz=20000, reverse=False):
    """The DRV8833's inputs set by hand: `duty` (0..65535) forward (or reverse) in decay "slow"
    (one input full, the other at full - duty) or "fast" (one at duty, the other 0)."""
    import physics
    board = vboard.new_board(0, 1000)
    board.set_battery_mv(pack_mv)
    hand = physics.HBridgeHand(board, "drv8833", 16, 17, None, None, deg_per_s=120, dwell_ms=150)
    a, b = PWM(Pin(16), freq=freq_hz), PWM(Pin(17), freq=freq_hz)
    if reverse:
        a, b = b, a
    if decay == "slow":
        a.duty_u16(65535)
        b.duty_u16(65535 - duty)
    else:
        b.duty_u16(0)
        a.duty_u16(duty)
    board.clock.elapsed = run_ms
    hand.settle()
    return {"angle_mdeg": hand.angle_mdeg(), "turning": hand.turning, "humming": hand.humming,
            "hum_ms": hand.hum_ms, "decay": hand.decay, "motor_mv": hand.motor_mv,
            "forbidden": hand.forbidden}


def selftest_speeds(limits_list):
    """The clock's self-test MOTOR_PERMILLE and the motor step's speed for each clock.limits given."""
    from props.clock import selftest_steps as steps
    return {"motor_permille": steps.MOTOR_PERMILLE,
            "speeds": [steps.motor_permille({"limits": limits}) for limits in limits_list]}
