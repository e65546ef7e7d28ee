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
        import boards
        import settings as settings_module
        from props import clock as clock_prop
        from runtime import watchdog
        self.board = vboard.new_board(start_ms, capacity)
        cfg, errors = settings_module.merge(overrides or {})
        self.settings = cfg
        self.errors = errors
        self.echo = echo
        self.events: list = []
        self.idles = 0
        board_name = cfg["board"]
        pins = boards.profile(board_name, "clock")
        self.pins = pins
        self.board.adc_full_mv = boards.limits(board_name)["adc_full_mv"]
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
        """Run as link.board runs a prop: the runtime writes the app's `store` (made with
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
        """Put `mv` on the battery pack (the ADC pin sees it through the divider)."""
        divider = self.settings["clock"]["battery_divider_permille"]
        self.board.set_adc_mv(self.pins["battery_adc"], mv * 1000 // divider)

    def run(self, ms: int, until=None, each=None) -> int:
        """Runtime passes for ms of virtual time or until until() (see vboard.Board.run)."""
        return self.board.run(self.runtime, ms, until, each)

    def run_round(self, limit_ms: int = 200000, settle_ms: int = 500, each=None) -> int:
        """Press the button if idle, run until idle again plus settle_ms (motor release)."""
        from props import clock as clock_prop
        if self.app.state == clock_prop.IDLE:
            self.press()
        before = self.idles

        def until():
            return self.idles > before

        self.run(limit_ms, until, each)
        self.run(settle_ms, None, each)
        return self.board.clock.elapsed
