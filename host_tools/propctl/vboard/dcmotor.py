"""The clock's DC motor on the virtual board: a geared N20 on a DRV8833 in either decay mode.

Taken from the parts' data, not from what the firmware expects (vboard/physics.py's HBridgeHand
turns the hand with it). The motor only turns when the drive gives it enough
current: it starts when the average current at standstill reaches its
break-away current (the gearbox's static friction), keeps turning while that
current stays above its running (no-load) current, and otherwise stands and
hums. The average current depends on the bridge's decay mode (TI DRV8833
datasheet SLVSAR1, "Bridge Control and Decay Modes": Table 2 H-bridge logic,
Table 3 "PWM Control of Motor Speed"):
    slow decay (drive/brake: xIN1 = 1, xIN2 = PWM forward; xIN1 = PWM, xIN2 = 1
        reverse; a TB6612's PWM low is a short brake too, Toshiba TB6612FNG
        datasheet, "H-SW Control Function"): between pulses the winding is
        shorted, the current keeps flowing, the average voltage is duty x VM and
        the standstill current duty x VM / R (stall_current(), mode SLOW).
    fast decay (drive/coast: xIN1 = PWM, xIN2 = 0 forward; 0, PWM reverse):
        between pulses the outputs are off and the winding's current returns to
        VM through the body diodes, so it falls as fast as it rose (the whole VM
        across the winding). At tens of kHz the on-time is far shorter than the
        winding's L/R: each pulse builds a small triangle of current that is gone
        before the next, and the average is VM x D^2 x T / L (D the duty, T the
        PWM period), far below slow decay's D x VM / R at low duty. Above D = 0.5
        the current no longer returns to zero and the average voltage is
        (2D - 1) x VM. A turning motor's back-EMF E shortens the rise and
        lengthens the fall: (VM - E) / (VM + E) x VM x D^2 x T / L, which sets
        the speed where it equals the running current (running_mv()).
That fast decay at low duty "leaves a motor only humming" is reported, not
measured here: TI E2E forum thread 898213 (a DRV8833 at 16 kHz),
electronics.stackexchange question 509426 (DRV8833, small DC motor, 25 % duty:
the speed falls as the PWM frequency rises above about 100 Hz) and E2E thread
1521553 (DRV8251A, 15 kHz, 20 % duty on IN1, IN2 low: no movement).

All figures are ints (mV, 0.1 mA, uH, mOhm, PWM duty 0..FULL) with every product below 2^30
(a small int on a board), and nothing here allocates: the hand calls it on every pin change.
"""
FULL = 65535
SLOW = 1  # decay modes (see above)
FAST = 2

# A geared N20 for 3 V (the clock's motor, hardware/clock/README.md). Sellers' sheets give the
# rated voltage, the no-load current and the stall current (3 V N20s: about 30-60 mA no-load,
# 0.3-0.6 A stall); the Pololu forum (micro metal gearmotors, the same size) notes that speed and
# stall current scale with the voltage, which is the linear law used here. What no sheet gives is
# assumed and marked so: the winding inductance and the break-away current.
N20_RATED_MV = 3000
N20_R_MOHM = 10000        # 3 V / 0.3 A stall: the low end of the stall currents, the worst case here
N20_NOLOAD_MA10 = 400     # 40 mA no-load at 3 V: the running friction (in 0.1 mA)
N20_START_MA10 = 800      # assumed: break-away = 2 x the running current (gearbox static friction),
                          # i.e. the motor starts at 0.8 V of its 3 V (speed 267 per mille)
N20_L_UH = 1000           # assumed: 1 mH (L/R 0.1 ms); fast decay at speed_min fails to start for
                          # any L above about 0.25 mH on a 3.3-4.8 V pack (tests/clock/test_motor_model.py)
PWM_DEFAULT_HZ = 20000    # boardprofiles.py pwm_motor_hz


class N20:
    """The motor's parameters (defaults: a 3 V geared N20, see above); all ints."""

    def __init__(self, rated_mv: int = N20_RATED_MV, r_mohm: int = N20_R_MOHM,
                 noload_ma10: int = N20_NOLOAD_MA10, start_ma10: int = N20_START_MA10,
                 l_uh: int = N20_L_UH) -> None:
        if not (0 < rated_mv <= 12000 and 1000 <= r_mohm <= 1000000 and 0 < noload_ma10 <= start_ma10
                and start_ma10 < 60000 and 1 <= l_uh <= 100000):
            raise ValueError("motor parameters out of range")
        self.rated_mv = rated_mv
        self.r_mohm = r_mohm
        self.noload_ma10 = noload_ma10
        self.start_ma10 = start_ma10
        self.l_uh = l_uh


def _period(freq_hz: int) -> int:
    """The PWM period in units of 100 ns (1 kHz .. 10 MHz: 10000 .. 1)."""
    if freq_hz < 1000:
        freq_hz = 1000  # below 1 kHz a pulse outlasts L/R: no longer the small-triangle regime
    t = 10000000 // freq_hz
    return t if t > 0 else 1


def _triangle(motor, supply_mv: int, duty: int, freq_hz: int) -> int:
    """Fast decay at standstill, D <= 0.5: peak VM x on / L (capped at VM / R), average peak x D."""
    on = scale_duty(_period(freq_hz), duty)          # 100 ns units, <= 10000
    peak = supply_mv * on // motor.l_uh              # mV x 100 ns / uH = 0.1 mA
    cap = supply_mv * 10000 // motor.r_mohm          # VM / R in 0.1 mA
    if peak > cap:
        peak = cap
    if peak > 65535:
        peak = 65535
    return scale_duty(peak, duty)


def stall_current(motor, mode: int, supply_mv: int, duty: int, freq_hz: int) -> int:
    """Average current (0.1 mA) at standstill for a drive at `duty` (0..FULL) of `supply_mv`."""
    if duty <= 0 or supply_mv <= 0:
        return 0
    if mode == SLOW:
        return scale_duty(supply_mv, duty) * 10000 // motor.r_mohm
    if 2 * duty <= FULL:
        return _triangle(motor, supply_mv, duty, freq_hz)
    continuous = scale_duty(supply_mv, 2 * duty - FULL) * 10000 // motor.r_mohm
    half = _triangle(motor, supply_mv, FULL // 2, freq_hz)
    return continuous if continuous > half else half


def running_mv(motor, mode: int, supply_mv: int, duty: int, freq_hz: int) -> int:
    """The voltage that sets a turning motor's speed (mV): back-EMF plus the running current x R.

    Slow decay: the average voltage, duty x VM. Fast decay: the back-EMF E at which the average
    current equals the running current (see the module docstring), whichever regime gives more.
    """
    vm = scale_duty(supply_mv, duty)
    if mode == SLOW:
        return vm
    i0 = motor.noload_ma10
    ir = i0 * motor.r_mohm // 10000                  # running current x R, mV
    k = _triangle(motor, supply_mv, duty, freq_hz)   # <= 65535
    e = 0
    if k > i0:
        e = supply_mv * (k - i0) // (k + i0)         # < 12000 x 65535 < 2^30
    if 2 * duty > FULL:
        c = scale_duty(supply_mv, 2 * duty - FULL) - ir
        if c > e:
            e = c
    return e + ir


def scale_duty(top: int, duty: int) -> int:
    """top * duty // FULL for duty 0..FULL and top < 2**21, every step below 2**30."""
    x = top * (duty >> 8)                  # < 2**21 * 2**8
    high = x // FULL
    return high * 256 + ((x % FULL) * 256 + top * (duty & 0xFF)) // FULL
