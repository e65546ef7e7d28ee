"""The fuse box on a virtual board, ready to run: used by the sim runner and the tests.

    bench = FuseBoxBench({"fusebox": {"pack": "deck.bin"}})   # all windows shut at power-up
    bench.window(2, True, at_ms=100)         # window 3 opens 100 ms into the run (raw level)
    bench.press("btn_next", at_ms=200)       # a button
    bench.run(500)                           # virtual time, one scan per tick_ms (runtime.Runtime)
    bench.events                             # [{"event": "window", "t": 120, ...}, ...]
    bench.level("led_red"), bench.sounding()

The sensors are wired as the board profile says: on GPIOs, or on a
FakeMcp23017 when settings choose "mcp23017" (window i on the expander pin
the firmware reads as input i, drivers.switches.mcp23017_pin). The app runs
in the firmware's runtime.Runtime (bench.runtime, with the prop's watchdog)
in virtual time: vboard.Board.run; scripted sensor levels are applied as
board time passes. Runs under MicroPython with this folder before
firmware/lib on MICROPYPATH.
"""
import vboard
from fake_mcp23017 import FakeMcp23017

# The firmware is imported when a bench is built (as in vprops/clock/bench.py).


class FuseBoxBench:
    """Fresh board + FuseBoxApp built by props.fusebox.build (see the module docstring)."""

    def __init__(self, overrides=None, start_ms: int = 0, capacity: int = 20000, echo=None,
                 open_at_start=(), state_path=None, pack_stream=None) -> None:
        from drivers.switches import mcp23017_pin
        from props import fusebox as fusebox_prop
        from runtime import watchdog
        self.board = vboard.new_board(start_ms, capacity)
        data = {}
        for key in overrides or {}:
            value = overrides[key]
            data[key] = dict(value) if type(value) is dict else value
        data.setdefault("fusebox", {}).setdefault("pack", "")  # no pack unless asked for
        cfg, errors = vboard.boot_settings(data, "fusebox")
        self.settings = cfg
        self.errors = errors
        self.echo = echo
        self.events: list = []
        c = cfg["fusebox"]
        self.pins = vboard.board_tables(cfg["board"], "fusebox")[0]
        self.open_when_active = c["open_when_active"]
        self.chip = None
        if c["inputs"] == "mcp23017":
            self.chip = FakeMcp23017()
            self.board.i2c_devices[c["mcp_address"]] = self.chip
        self._script: list = []   # [elapsed_ms, window, level], sorted
        self._next = 0            # first entry of _script not applied yet
        self._window_pins = [self.pins["window%d" % (i + 1)] for i in range(8)]  # no formatting per scan
        self._chip_pins = [mcp23017_pin(i) for i in range(8)]
        i = 0
        while i < 8:
            self._set_raw(i, self._level(i in open_at_start))
            i += 1
        store = None
        if state_path:
            from store import Store
            store = Store(state_path)
        self.app = fusebox_prop.build(cfg, self._event, store, pack_stream=pack_stream)
        self.runtime = self.board.runtime(self.app, watchdog(cfg, "fusebox"), self._pass_ms)

    # --- inputs --------------------------------------------------------------
    def _level(self, is_open: bool) -> int:
        """Pin level of a sensor: active (closed switch) pulls the pin to 0."""
        active = is_open if self.open_when_active else not is_open
        return 0 if active else 1

    def _set_raw(self, window: int, level: int) -> None:
        if self.chip is not None:
            # a switch to GND: closed pulls the pin low, open leaves it to the chip's pull-up
            if level:
                self.chip.release(self._chip_pins[window])
            else:
                self.chip.drive(self._chip_pins[window], 0)
        else:
            self.board.set_input(self._window_pins[window], level)

    def window(self, index: int, is_open: bool, at_ms=None) -> None:
        """Window `index` (0..7) reads open/closed from at_ms (default: now) on, without bounce."""
        self.raw(index, self._level(is_open), at_ms)

    def raw(self, index: int, level: int, at_ms=None) -> None:
        """Window sensor `index` reads pin level `level` from at_ms on (bounce scripts)."""
        if at_ms is None:
            at_ms = self.board.clock.elapsed
        done = self._script[:self._next]
        todo = self._script[self._next:] + [[at_ms, index, level]]
        todo.sort(key=lambda item: item[0])
        self._script = done + todo

    def level_for(self, is_open: bool) -> int:
        """The raw level a sensor shows for an open (True) or closed window."""
        return self._level(is_open)

    def press(self, button: str, at_ms=None, hold_ms: int = 80) -> None:
        """Press btn_next, btn_prev or btn_bolt at at_ms (default: now) for hold_ms."""
        if at_ms is None:
            at_ms = self.board.clock.elapsed
        self.board.press(self.pins[button], at_ms, hold_ms)

    def apply(self) -> None:
        """Apply every scripted sensor level and button change that is due."""
        now = self.board.clock.elapsed
        script = self._script
        # a cursor, not pop(0): a shrinking list reallocates, and scans run with the heap locked
        while self._next < len(script) and script[self._next][0] <= now:
            item = script[self._next]
            self._next += 1
            self._set_raw(item[1], item[2])
        self.board.apply_inputs()

    # --- running ---------------------------------------------------------------
    def write_flash(self, store=None, guard=None) -> None:
        """Run as link.startup runs a prop: the app saves to `store` (made with later=True) and the
        runtime writes it and the boot guard's counter, each write where the app allows it
        (runtime.Runtime). Use a vflash.FlashFs for the stall."""
        from runtime import watchdog
        if store is not None:
            self.app.store = store
        self.runtime = self.board.runtime(self.app, watchdog(self.settings, "fusebox"),
                                          self._pass_ms, guard=guard,
                                          stores=(store,) if store is not None else ())

    def _event(self, name, fields) -> None:
        record = dict(fields)  # the app reuses its fields dicts
        record["event"] = name
        record["t"] = self.board.clock.elapsed
        self.events.append(record)
        if self.echo is not None:
            self.echo(record)

    def _pass_ms(self, ms: int) -> None:
        """The runtime's wait: board time passes, then the scripted sensor levels due apply."""
        self.board.pass_ms(ms)
        self.apply()

    def run(self, ms: int, until=None, each=None) -> int:
        """Runtime passes, one scan each, for ms of virtual time or until until() (see
        vboard.Board.run). Allocates nothing itself: scans run with the heap locked."""
        self.apply()
        return self.board.run(self.runtime, ms, until, each)

    # --- outputs ---------------------------------------------------------------
    def names(self) -> list:
        """Event names so far, in order."""
        return [e["event"] for e in self.events]

    def level(self, name: str) -> int:
        """Last level written to output `name` of the profile (led_red, led_green, relay); 0 if never."""
        return self._last(str(self.pins[name]), 0)

    def sounding(self) -> bool:
        """True while the piezo is driven (duty above 0)."""
        return self._last(str(self.pins["piezo"]) + ".duty", 0) > 0

    def _last(self, signal: str, default: int) -> int:
        value = default
        for _, name, level in self.board.log():
            if name == signal:
                value = level
        return value

    def log_of(self, name: str) -> list:
        """[[t, signal, value], ...] of one output (suffix ".duty" / ".freq" for PWM signals)."""
        pin, _, part = name.partition(".")
        signal = str(self.pins[pin]) + ("." + part if part else "")
        return [entry for entry in self.board.log() if entry[1] == signal]
