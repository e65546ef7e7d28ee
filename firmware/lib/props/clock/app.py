"""The ghost clock's control logic: ClockApp and its states (see props.clock for the whole prop).

Switch scan, round plan, motor, chime and battery check in `tick(now_ms)`;
the deadline the runtime sleeps to in `wait_ms(now)`; the emergency stop and
the motor's safety rules (props.clock's docstring) live here.
"""
from time import ticks_add, ticks_diff

from drivers.battery import OFF_MV, motor_supply_mv
from drivers.entropy import urandom_seed
from drivers.switches import KIND_NAMES, LONG, PRESSED, RELEASED, event_index, event_kind
from micropython import const

from props.clock.commands import ClockCommands
from rules.geisteruhr import DEFAULT_LIMITS, plan_length_ms, plan_motion, validate_limits

HARD_MAX_RUN_MS = const(120000)  # no plan, setting or board limit can run the motor longer
_CHIME_AFTER_MS = const(100)     # the bell sounds once the braked hand stands
_SCAN_MS = const(10)             # the longest control tick: the button scan needs it
# How often a running round reads the pack for the motor's voltage compensation: a pack sags
# over minutes, and each reading costs a few ADC conversions in a tick with no deadline.
SUPPLY_EVERY_MS = const(2000)

IDLE = "idle"
RUNNING = "running"
CHIMING = "chiming"
FAULT = "fault"


def print_event(name: str, fields: dict) -> None:
    """The default event sink: one line on the console."""
    print("clock:", name, fields)


