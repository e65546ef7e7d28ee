"""Motor drivers behind one small interface.

    motor.set_speed(permille)   target speed -1000..1000 (sign = direction, 0 = stand)
    motor.update(now_ms)        call every control tick: ramps, dwell, stepping
    motor.stop()                stand now: brake at once (no ramp), release after the dwell
                                (counted from the next update(): stop() has no clock)
    motor.release()             de-energise at once (faults, shutdown)
    motor.wake(now_ms)          wake a sleeping bridge ahead of a drive (no-op otherwise)
    motor.set_supply_mv(mv)     the motor supply now: a DC motor with rated_mv scales its duty
                                so speed 1000 is its rated voltage (no-op otherwise)
    motor.speed / .target       applied and wanted speed; .energised: any output on

Both motors share the motion rules of _Motion: speed changes follow a ramp
(`ramp_ms` for a full-scale change), a change of direction first ramps to 0,
brakes (or holds, for a stepper) and waits `dwell_ms`, a motor that
stands still is braked for `dwell_ms` and then released (coast / coils off),
and after release() it is not driven again before `dwell_ms` either.

HBridgeMotor drives a DC gear motor through a bridge object (drivers.bridge:
DRV8833 or TB6612, which only ever produce legal input combinations). A
released HBridgeMotor puts its bridge to sleep (nSLEEP
/ STBY low: the chip draws about 2 mA awake and idle, on batteries all day);
a drive first wakes it and waits _WAKE_MS, so wake(now) early (the clock does
at the start of a round) and the first drive is not held up.

StepperMotor drives a 28BYJ-48 through a ULN2003 with a half-step table
kept as `bytes`. No update() allocates memory.
"""
from time import ticks_add, ticks_diff

from micropython import const

_FULL = const(65535)
_COAST = const(0)   # outputs off
_DRIVE = const(1)
_BRAKE = const(2)   # standing, braked (or coils held), since _brake_at
_MAX_DT = const(50)  # a late tick must not turn into one huge ramp step
_WAKE_MS = const(2)  # DRV8833 wake-up is up to 1 ms; 2 ticks of a ms clock are at least 1 ms
_MAX_MV = const(12000)  # highest rated or supply voltage: keeps _FULL x rated_mv below 2^30

HALF_STEPS = b"\x01\x03\x02\x06\x04\x0c\x08\x09"  # 28BYJ-48 coil patterns, IN1 = bit 0


