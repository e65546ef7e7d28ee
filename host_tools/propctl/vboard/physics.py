"""Physics of the virtual clock: the hand angle driven by the recorded motor outputs.

Both models watch the board's signal changes (no polling, no allocation per
change) and also check the driving rules as they go:

    hand = HBridgeHand(board, "drv8833", in1=16, in2=17, deg_per_s=120, rated_mv=3000, dwell_ms=150)
    hand = StepperHand(board, (2, 3, 4, 5), dwell_ms=150)
    hand.angle_mdeg()      # hand angle in millidegrees, forward = clockwise, unbounded
    hand.direction         # 1, -1, 0 (standing)
    hand.forbidden         # count of illegal bridge input combinations seen
    hand.quick_reversals   # direction changes with less standing time than dwell_ms
    hand.min_reverse_gap   # shortest standing time seen between opposite drives (ms, -1: none)
    hand.settle()          # count the drive going on now before reading those figures
    hand.energised         # any motor output on
    hand.motor_mv          # H-bridge: average voltage on the motor now (duty x the pack's voltage)
    hand.peak_mv           # H-bridge: the highest average motor voltage of a drive that lasted
                           # (not the 0 ms between two pin writes; settle() counts the one now)
    hand.turning           # H-bridge: the motor turns (it broke away and still gets its current)
    hand.humming           # H-bridge: driven but standing: too little current to break away
    hand.hum_ms            # H-bridge: total ms driven without turning
    hand.decay             # H-bridge: SLOW or FAST, the decay mode of the drive now (0: none)

A DC gear motor's speed follows its average voltage: the H-bridge hand turns at
deg_per_s when the motor sees rated_mv (duty x board.battery_mv, the virtual
pack: signal "battery_mv" moves it at its millisecond), proportionally slower
or faster otherwise. So an old firmware's full duty on a fresh pack shows up as
a hand too fast and a motor over its rating, and a sagging pack as a slower hand.

The motor is a geared N20 on the bridge: whether it turns, hums or stands, and the voltage
that sets its speed, come from its model in dcmotor.py (the N20 from its sellers' sheets, the
DRV8833's slow and fast decay from TI's datasheet; hand.humming, hand.hum_ms, hand.decay).

H-bridge decoding: DRV8833 (IN1, IN2 as PWM duties): (0,0) coast, (full,full)
brake, (d,0) forward fast decay, (0,d) reverse fast decay, (full,x) forward slow
decay at duty full - x, (x,full) reverse slow decay, anything else forbidden
(both sides at partial duty: two unsynchronised PWMs mix both directions);
nSLEEP low: off. The PWM frequency is read from the inputs' ".freq" signals
(20 kHz until one is set). TB6612 (IN1, IN2 levels, PWM duty, STBY): STBY
low or IN1=IN2=0 off, IN1=IN2=1 brake, (1,0)/(0,1) with PWM > 0 forward/reverse
(slow decay), with PWM 0 brake;
forbidden: a direction pin changing while PWM > 0.
A floating pin (after a reset) reads low: the bridge boards pull inputs down.
"""
from dcmotor import FAST, FULL, N20, PWM_DEFAULT_HZ, SLOW, running_mv, scale_duty, stall_current

HALF_STEPS = b"\x01\x03\x02\x06\x04\x0c\x08\x09"