class ClockApp:
    """The ghost clock's control logic (see the module docstring).

    motor: HBridgeMotor or StepperMotor; switches: Switches whose input
    `button` is the start button; chime: PiezoChime or SolenoidChime;
    settings: the full settings dict (settings.load()) or None for defaults;
    battery, indicator: optional drivers; planner(seed, limits) and
    entropy() are injectable for tests. `on_event` may be replaced at any
    time. After a fault (state "fault") the app stays inert until reset.
    """

    def __init__(self, motor, switches, chime, settings=None, on_event=None, battery=None,
                 indicator=None, planner=None, entropy=None, button: int = 0,
                 max_run_ms: int = HARD_MAX_RUN_MS, store=None) -> None:
        if settings is None:
            import settings as settings_module
            settings = settings_module.defaults("clock")
        cfg = settings["clock"]
        self._motor = motor
        self._switches = switches
        self._chime = chime
        self._battery = battery
        self._indicator = indicator
        self._planner = planner if planner is not None else plan_motion
        self._entropy = entropy if entropy is not None else urandom_seed
        self.on_event = on_event if on_event is not None else print_event  # replaceable sink
        self._button = button
        self.store = store  # the game's store.Store (props.clock.commands saves to it), or None
        self._table: ClockCommands | None = None  # made by commands()
        self.config_errors: list = []
        self.limits = self._limits(cfg)
        self.max_run_ms = self._cap(cfg, max_run_ms)
        self.fixed_seed = cfg["seed"]
        self.battery_min_mv = cfg["battery_min_mv"]
        self.supply_mv = cfg["supply_mv"]  # the motor supply when the pack cannot be read
        self._supply_at = 0                # when the pack was last read for the motor
        self.pack_mv = 0                   # the last reading of the pack (0: not read yet)
        self._deadline_tick = False        # this tick changed segment: no pack reading in it
        # the motor's control tick, at most _SCAN_MS: a slow stepper's tick (500 ms at 2
        # steps/s) would scan the button too rarely to see a press
        tick = getattr(motor, "tick_ms", _SCAN_MS)
        self.tick_ms = tick if tick < _SCAN_MS else _SCAN_MS
        self.chime_kind = "solenoid" if cfg["chime"] == "solenoid" else "piezo"
        self.state = IDLE
        self.round = 0          # rounds started
        self.completed = 0      # rounds that ended with the chime
        self.seed = None
        self.plan: list = []
        self.planned_ms = 0
        self.direction = 0      # hand direction of the current segment: 1, -1, 0
        self._now = 0
        self._ticked = False    # start_round needs the time of at least one tick
        self._round_start = 0
        self._segment = 0
        self._segment_end = 0
        self._stop_at = 0
        self._chime_at = 0
        self._chimed = False
        self._last_dir = 0
        self._hold_while_running = False
        self._event_fields()

    def _limits(self, cfg) -> dict:
        """The round's motion limits from the settings (the defaults, said so, if they are wrong)."""
        try:
            return validate_limits(cfg["limits"])
        except ValueError as exc:
            self.config_errors.append("clock.limits: %s; using the default limits" % exc)
            return dict(DEFAULT_LIMITS)

    @staticmethod
    def _cap(cfg, board_max_ms: int) -> int:
        """The longest a round may run: the smallest of the setting, the board's and HARD_MAX_RUN_MS."""
        cap = HARD_MAX_RUN_MS
        for wanted in (cfg["max_run_ms"], board_max_ms):
            if 0 < wanted < cap:
                cap = wanted
        return cap

    def _event_fields(self) -> None:
        """One reusable fields dict per event, so emitting allocates nothing."""
        self._f_button = {"index": 0, "kind": "pressed"}
        self._f_start = {"round": 0, "seed": 0, "segments": 0, "duration_ms": 0,
                         "max_run_ms": self.max_run_ms}
        self._f_reverse = {"round": 0, "direction": 0, "at_ms": 0}
        self._f_stop = {"round": 0, "at_ms": 0, "planned_ms": 0, "capped": False}
        self._f_chime = {"round": 0, "kind": self.chime_kind}
        self._f_estop = {"round": 0, "at_ms": 0}
        self._f_fault = {"state": IDLE, "error": ""}
        self._f_battery = {"mv": 0, "min_mv": 0}
        self._f_idle = {"round": 0, "completed": 0}

    # --- commands ------------------------------------------------------
    def start_round(self, seed=None) -> None:
        """Start a round now; ValueError (and a battery_low event) if it cannot."""
        if self.state == RUNNING:
            raise ValueError("the hand is already turning: wait for the chime")
        if self.state == CHIMING:
            raise ValueError("the bell is still ringing: start the next round after it")
        if self.state == FAULT:
            raise ValueError("the clock stopped after a fault: switch it off and on again")
        if not self._ticked:
            raise ValueError("the clock is still starting up: try again in a moment")
        if self._battery is not None and self.battery_min_mv > 0:
            mv = self._battery.read_mv()
            if mv < self.battery_min_mv:
                self._refuse_low_battery(mv)
                if mv < OFF_MV:
                    raise ValueError("the battery reads %d.%02d V: the motor supply is off; switch the "
                                     "battery pack on (or check the divider's wires)"
                                     % (mv // 1000, mv % 1000 // 10))
                raise ValueError("battery low: %d.%02d V, the clock needs %d.%02d V; change the batteries"
                                 % (mv // 1000, mv % 1000 // 10,
                                    self.battery_min_mv // 1000, self.battery_min_mv % 1000 // 10))
            self._use_supply(mv, self._now)
        if seed is None:
            seed = self.fixed_seed
        if seed is None:
            seed = self._entropy()
        plan = self._planner(seed, self.limits)
        if not plan:
            raise ValueError("the motion plan is empty")
        now = self._now
        self.seed = seed
        self.plan = plan
        self.planned_ms = plan_length_ms(plan)
        self.round += 1
        self.state = RUNNING
        self._round_start = now
        run_ms = self.planned_ms if self.planned_ms < self.max_run_ms else self.max_run_ms
        self._stop_at = ticks_add(now, run_ms)  # type: ignore[type-var]
        self._segment = 0
        self._segment_end = ticks_add(now, plan[0][0])  # type: ignore[type-var]
        self._last_dir = 0
        self._hold_while_running = False
        f = self._f_start
        f["round"] = self.round
        f["seed"] = seed
        f["segments"] = len(plan)
        f["duration_ms"] = self.planned_ms
        self._emit("start", f)
        if self._indicator is not None:
            self._indicator.on()
        self._motor.wake(now)  # a sleeping bridge needs a moment before the first drive
        self._apply(plan[0][1], now)

    def emergency_stop(self) -> None:
        """Brake at once, no chime, back to idle. When idle nothing runs, so nothing is stopped:
        the motor is braked and released again, but no estop event says a stop happened."""
        self._motor.stop()
        self._chime.silence()
        was = self.state
        if was == IDLE:
            return
        f = self._f_estop
        f["round"] = self.round
        f["at_ms"] = ticks_diff(self._now, self._round_start) if was == RUNNING else 0
        self._emit("estop", f)
        self._to_idle()

    def snapshot(self) -> dict:
        """State for the host link: state, round numbers, hand, times (allocates; not for ticks)."""
        running = self.state == RUNNING
        elapsed = ticks_diff(self._now, self._round_start) if running else 0
        left = ticks_diff(self._stop_at, self._now) if running else 0
        return {
            "state": self.state,
            "round": self.round,
            "completed": self.completed,
            "seed": self.seed,
            "direction": self.direction if running else 0,
            "speed": self._motor.speed,
            "segment": self._segment if running else -1,
            "segments": len(self.plan),
            "elapsed_ms": elapsed,
            "time_left_ms": left if left > 0 else 0,
            "max_run_ms": self.max_run_ms,
            # the pack as last read (at a start, every 2 s while running); null: no divider
            "pack_mv": self.pack_mv if self._battery is not None else None,
        }

    def commands(self) -> dict:
        """The link's command table: the hand and the saved game (props.clock.commands)."""
        if self._table is None:
            self._table = ClockCommands(self, self.store, self._emit)
        return self._table.commands()

    def shutdown(self) -> None:
        """Everything off at once (called when the pump ends for any reason)."""
        self._motor.release()
        self._chime.silence()
        if self._indicator is not None:
            self._indicator.off()

    # --- the tick ------------------------------------------------------
    def tick(self, now: int) -> None:
        """Do everything due at time `now` (ms ticks). Allocates nothing in steady running.

        An exception goes to runtime.Runtime's fault contract: shutdown()
        (motor released, chime silent), then fault(exc).
        """
        self._now = now
        self._ticked = True
        self._deadline_tick = False
        switches = self._switches
        switches.update(now)
        while switches.pending():
            self._on_switch(switches.pop(), now)
        state = self.state
        if state == RUNNING:
            self._advance(now)
        elif state == CHIMING:
            if not self._chimed:
                if ticks_diff(now, self._chime_at) >= 0:
                    self._chimed = True
                    self._chime.start(now)
                    f = self._f_chime
                    f["round"] = self.round
                    self._emit("chime", f)
            elif not self._chime.busy:
                self.completed += 1
                self._to_idle()
        self._motor.update(now)
        self._chime.update(now)
        if self._indicator is not None:
            self._indicator.update(now)
        if (self.state == RUNNING and self._battery is not None and not self._deadline_tick
                and ticks_diff(now, self._supply_at) >= SUPPLY_EVERY_MS
                and self.wait_ms(now) >= self.tick_ms):
            # only in a tick that had no segment change and with no stop or segment end
            # due within the next tick, after the outputs: the reading never delays a
            # deadline (the new duty applies from the next motor update)
            self._use_supply(self._battery.read_mv(), now)

    def wait_ms(self, now: int) -> int:
        """Milliseconds from `now` until the next planned event (stop, segment, chime); the
        runtime wakes for it, so a stop lands on its planned millisecond. At most tick_ms."""
        wait = self.tick_ms
        state = self.state
        if state == RUNNING:
            left = ticks_diff(self._stop_at, now)
            if left < wait:
                wait = left
            if self._segment < len(self.plan) - 1:
                left = ticks_diff(self._segment_end, now)
                if left < wait:
                    wait = left
        elif state == CHIMING and not self._chimed:
            left = ticks_diff(self._chime_at, now)
            if left < wait:
                wait = left
        return wait if wait > 0 else 0

    def flash_ok(self, now: int) -> bool:
        """True when a flash write may stall the chip now (runtime.FLASH_STALL_MS, nothing runs):
        the hand stands unpowered, the bell is quiet and no press is being debounced."""
        return (self.state == IDLE and not self._motor.energised and not self._chime.busy
                and self._switches.settled)

    def _advance(self, now: int) -> None:
        if ticks_diff(now, self._stop_at) >= 0:
            self._stop(now)
            return
        plan = self.plan
        last = len(plan) - 1
        while self._segment < last and ticks_diff(now, self._segment_end) >= 0:
            self._segment += 1
            self._segment_end = ticks_add(self._segment_end, plan[self._segment][0])  # type: ignore[type-var]
            self._apply(plan[self._segment][1], now)
            self._deadline_tick = True

    def _apply(self, speed: int, now: int) -> None:
        self._motor.set_speed(speed)
        direction = 1 if speed > 0 else (-1 if speed < 0 else 0)
        self.direction = direction
        if direction != 0:
            if self._last_dir != 0 and direction != self._last_dir:
                f = self._f_reverse
                f["round"] = self.round
                f["direction"] = direction
                f["at_ms"] = ticks_diff(now, self._round_start)
                self._emit("reverse", f)
            self._last_dir = direction

    def _use_supply(self, mv: int, now: int) -> None:
        """Tell the motor the pack's voltage (a reading of mv; drivers.battery.motor_supply_mv)."""
        self._supply_at = now
        self.pack_mv = mv
        self._motor.set_supply_mv(motor_supply_mv(mv, self.supply_mv))

    def _stop(self, now: int) -> None:
        self._motor.stop()
        self.direction = 0
        self.state = CHIMING
        self._chimed = False
        self._chime_at = ticks_add(now, _CHIME_AFTER_MS)  # type: ignore[type-var]
        f = self._f_stop
        f["round"] = self.round
        f["at_ms"] = ticks_diff(now, self._round_start)
        f["planned_ms"] = self.planned_ms
        f["capped"] = self.planned_ms > self.max_run_ms
        self._emit("stop", f)
        if self._indicator is not None:
            self._indicator.off()

    def _to_idle(self) -> None:
        self.state = IDLE
        self.direction = 0
        f = self._f_idle
        f["round"] = self.round
        f["completed"] = self.completed
        self._emit("idle", f)

    def _on_switch(self, event: int, now: int) -> None:
        if event_index(event) != self._button:
            return
        kind = event_kind(event)
        f = self._f_button
        f["index"] = self._button
        f["kind"] = KIND_NAMES[kind]
        self._emit("button", f)
        if kind == PRESSED:
            if self.state == IDLE:
                try:
                    self.start_round()
                except ValueError:
                    pass  # refused: the battery_low event already says why
            elif self.state == RUNNING:
                self._hold_while_running = True  # ignored, unless held for a long press
        elif kind == LONG:
            if self.state == RUNNING and self._hold_while_running:
                self.emergency_stop()
        elif kind == RELEASED:
            self._hold_while_running = False

    def _refuse_low_battery(self, mv: int) -> None:
        f = self._f_battery
        f["mv"] = mv
        f["min_mv"] = self.battery_min_mv
        self._emit("battery_low", f)
        if self._indicator is not None:
            from drivers.indicator import Indicator
            self._indicator.start(self._now, Indicator.LOW_BATTERY)
        if self.chime_kind == "piezo":
            from drivers.chime import ALARM
            self._chime.start(self._now, ALARM)

    def fault(self, exc) -> None:
        """A tick raised (runtime.Runtime's fault contract: the motor is already released):
        state FAULT and the "fault" event with the state it was in."""
        f = self._f_fault
        f["state"] = self.state
        f["error"] = repr(exc)
        self.state = FAULT
        self._emit("fault", f)

    def _emit(self, name: str, fields: dict) -> None:
        self.on_event(name, fields)