class _Motion:
    """Ramps, brake-then-dwell and release; subclasses implement the outputs."""

    def __init__(self, ramp_ms: int, dwell_ms: int) -> None:
        if ramp_ms < 1 or dwell_ms < 0:
            raise ValueError("ramp_ms must be >= 1 and dwell_ms >= 0")
        self.ramp_ms = ramp_ms
        self.dwell_ms = dwell_ms
        self.target = 0
        self.speed = 0
        self._mode = _COAST
        self._brake_at = 0
        self._stood_unstamped = False  # stop()/release() since the last update (they have no clock)
        self._last = 0
        self._started = False

    @property
    def energised(self) -> bool:
        """True while any output drives the motor (driving, braking or holding)."""
        return self._mode != _COAST

    def set_speed(self, permille: int) -> None:
        """Set the target speed; out-of-range values are clamped to -1000..1000."""
        if permille > 1000:
            permille = 1000
        elif permille < -1000:
            permille = -1000
        self.target = permille

    def stop(self) -> None:
        """Stand now: brake without a ramp; update() releases after the dwell."""
        self.target = 0
        self.speed = 0
        self._stood_unstamped = True
        self._mode = _BRAKE
        self._out_brake()

    def release(self) -> None:
        """De-energise now, whatever the state (for faults and shutdown).

        The motor may still be turning: it is not driven again before dwell_ms.
        """
        self.target = 0
        self.speed = 0
        self._stood_unstamped = True
        self._mode = _COAST
        self._out_release()

    def wake(self, now: int) -> None:
        """Get the outputs ready to drive (a bridge leaves its sleep); nothing to do here."""

    def set_supply_mv(self, mv: int) -> None:
        """The motor supply's voltage now; only a voltage-compensated motor uses it."""

    def _ready(self, now: int) -> bool:
        """True when the outputs can drive now (subclasses with a sleep mode wake here)."""
        return True

    def update(self, now: int) -> None:
        """Advance the motion to time `now` (ms ticks) and set the outputs."""
        if not self._started:
            self._started = True
            self._last = now
            if self._mode == _COAST:
                # standing since power-up (a release() then changes nothing): may start at once
                self._stood_unstamped = False
                self._brake_at = ticks_add(now, -self.dwell_ms)  # type: ignore[type-var]
        if self._stood_unstamped:
            # The dwell counts from the first update after stop()/release(), not from the
            # update before it: that one may be a long tick ago, the brake only just now.
            self._stood_unstamped = False
            self._brake_at = now
        dt = ticks_diff(now, self._last)
        self._last = now
        if dt < 0:
            dt = 0
        elif dt > _MAX_DT:
            dt = _MAX_DT
        if self._mode == _BRAKE:
            if ticks_diff(now, self._brake_at) < self.dwell_ms:
                return
            if self.target == 0:
                self._mode = _COAST
                self._out_release()
                return
            self._mode = _DRIVE  # dwell done: ramp up from standing
        elif self._mode == _COAST:
            if self.target == 0 or ticks_diff(now, self._brake_at) < self.dwell_ms:
                return  # standing, or still coasting down after release()
            if not self._ready(now):
                return  # the bridge is waking up
        speed = self.speed
        want = self.target
        if (speed > 0 and want < 0) or (speed < 0 and want > 0):
            want = 0  # reverse only through standing still
        step = dt * 1000 // self.ramp_ms
        if step < 1:
            step = 1
        if want > speed:
            speed = want if want - speed <= step else speed + step
        elif want < speed:
            speed = want if speed - want <= step else speed - step
        self.speed = speed
        if speed == 0:
            if self._mode == _DRIVE:
                self._mode = _BRAKE
                self._brake_at = now
                self._out_brake()
            return
        self._mode = _DRIVE
        self._out_drive(speed, dt)

    # Outputs, implemented by each motor type.
    def _out_drive(self, speed: int, dt: int) -> None:
        raise NotImplementedError

    def _out_brake(self) -> None:
        raise NotImplementedError

    def _out_release(self) -> None:
        raise NotImplementedError


