"""H-bridge chips for a DC motor (drivers.motor.HBridgeMotor drives one): drive, brake, coast, sleep.

    DRV8833(pwm_in1, pwm_in2, sleep=None)       both inputs are PWM
    TB6612(pin_in1, pin_in2, pwm, stby=None)    direction pins + one PWM

Each class only ever produces legal input combinations: a DRV8833 never has
both inputs at partial duty, a TB6612's direction pins only change while its
PWM is 0. Both drive in slow decay (drive/brake between pulses): the motor's
average voltage is duty x supply, which drivers.motor's voltage compensation
assumes and which a small geared motor answers at low duty. Both start asleep
(nSLEEP / STBY low, where wired) until wake().
Pins and PWMs come in already built; nothing here allocates after __init__.
"""
from micropython import const

_FULL = const(65535)


class DRV8833:
    """One DRV8833 channel: IN1 and IN2 both on PWM, driven in slow decay.

    TI DRV8833 datasheet (SLVSAR1), Table 3 "PWM Control of Motor Speed":
    xIN1 = 1, xIN2 = PWM is forward with slow decay (the bridge alternates
    between drive and brake), xIN1 = PWM, xIN2 = 1 reverse with slow decay;
    xIN1 = PWM, xIN2 = 0 (the fast-decay way, drive/coast) lets the winding's
    current die through the body diodes between pulses, and at 20 kHz a small
    geared motor then barely moves at low duty (host_tools/propctl/vboard/
    physics.py models both). So forward is IN1 full, IN2 at full minus duty;
    reverse the mirror.

    Legal states only: (0,0) coast, (full,full) brake, (full, full-d)
    forward, (full-d, full) reverse. When two writes are needed the state in
    between is a brake or a full drive in the direction already in use
    (coast -> forward passes (full,0)), never the other direction and never
    both inputs at partial duty.
    """

    def __init__(self, in1, in2, sleep=None) -> None:
        self._a = in1
        self._b = in2
        self._sleep = sleep
        self._forward = True  # side that drove last
        in1.duty_u16(0)
        in2.duty_u16(0)
        if sleep is not None:
            sleep.value(0)  # asleep until wake()

    def drive(self, forward: bool, duty: int) -> None:
        """Drive in one direction at duty 0..65535 (the share of the time the motor is driven)."""
        # The full side first: from coast that is a full drive this way, from the other
        # direction a brake, from this direction no change; then the PWM side.
        if forward:
            self._a.duty_u16(_FULL)
            self._b.duty_u16(_FULL - duty)
        else:
            self._b.duty_u16(_FULL)
            self._a.duty_u16(_FULL - duty)
        self._forward = forward

    def brake(self) -> None:
        """Both inputs high: short brake (slow decay)."""
        if self._forward:
            self._a.duty_u16(_FULL)
            self._b.duty_u16(_FULL)
        else:
            self._b.duty_u16(_FULL)
            self._a.duty_u16(_FULL)

    def coast(self) -> None:
        """Both inputs low: outputs high-impedance, the motor freewheels."""
        if self._forward:
            self._b.duty_u16(0)
            self._a.duty_u16(0)
        else:
            self._a.duty_u16(0)
            self._b.duty_u16(0)

    def sleep(self) -> None:
        """Coast and put the chip to sleep (if nSLEEP is wired)."""
        self.coast()
        if self._sleep is not None:
            self._sleep.value(0)

    def wake(self) -> None:
        """nSLEEP high: the chip is ready to drive after its wake-up time (up to 1 ms)."""
        if self._sleep is not None:
            self._sleep.value(1)


class TB6612:
    """One TB6612FNG channel: AIN1/AIN2 direction pins, PWMA speed, optional STBY.

    The direction pins only change while PWM is 0, so the bridge never goes
    straight from one direction to the other.
    """

    def __init__(self, in1, in2, pwm, stby=None) -> None:
        self._in1 = in1
        self._in2 = in2
        self._pwm = pwm
        self._stby = stby
        self._dir = 0  # 1 forward, -1 reverse, 0 brake/coast pins
        pwm.duty_u16(0)
        in1.value(0)
        in2.value(0)
        if stby is not None:
            stby.value(0)  # standby until wake()

    def drive(self, forward: bool, duty: int) -> None:
        """Drive in one direction at duty 0..65535."""
        want = 1 if forward else -1
        if self._dir != want:
            self._pwm.duty_u16(0)
            self._in1.value(1 if forward else 0)
            self._in2.value(0 if forward else 1)
            self._dir = want
        self._pwm.duty_u16(duty)

    def brake(self) -> None:
        """IN1 = IN2 = high: short brake."""
        self._pwm.duty_u16(0)
        self._in1.value(1)
        self._in2.value(1)
        self._dir = 0

    def coast(self) -> None:
        """IN1 = IN2 = low: outputs off, the motor freewheels."""
        self._pwm.duty_u16(0)
        self._in1.value(0)
        self._in2.value(0)
        self._dir = 0

    def sleep(self) -> None:
        """Coast and pull STBY low (if wired)."""
        self.coast()
        if self._stby is not None:
            self._stby.value(0)

    def wake(self) -> None:
        """STBY high: ready to drive."""
        if self._stby is not None:
            self._stby.value(1)
