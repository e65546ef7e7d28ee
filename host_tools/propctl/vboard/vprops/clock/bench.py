"""The ghost clock on a virtual board, ready to run: used by the sim runner and the tests.

    bench = ClockBench({"clock": {"motor": "stepper"}}, start_ms=0)
    bench.press(at_ms=100)                 # the start button, 100 ms into the run
    bench.run_round()                      # virtual time until the clock is idle again
    bench.run(500)                         # 500 ms more of board time, through bench.runtime
    bench.events                           # [{"event": "start", "t": 110, ...}, ...]
    bench.hand.angle_mdeg(), bench.hand.quick_reversals, bench.board.log()

The app runs in the firmware's runtime.Runtime (bench.runtime, with the
prop's watchdog as on a board) in virtual time: vboard.Board.run. Runs under
MicroPython with this folder before firmware/lib on MICROPYPATH.
"""
import physics
import vboard

# The firmware is imported when a bench is built, not with this module, so
# bench/mp_firmware.py can load the virtual board first and count the firmware
# apart from it.

# Top speed of the hand with a geared DC motor at full duty (about 20 rpm).
HAND_DEG_PER_S = 120


class ClockBench:
    """Fresh board + hand model + ClockApp built by props.clock.build (see the module docstring)."""

    def __init__(self, overrides=None, start_ms: int = 0, capacity: int = 100000, echo=None,
                 **app_options) -> None:
        from props import clock as clock_prop
        from runtime import watchdog
        self.board = vboard.new_board(start_ms, capacity)
        cfg, errors = vboard.boot_settings(overrides or {}, "clock")
        self.settings = cfg
        self.errors = errors
        self.echo = echo
        self.events: list = []
        self.idles = 0
        board_name = cfg["board"]
        pins, limits = vboard.board_tables(board_name, "clock")
        self.pins = pins
        self.limits = limits
        self.board.adc_full_mv = limits["adc_full_mv"]
        self.set_battery_mv(self.board.battery_mv)  # through the configured divider
        c = cfg["clock"]
        if c["motor"] == "stepper":
            self.hand = physics.StepperHand(
                self.board, (pins["stepper_in1"], pins["stepper_in2"], pins["stepper_in3"],
                             pins["stepper_in4"]), dwell_ms=c["dwell_ms"])
        else:
            self.hand = physics.HBridgeHand(
                self.board, c["bridge"], pins["motor_in1"], pins["motor_in2"], pins["motor_pwm"],
                pins["motor_stby"], deg_per_s=HAND_DEG_PER_S, dwell_ms=c["dwell_ms"])
        self.app = clock_prop.build(cfg, self._event, **app_options)
        self.button = pins["button"]
        self.runtime = self.board.runtime(self.app, watchdog(cfg, "clock"))

    def write_flash(self, store=None, guard=None) -> None:
        """Run as link.startup runs a prop: the runtime writes the app's `store` (made with
        later=True and given to the build, store=...) and the boot guard's counter, each write
        where the app allows it (runtime.Runtime). Use a vflash.FlashFs for the stall."""
        from runtime import watchdog
        self.runtime = self.board.runtime(self.app, watchdog(self.settings, "clock"), guard=guard,
                                          stores=(store,) if store is not None else ())

    def _event(self, name, fields) -> None:
        record = dict(fields)  # the app reuses its fields dicts
        record["event"] = name
        record["t"] = self.board.clock.elapsed
        self.events.append(record)
        if name == "idle":
            self.idles += 1
        if self.echo is not None:
            self.echo(record)

    def names(self) -> list:
        """Event names so far, in order."""
        return [e["event"] for e in self.events]

    def press(self, at_ms=None, hold_ms: int = 100) -> None:
        """Press the start button at elapsed at_ms (default: now) for hold_ms."""
        if at_ms is None:
            at_ms = self.board.clock.elapsed + 50  # after the first (settling) switch scan
        self.board.press(self.button, at_ms, hold_ms)

    def set_battery_mv(self, mv: int) -> None:
        """Put `mv` on the battery pack: the motor's supply, and the ADC pin sees it through the
        divider the settings name, or the board's wiring table where they name none (the
        builder wired what the config says)."""
        from props.clock.wiring import divider_permille
        self.board.battery_divider_permille = divider_permille(self.settings["clock"], self.limits)
        self.board.set_battery_mv(mv)

    def run(self, ms: int, until=None, each=None) -> int:
        """Runtime passes for ms of virtual time or until until() (see vboard.Board.run)."""
        return self.board.run(self.runtime, ms, until, each)

    def run_round(self, limit_ms: int = 200000, settle_ms: int = 500, each=None) -> int:
        """Press the button if idle, run until idle again plus settle_ms (motor release)."""
        from props.clock import app as clock_app
        if self.app.state == clock_app.IDLE:
            self.press()
        before = self.idles

        def until():
            return self.idles > before

        self.run(limit_ms, until, each)
        self.run(settle_ms, None, each)
        return self.board.clock.elapsed


class _DischargeRound:
    """One round of discharge(): steps the pack down with round time, sums the hand's travel."""

    def __init__(self, bench, from_mv: int, to_mv: int, k: int, rounds: int, round_ms: int) -> None:
        from props.clock import app as clock_app
        self._running = clock_app.RUNNING
        self.bench = bench
        self.first_mv = from_mv - (from_mv - to_mv) * k // rounds
        self._from_mv = from_mv
        self._drop = from_mv - to_mv
        self._k = k
        self._rounds = rounds
        self._round_ms = round_ms
        self._start = -1
        self._angle = 0
        self._step = -1
        self.travel = 0

    def each(self) -> None:
        bench = self.bench
        if bench.app.state != self._running:
            return
        hand = bench.hand
        t = bench.board.clock.elapsed
        if self._start < 0:
            self._start = t
            self._angle = hand.angle_mdeg()
        step = (t - self._start) // 100
        if step != self._step and step * 100 <= self._round_ms:
            self._step = step
            drop = self._drop * self._k + self._drop * step * 100 // self._round_ms
            bench.set_battery_mv(self._from_mv - drop // self._rounds)
        angle = hand.angle_mdeg()
        self.travel += abs(angle - self._angle)
        self._angle = angle


def discharge(overrides, from_mv: int, to_mv: int, rounds: int) -> list:
    """The same round `rounds` times while the pack runs down linearly from from_mv to to_mv.

    overrides must fix the seed (clock.seed), so every round has the same plan. The pack
    falls with round time: round k runs from k/rounds to (k+1)/rounds of the way down,
    stepped every 100 ms. Per round: [pack_mv at its start, hand travel in millidegrees
    (both ways counted), the highest average motor voltage of the round (mV)].
    """
    from rules.geisteruhr import plan_length_ms
    bench = ClockBench(overrides, capacity=1)  # the log is not needed: the hand watches live
    seed = bench.settings["clock"]["seed"]
    if seed is None:
        raise ValueError("discharge needs a fixed clock.seed: the same plan every round")
    round_ms = plan_length_ms(bench.app._planner(seed, bench.app.limits))
    out = []
    for k in range(rounds):
        one = _DischargeRound(bench, from_mv, to_mv, k, rounds, round_ms)
        bench.set_battery_mv(one.first_mv)
        bench.hand.peak_mv = 0
        bench.run_round(each=one.each)
        bench.hand.settle()
        out.append([one.first_mv, one.travel, bench.hand.peak_mv])
    return out