class _Hand:
    def __init__(self, board, dwell_ms: int) -> None:
        self.board = board
        self.dwell_ms = dwell_ms
        self.direction = 0
        self.velocity = 0          # millidegrees per second
        # Integrated velocity x ms = millidegrees x 1000, kept as whole millidegrees
        # plus a remainder 0..999, so no product reaches 2**30 (a big int on a board).
        self._mdeg = 0
        self._frac = 0
        self._at = 0               # elapsed ms of the last integration
        self.forbidden = 0
        self.first_forbidden_ms = -1
        self.quick_reversals = 0
        self.min_reverse_gap = -1
        self.reversals = 0
        self._last_dir = 0         # direction of the last drive that lasted
        self._drive_end = 0        # when that drive ended
        self._drive_start = 0      # when the current state began
        self.energised = False

    def _integrate(self, t: int) -> None:
        dt = t - self._at
        sub = self.velocity * (dt % 1000) + self._frac
        self._mdeg += self.velocity * (dt // 1000) + sub // 1000
        self._frac = sub % 1000
        self._at = t

    def angle_mdeg(self) -> int:
        """The hand angle now, in millidegrees."""
        self.board.clock.now()
        dt = self.board.clock.elapsed - self._at
        sub = self.velocity * (dt % 1000) + self._frac
        return self._mdeg + self.velocity * (dt // 1000) + sub // 1000

    def _drive(self, direction: int, velocity: int, t: int) -> None:
        """Enter a new motion state at elapsed time t (direction 0 = standing)."""
        self._integrate(t)
        if direction != self.direction:
            self._commit(t)
            self._drive_start = t
        self.direction = direction
        self.velocity = velocity * direction

    def _commit(self, t: int) -> None:
        # A drive that lasted 0 ms is two pin writes in one instant, not a drive.
        if self.direction == 0 or t == self._drive_start:
            return
        if self._last_dir != 0 and self.direction != self._last_dir:
            gap = self._drive_start - self._drive_end
            self.reversals += 1
            if self.min_reverse_gap < 0 or gap < self.min_reverse_gap:
                self.min_reverse_gap = gap
            if gap < self.dwell_ms:
                self.quick_reversals += 1
        self._last_dir = self.direction
        self._drive_end = t

    def settle(self) -> None:
        """Count a drive still going on now (call before reading the reversal figures)."""
        self.board.clock.now()
        t = self.board.clock.elapsed
        if self.direction != 0 and t > self._drive_start:
            self._commit(t)
            self._drive_start = t

    def _forbid(self, t: int) -> None:
        self.forbidden += 1
        if self.first_forbidden_ms < 0:
            self.first_forbidden_ms = t


class HBridgeHand(_Hand):
    """A DC gear motor (N20 by default) on a DRV8833 or TB6612 channel turning the hand."""

    def __init__(self, board, mode: str, in1, in2, pwm=None, stby=None,
                 deg_per_s: int = 120, dwell_ms: int = 150, rated_mv: int = 3000, motor=None) -> None:
        super().__init__(board, dwell_ms)
        if mode not in ("drv8833", "tb6612"):
            raise ValueError("unknown bridge %r" % mode)
        self.mode = mode
        if not 0 < deg_per_s < 2000:
            raise ValueError("deg_per_s is 1..1999, got %r" % (deg_per_s,))
        if not 0 < rated_mv <= 12000:
            raise ValueError("rated_mv is 1..12000, got %r" % (rated_mv,))
        self.deg_per_s = deg_per_s
        self.rated_mv = rated_mv
        self.motor = motor if motor is not None else N20(rated_mv=rated_mv)
        self.supply_mv = board.battery_mv
        self.motor_mv = 0
        self.peak_mv = 0
        self._mv_since = 0
        self.turning = False
        self.humming = False
        self.hum_ms = 0
        self._hum_since = 0
        self.decay = 0
        self.freq_hz = PWM_DEFAULT_HZ
        self._supply = board.signal("battery_mv")
        if mode == "drv8833":
            self._in1_signal = board.signal(str(in1) + ".duty")
            self._in2_signal = board.signal(str(in2) + ".duty")
            self._freq_signal_1 = board.signal(str(in1) + ".freq")
            self._freq_signal_2 = board.signal(str(in2) + ".freq")
        else:
            self._in1_signal = board.signal(str(in1))
            self._in2_signal = board.signal(str(in2))
            self._pwm = board.signal(str(pwm) + ".duty")
            self._freq_signal_1 = board.signal(str(pwm) + ".freq")
            self._freq_signal_2 = self._freq_signal_1
        self._stby = board.signal(str(stby)) if stby is not None else -1
        # the bridge's IN1 and IN2 now: PWM duties (DRV8833) or levels (TB6612); the signal ids
        # above are where they come from, the PWM frequency from _freq_signal_1/_2 (TB6612: both
        # the PWM pin's)
        self.in1_value = 0
        self.in2_value = 0
        self.duty = 0
        self.stby = 1 if stby is None else 0
        board.watch(self._changed)

    def _changed(self, sig: int, value: int, t: int) -> None:
        if value < 0:
            value = 0  # floating input: pulled down on the bridge board
        if (self.mode == "tb6612" and self.duty > 0 and self.stby
                and ((sig == self._in1_signal and value != self.in1_value)
                     or (sig == self._in2_signal and value != self.in2_value))):
            self._forbid(t)  # TB6612: direction pins switched under power
        if sig == self._in1_signal:
            self.in1_value = value
        elif sig == self._in2_signal:
            self.in2_value = value
        elif self.mode == "tb6612" and sig == self._pwm:
            self.duty = value
        elif sig == self._stby:
            self.stby = value
        elif sig == self._supply:
            self.supply_mv = value
        elif sig == self._freq_signal_1 or sig == self._freq_signal_2:
            if value > 0:
                self.freq_hz = value
        else:
            return
        self._decode(t)

    def _motor_mv(self, mv: int, t: int) -> None:
        """The average motor voltage is `mv` from t on; the one before counts if it lasted."""
        if t > self._mv_since and self.motor_mv > self.peak_mv:
            self.peak_mv = self.motor_mv
        if mv != self.motor_mv:
            self.motor_mv = mv
            self._mv_since = t

    def _hum(self, on: bool, t: int) -> None:
        if self.humming:
            self.hum_ms += t - self._hum_since
        self._hum_since = t
        self.humming = on

    def settle(self) -> None:
        """Count the drive going on now (reversal figures, peak_mv, hum_ms)."""
        super().settle()
        t = self.board.clock.elapsed
        self._motor_mv(self.motor_mv, t)
        self._hum(self.humming, t)

    def _run(self, direction: int, duty: int, decay: int, t: int) -> None:
        """Drive at `duty` (0..FULL of the pack) in `decay` mode: the motor turns if it gets the
        current (dcmotor.py's N20 model), and then its voltage sets the speed."""
        m = self.motor
        supply = self.supply_mv
        self.decay = decay
        if direction != self.direction and self.direction != 0:
            self.turning = False  # the other way round: it starts from standstill
        current = stall_current(m, decay, supply, duty, self.freq_hz)
        if current < (m.noload_ma10 if self.turning else m.start_ma10):
            self.turning = False
            self._hum(True, t)
            self._motor_mv(scale_duty(supply, duty), t)
            self._drive(0, 0, t)
            return
        self.turning = True
        self._hum(False, t)
        mv = running_mv(m, decay, supply, duty, self.freq_hz)
        self._motor_mv(mv, t)
        # deg_per_s x mv x 1000 // rated_mv in mdeg/s, split so no product reaches 2^30
        x = self.deg_per_s * mv
        self._drive(direction, x // self.rated_mv * 1000 + x % self.rated_mv * 1000 // self.rated_mv, t)

    def _stand(self, t: int) -> None:
        self.turning = False
        self.decay = 0
        self._hum(False, t)
        self._motor_mv(0, t)
        self._drive(0, 0, t)

    def _decode(self, t: int) -> None:
        in1 = self.in1_value
        in2 = self.in2_value
        if not self.stby:  # TB6612 STBY / DRV8833 nSLEEP low: outputs off
            self.energised = False
            self._stand(t)
            return
        if self.mode == "drv8833":
            self.energised = in1 > 0 or in2 > 0
            if in1 == 0 and in2 == 0 or in1 == FULL and in2 == FULL:
                self._stand(t)
            elif in2 == 0:
                self._run(1, in1, FAST if in1 < FULL else SLOW, t)
            elif in1 == 0:
                self._run(-1, in2, FAST if in2 < FULL else SLOW, t)
            elif in1 == FULL:
                self._run(1, FULL - in2, SLOW, t)
            elif in2 == FULL:
                self._run(-1, FULL - in1, SLOW, t)
            else:
                self._forbid(t)
                self._stand(t)
            return
        self.energised = in1 != in2 or (in1 == 1 and in2 == 1)
        if in1 != in2 and self.duty > 0:
            self._run(1 if in1 else -1, self.duty, SLOW, t)
        else:
            self._stand(t)


# 28BYJ-48 half-steps per output turn: 64 per motor turn x the gear train
# 32/9 x 22/11 x 26/9 x 31/10 (63.684:1) = 1650688/405, about 4075.77.
TURN_NUM = 1650688
TURN_DEN = 405


class StepperHand(_Hand):
    """A 28BYJ-48 (TURN_NUM / TURN_DEN half-steps per turn) turning the hand directly."""

    def __init__(self, board, pins, dwell_ms: int = 150) -> None:
        super().__init__(board, dwell_ms)
        self._sigs = [board.signal(str(p)) for p in pins]
        self.pattern = 0
        self.position = 0
        self.skipped = 0           # coil patterns that are not one half-step on
        self._phase = -1
        self._pending_t = -1
        self._judged = 0
        board.watch(self._changed)

    def angle_mdeg(self) -> int:
        """position x 360000 / (TURN_NUM / TURN_DEN), floored, with every product below 2^30."""
        self._evaluate()
        turns, rest = divmod(self.position * TURN_DEN, TURN_NUM)  # rest < TURN_NUM = 64 x 25792
        return turns * 360000 + rest // 25792 * 5625 + rest % 25792 * 5625 // 25792

    def settle(self) -> None:
        """Take in the coil writes of the latest instant."""
        self._evaluate()

    def _changed(self, sig: int, value: int, t: int) -> None:
        i = 0
        while i < 4:
            if self._sigs[i] == sig:
                break
            i += 1
        if i == 4:
            return
        # Coil writes in the same instant are one transition (the driver sets
        # four pins one after another): judge the pattern once time moves on.
        if t != self._pending_t:
            self._evaluate()
        self._pending_t = t
        if value > 0:
            self.pattern |= 1 << i
        else:
            self.pattern &= ~(1 << i)
        self.energised = self.pattern != 0

    def _evaluate(self) -> None:
        if self.pattern == self._judged:
            return
        self._judged = self.pattern
        t = self._pending_t
        if self.pattern == 0:
            self._phase = -1
            self.direction = 0
            return
        phase = -1
        j = 0
        while j < 8:
            if HALF_STEPS[j] == self.pattern:
                phase = j
                break
            j += 1
        if phase < 0:
            self.skipped += 1  # not a half-step pattern
            return
        if self._phase < 0:
            self._phase = phase  # energised: the rotor locks onto this phase
            return
        delta = (phase - self._phase) & 7
        self._phase = phase
        if delta == 1:
            self.position += 1
            self._step(1, t)
        elif delta == 7:
            self.position -= 1
            self._step(-1, t)
        elif delta != 0:
            self.skipped += 1

    def _step(self, direction: int, t: int) -> None:
        # A stepper "stands" between steps; a step against the last one is a reversal.
        if direction != self._last_dir and self._last_dir != 0:
            gap = t - self._drive_end
            self.reversals += 1
            if self.min_reverse_gap < 0 or gap < self.min_reverse_gap:
                self.min_reverse_gap = gap
            if gap < self.dwell_ms:
                self.quick_reversals += 1
        self._last_dir = direction
        self._drive_end = t
        self.direction = direction
