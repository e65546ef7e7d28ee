"""The virtual board: clock, signal recorder, inputs and devices behind the fake `machine`.

Runs under the MicroPython unix port (and CPython). The fake machine.py in
this folder asks `vboard.current()` for the board; tests and the sim runner
make a fresh one with `vboard.new_board(...)` before building any firmware.

    board = vboard.new_board(start_ms=0, capacity=100000)   # start_ms: the ticks value at power-up
    board.clock.advance(10)            # virtual time; board.clock.elapsed = ms since start
                                       # (ticks wrap at 2^30 as on a board: see time.py here)
    board.clock.run_real(speed)        # or follow real time, `speed` times faster
    board.set_input(14, 0)             # force an input pin (0 = pressed, to GND); clear_input(14)
    board.press(14, at_ms=500, hold_ms=100)   # scheduled; applied by apply_inputs() / pass_ms()
    board.set_adc_mv(26, 2000)         # millivolts on an ADC pin (board.adc_full_mv = 65535)
    board.set_battery_mv(3000)         # the pack (default: fresh 3 x AA, or $VBOARD_BATTERY_MV):
                                       # it feeds the motor (physics.py watches signal
                                       # "battery_mv"), and an ADC pin with no mV of its own reads
                                       # it through board.battery_divider_permille (2000)
    board.i2c_devices[0x20] = device   # anything with readfrom_mem_into(reg, buf)/writeto_mem(reg, data)
    board.watch(callback)              # callback(signal_index, value, elapsed_ms) on every change
    rt = board.runtime(app, wdt=None)  # the firmware's runtime.Runtime, waits move board time
    board.run(rt, 5000, until=None, each=None)  # its passes for 5 s of board time (virtual)
    board.call_at(1234, fn)            # fn() at 1234 ms, between two ticks (a link request)
    board.log()                        # [[elapsed_ms, signal_name, value], ...]
    board.tripped = RuntimeError("x")  # the firmware's next output write raises it (fault injection)
    board.check_watchdog()             # a machine.WDT not fed in time resets the board
    board.flash_stall_ms = 400         # each flash write (vflash.FlashFs) stalls board time this
                                       # long: default 45, $VBOARD_FLASH_STALL_MS; board.stalls

Every output change (pin level, PWM duty, PWM frequency) is stored with the
elapsed virtual time in preallocated arrays, so recording allocates nothing
(firmware hot paths stay provable with micropython.heap_lock()); past
`capacity` entries recording stops and `overflow` is set.
Signals are named "<pin>" (level), "<pin>.duty" (duty_u16), "<pin>.freq";
a reset records -1 (floating) for every driven output.

Virtual time goes through the firmware's own loop, runtime.Runtime, as on a
board: each pass ticks the app, feeds the watchdog and waits until the app's
next deadline (at most its tick_ms); the wait is pass_ms, which moves board
time on, applies the scheduled inputs and checks the watchdog. Another prop's
tests follow vprops/clock/bench.py: new_board(), attach a physics model or watcher,
build the app with its real build(settings, on_event), make its runtime
(runtime(app, wdt=runtime.watchdog(settings, name))) and run(rt, ...) it.
"""
import array
import time

_CURRENT = [None]
FRESH_3XAA_MV = 4650  # three fresh alkaline AA cells, 1.55 V each
FLASH_STALL_MS = 45   # a 4 KB sector's erase and program on a Pico's W25Q16, typically (400 at worst)


def _battery_mv_from_env() -> int:
    raw = time.host_env("VBOARD_BATTERY_MV")  # the virtual board's time module (vboard/time.py)
    return int(raw) if raw else FRESH_3XAA_MV


def _flash_stall_ms_from_env() -> int:
    raw = time.host_env("VBOARD_FLASH_STALL_MS")
    return int(raw) if raw else FLASH_STALL_MS