class HBridgeMotor(_Motion):
    """A DC gear motor on a DRV8833 or TB6612 bridge (see the module docstring).

    Voltage-compensated: speed 1000 is the motor's rated voltage `rated_mv`,
    whatever the supply. The duty is speed x rated_mv / supply_mv, so the
    average voltage at the motor (duty x supply) is the speed's share of the
    rated voltage and never above it; set_supply_mv() tells it the supply
    (the pack as measured; the duty for the next update() follows). A supply
    below rated_mv gives full duty: as fast as that supply can turn it.
    `max_permille` caps the duty further (a fraction of the supply). Without
    rated_mv (0) the duty is speed x max_permille: the supply is not known.
    """

    tick_ms = 10  # control tick this motor needs

    def __init__(self, bridge, ramp_ms: int = 120, dwell_ms: int = 150, max_permille: int = 1000,
                 rated_mv: int = 0, supply_mv: int = 0) -> None:
        super().__init__(ramp_ms, dwell_ms)
        if max_permille < 1 or max_permille > 1000:
            raise ValueError("max_permille must be 1..1000")
        if rated_mv < 0 or rated_mv > _MAX_MV or (rated_mv and supply_mv < 1):
            raise ValueError("rated_mv must be 0..%d, with a supply_mv of at least 1" % _MAX_MV)
        self.bridge = bridge
        self.max_permille = max_permille
        self.rated_mv = rated_mv
        self.supply_mv = 0
        self._cap = max_permille * _FULL // 1000  # duty at speed 1000
        self._awake = False
        self._ready_at = 0
        if rated_mv:
            self.set_supply_mv(supply_mv)
        bridge.sleep()

    def set_supply_mv(self, mv: int) -> None:
        """The motor supply is `mv` now: scale the duty so the motor sees rated_mv at speed 1000.

        No allocation, every product below 2^30 (rated_mv <= 12000: 65535 x 12000 < 2^30).
        A supply of 0 or less (unknown) changes nothing.
        """
        if self.rated_mv == 0 or mv < 1:
            return
        if mv > _MAX_MV:
            mv = _MAX_MV
        self.supply_mv = mv
        cap = self.max_permille * _FULL // 1000
        if self.rated_mv < mv:
            scaled = _FULL * self.rated_mv // mv  # floored: the average never rises above rated_mv
            if scaled < cap:
                cap = scaled
        self._cap = cap

    def wake(self, now: int) -> None:
        """Wake the bridge now (if asleep); it may drive from now + _WAKE_MS on."""
        if not self._awake:
            self._awake = True
            self._ready_at = ticks_add(now, _WAKE_MS)  # type: ignore[type-var]
            self.bridge.wake()

    def _ready(self, now: int) -> bool:
        self.wake(now)
        return ticks_diff(now, self._ready_at) >= 0

    def _out_drive(self, speed: int, dt: int) -> None:
        magnitude = speed if speed > 0 else -speed
        # magnitude <= 1000 and _cap <= 65535: the product stays a small int on a 32-bit board.
        self.bridge.drive(speed > 0, magnitude * self._cap // 1000)

    def _out_brake(self) -> None:
        if not self._awake:  # a stop() while asleep: braking takes effect once awake
            self.wake(self._last)
        self.bridge.brake()

    def _out_release(self) -> None:
        self._awake = False
        self.bridge.sleep()


class StepperMotor(_Motion):
    """A 28BYJ-48 on a ULN2003: four coil pins, half-stepping, coils off when standing.

    Speed 1000 is `max_steps_per_s` half-steps per second. About 4075.77
    half-steps turn the output shaft once (gear train 63.684:1, not the 64:1
    often quoted). The default 300 stays well below the motor's pull-in rate
    at the 2.3-3.5 V the coils see from 3 x AA through a ULN2003, so no step
    is missed as the pack sags. At most one half-step per update(), so the
    control tick must be at most 1000 / max_steps_per_s ms.
    """

    def __init__(self, pins, ramp_ms: int = 120, dwell_ms: int = 150, max_steps_per_s: int = 300) -> None:
        super().__init__(ramp_ms, dwell_ms)
        if len(pins) != 4:
            raise ValueError("a ULN2003 stepper needs 4 pins, got %d" % len(pins))
        if max_steps_per_s < 1 or max_steps_per_s > 1000:
            raise ValueError("max_steps_per_s must be 1..1000")
        self._pins = pins
        self.max_steps_per_s = max_steps_per_s
        self.tick_ms = 1000 // max_steps_per_s if max_steps_per_s > 1 else 1
        self.position = 0  # half-steps, forward positive
        self._phase = 0
        self._acc = 0
        self._coils = 0
        self._write(0)

    def _write(self, pattern: int) -> None:
        self._coils = pattern
        pins = self._pins
        pins[0].value(pattern & 1)
        pins[1].value((pattern >> 1) & 1)
        pins[2].value((pattern >> 2) & 1)
        pins[3].value((pattern >> 3) & 1)

    def _out_drive(self, speed: int, dt: int) -> None:
        magnitude = speed if speed > 0 else -speed
        # 1_000_000 units = one half-step (ms x per-mille x steps/s).
        if self._coils == 0:
            self._write(HALF_STEPS[self._phase])  # energise at the phase it stands on
        self._acc += dt * magnitude * self.max_steps_per_s
        if self._acc < 1000000:
            return
        self._acc -= 1000000
        if self._acc > 1000000:
            self._acc = 1000000  # never owe more than one step: no bursts
        if speed > 0:
            self._phase = (self._phase + 1) & 7
            self.position += 1
        else:
            self._phase = (self._phase - 1) & 7
            self.position -= 1
        self._write(HALF_STEPS[self._phase])

    def _out_brake(self) -> None:
        self._acc = 0
        self._write(HALF_STEPS[self._phase])  # hold the rotor where it is

    def _out_release(self) -> None:
        self._acc = 0
        self._write(0)