class Clock:
    """Virtual milliseconds: ticks_ms-style values from `origin`, moved by advance().

    With run_real(speed) the clock follows the host's real time times
    `speed` instead (for the real-time sim).
    """

    def __init__(self, origin: int = 0) -> None:
        self.origin = origin
        self.elapsed = 0
        self._real = False
        self._speed = 1
        self._real0 = 0
        self._rest_us = 0

    def now(self) -> int:
        """Current ticks value (wraps like time.ticks_ms)."""
        if self._real:
            # Microseconds, so a fast-forwarded clock still moves in small steps; summed from each
            # reading to the next, since one ticks_diff over a whole session turns negative after
            # 2^29 us (9 minutes) of the host's wrapping counter.
            real = time.ticks_us()
            step = time.ticks_diff(real, self._real0) * self._speed + self._rest_us
            self._real0 = real
            self.elapsed += step // 1000
            self._rest_us = step % 1000
        return time.ticks_add(self.origin, self.elapsed)

    def advance(self, ms: int) -> None:
        """Move virtual time forward."""
        self.elapsed += ms

    def run_real(self, speed: int = 1) -> None:
        """From now on follow real time, `speed` times faster."""
        self._rest_us = 0
        self._real0 = time.ticks_us()
        self._speed = speed
        self._real = True


class Board:
    """One virtual board (see the module docstring)."""

    def __init__(self, start_ms: int = 0, capacity: int = 100000) -> None:
        self.clock = Clock(start_ms)
        self.capacity = capacity
        self._t = array.array("i", bytes(4 * capacity))
        self._sig = array.array("H", bytes(2 * capacity))
        self._val = array.array("i", bytes(4 * capacity))
        self.count = 0
        self.overflow = False
        self.names = []        # signal index -> name
        self._index = {}       # name -> signal index
        self.outputs = []      # machine objects that drive something (for resets)
        self.inputs = {}       # pin id -> level forced from outside
        # Inputs with an external pull-up as the wiring tables wire them: the ESP32's input-only
        # GPIO 34-39 have no internal pull (boardprofiles.py "no_pull"), so a 10k to 3V3 holds each high.
        self.pulled_up = (34, 35, 36, 37, 38, 39)
        self.adc_mv = {}       # pin id -> millivolts at the pin
        self.adc_full_mv = 3300  # millivolts that read as 65535
        # The battery pack: the motor's supply, and what an ADC pin without adc_mv of its own
        # sees through the divider (the battery is the props' only analogue input).
        self.battery_mv = _battery_mv_from_env()
        self.battery_divider_permille = 2000
        self.i2c_devices = {}
        self.watchers = []
        self.wdt_timeout = 0
        self.wdt_fed_at = 0
        self.resets = 0        # watchdog or machine.reset()
        self.reset_reason = ""
        self.tripped = None    # exception raised into firmware on the next pin write (fault injection)
        self._plan = []        # scheduled input changes: [elapsed_ms, pin, level or None]
        self._calls = []       # calls between ticks: [elapsed_ms, fn] (call_at)
        self.world = None      # world.World on a served board with vboard_world.json
        self.flash_stall_ms = _flash_stall_ms_from_env()  # per flash write (vflash.py)
        self.stalls = []       # [elapsed_ms at the start, ms] of each flash stall (up to capacity)
        self.stalled_ms = 0    # all stalls' time, also past capacity

    # --- signals -------------------------------------------------------
    def signal(self, name: str) -> int:
        """Index of a signal name, registering it the first time."""
        index = self._index.get(name)
        if index is None:
            index = len(self.names)
            self.names.append(name)
            self._index[name] = index
        return index

    def record(self, sig: int, value: int) -> None:
        """Store one change of a firmware output at the current elapsed time and tell the watchers."""
        if self.tripped is not None:
            exc = self.tripped
            self.tripped = None
            raise exc
        self._store(sig, value)

    def _store(self, sig: int, value: int) -> None:
        self.clock.now()
        t = self.clock.elapsed
        n = self.count
        if n < self.capacity:
            self._t[n] = t
            self._sig[n] = sig
            self._val[n] = value
            self.count = n + 1
        else:
            self.overflow = True
        for watcher in self.watchers:
            watcher(sig, value, t)

    def watch(self, callback) -> None:
        """Call callback(signal_index, value, elapsed_ms) on every recorded change."""
        self.watchers.append(callback)

    def log(self, since: int = 0) -> list:
        """Recorded changes as [elapsed_ms, name, value] lists, from entry `since` on."""
        out = []
        i = since
        while i < self.count:
            out.append([self._t[i], self.names[self._sig[i]], self._val[i]])
            i += 1
        return out

    # --- inputs --------------------------------------------------------
    def set_input(self, pin, level: int) -> None:
        """Force what an input pin reads (until clear_input)."""
        self.inputs[pin] = level

    def clear_input(self, pin) -> None:
        """Let an input pin read its pull resistor again."""
        self.inputs.pop(pin, None)

    def set_adc_mv(self, pin, mv: int) -> None:
        """Millivolts on an ADC pin."""
        self.adc_mv[pin] = mv

    def set_battery_mv(self, mv: int) -> None:
        """The pack's voltage from now on: recorded as signal "battery_mv", so a motor model
        (physics.py) takes the new supply at this millisecond (a discharge, a switched-off pack)."""
        self.battery_mv = mv
        self._store(self.signal("battery_mv"), mv)

    def schedule_input(self, at_ms: int, pin, level) -> None:
        """At elapsed time at_ms, force input `pin` to `level` (None: back to its pull)."""
        self._plan.append([at_ms, pin, level])
        self._plan.sort(key=lambda item: item[0])

    def press(self, pin, at_ms: int, hold_ms: int = 100, active: int = 0) -> None:
        """Schedule a button press: `pin` reads `active` from at_ms for hold_ms."""
        self.schedule_input(at_ms, pin, active)
        self.schedule_input(at_ms + hold_ms, pin, None)

    def apply_inputs(self) -> None:
        """Apply every scheduled input change that is due."""
        while self._plan and self._plan[0][0] <= self.clock.elapsed:
            _, pin, level = self._plan.pop(0)
            if level is None:
                self.clear_input(pin)
            else:
                self.set_input(pin, level)

    def call_at(self, at_ms: int, fn) -> None:
        """At elapsed time at_ms, while the runtime waits between two ticks, call fn() (a link
        request arriving at that millisecond; a call due at a tick's own time comes before it)."""
        self._calls.append([at_ms, fn])
        self._calls.sort(key=lambda item: item[0])

    # --- the flash ---------------------------------------------------------
    def stall(self, ms: int) -> None:
        """A flash write: board time jumps ms on with nothing run, scanned or switched meanwhile
        (interrupts off); scheduled inputs and calls that fell due are seen only afterwards."""
        if len(self.stalls) < self.capacity:
            self.stalls.append([self.clock.elapsed, ms])
        self.stalled_ms += ms
        self.clock.advance(ms)

    # --- virtual time through the firmware's runtime ---------------------
    def runtime(self, app, wdt=None, sleep_ms=None, guard=None, stores=()):
        """runtime.Runtime for `app` in this board's virtual time (the loop main.py runs): the
        board's clock; each wait moves board time on by pass_ms (or by sleep_ms, which calls it),
        at least 1 ms, since virtual time moves only while the runtime waits. guard and stores
        as on a board (their writes wait for a moment the app allows). Pump it with run()."""
        from runtime import Runtime
        return Runtime(app, clock=self.clock.now, sleep_ms=sleep_ms or self.pass_ms, wdt=wdt,
                       guard=guard, stores=stores, min_wait_ms=1)

    def run(self, runtime, duration_ms: int, until=None, each=None) -> int:
        """Virtual time: runtime.step() pass after pass (tick, watchdog, wait until the app's
        next deadline) for duration_ms of board time or until until() is true.

        Calls and scheduled inputs due now come first; each() and then until() run after
        every pass, its tick and its wait. The last wait may end past duration_ms: a run
        stops between two passes, so running in chunks never moves a tick. Returns the
        elapsed time at the end (the next tick's). Allocates nothing itself.
        """
        clock = self.clock
        end = clock.elapsed + duration_ms
        self.pass_ms(0)  # what is due now (calls, inputs) comes before the first tick
        while clock.elapsed < end:
            runtime.step()
            if each is not None:
                each()
            if until is not None and until():
                break
        return clock.elapsed

    def pass_ms(self, ms: int) -> None:
        """Let ms of board time pass (the virtual runtime's sleep): calls (call_at) are made at
        their millisecond, then the scheduled inputs due are applied and the watchdog checked."""
        clock = self.clock
        end = clock.elapsed + ms
        calls = self._calls
        while calls and calls[0][0] <= end:
            at, fn = calls.pop(0)
            if at > clock.elapsed:
                clock.advance(at - clock.elapsed)
            self.apply_inputs()
            fn()
        if end > clock.elapsed:  # a call may have stalled the board past the end (vflash)
            clock.advance(end - clock.elapsed)
        self.apply_inputs()
        self.check_watchdog()

    # --- watchdog and reset -------------------------------------------
    def check_watchdog(self) -> bool:
        """If a started watchdog was not fed in time, reset the board; True if it fired."""
        if self.wdt_timeout and time.ticks_diff(self.clock.now(), self.wdt_fed_at) > self.wdt_timeout:
            self.reset("watchdog")
            return True
        return False

    def reset(self, reason: str) -> None:
        """A chip reset: every output floats (recorded as -1; bridge inputs then read low)."""
        self.resets += 1
        self.reset_reason = reason
        self.wdt_timeout = 0
        for output in self.outputs:
            output._float()


def new_board(start_ms: int = 0, capacity: int = 100000) -> Board:
    """Make a fresh board the current one (every later machine object uses it)."""
    board = Board(start_ms, capacity)
    _CURRENT[0] = board
    return board


def boot_settings(data, prop: str) -> tuple:
    """settings.merge(data) with `prop`'s specs only (what a board's settings.load makes of a
    config.json naming it: no other prop's modules loaded), then the settings module
    forgotten before the prop is built, as firmware/main.py forgets it: the benches boot a prop
    in the board's order, so the heap bench sees what a board holds (docs/heap.md)."""
    import gc
    import sys

    import settings
    merged = settings.merge(data, settings.specs(prop))
    del sys.modules["settings"]
    gc.collect()
    return merged


def board_tables(board_name: str, prop: str) -> tuple:
    """(pin profile, limits) of boardprofiles.profile/.limits, forgotten after: a
    board loads it only while its prop is built (props.pins), above the prop's code, so a
    bench that reads the pins first does not hold it under the build (docs/heap.md)."""
    import gc
    import sys

    import boardprofiles
    tables = boardprofiles.profile(board_name, prop), boardprofiles.limits(board_name)
    del sys.modules["boardprofiles"]
    gc.collect()
    return tables


def current() -> Board:
    """The current board (made on first use with a small log, e.g. for `propctl sim --serve`)."""
    if _CURRENT[0] is None:
        board = new_board(capacity=2000)
        try:
            open("vboard_world.json").close()  # a served board with its world (world.py)
        except OSError:
            return board
        import world
        board.world = world.attach(board)
    return _CURRENT[0]


def emit(obj) -> None:
    """One JSON line on stdout: how every runner (run_*.py) talks to the host."""
    import json
    import sys
    sys.stdout.write(json.dumps(obj))
    sys.stdout.write("\n")


def read_overrides(path: str):
    """The settings overrides a runner was given, from the JSON file at `path` (the runners'
    --overrides FILE: the unix port interns each argument as a qstr, at most 255 bytes)."""
    import json
    with open(path) as f:
        return json.load(f)


class StdinLines:
    """The lines a host writes to a runner's stdin (a person's keys), read between ticks
    without blocking; `closed` once the host went away."""

    def __init__(self) -> None:
        import select
        import sys
        self._stdin = sys.stdin
        self._poller = select.poll()
        self._poller.register(sys.stdin, select.POLLIN)
        self.closed = False

    def ready(self) -> list:
        """Every whole line waiting now (allocates: for the runner, not the firmware)."""
        lines = []
        while not self.closed and self._poller.poll(0):
            line = self._stdin.readline()
            if not line:
                self.closed = True
                break
            lines.append(line)
        return lines
