"""Fuse-box scenarios on the virtual board.

MicroPython only: called through the `vboard_process` fixture, whose
MICROPYPATH has host_tools/propctl/vboard (the fake machine) first. Each
function takes and returns JSON values; the pytest side judges them.
A script is [[t_ms, window, level], ...] of raw sensor pin levels, or
[[t_ms, "open"|"close", window], ...] of clean window moves; actions are
[[t_ms, "cmd", name, args...], ...] of link commands or button presses.
"""
import micropython
from vprops.fusebox.bench import FuseBoxBench


def _bench(overrides, options):
    return FuseBoxBench(overrides, open_at_start=options.get("open_at_start", ()),
                        state_path=options.get("state_path"))


def _outputs(bench):
    return {"red": bench.log_of("led_red"), "green": bench.log_of("led_green"),
            "relay": bench.log_of("relay"), "piezo": bench.log_of("piezo.duty")}


def _play(bench, script, actions, until_ms):
    """Run to until_ms, applying the script and the actions at their times; returns command replies."""
    for item in script:
        if type(item[1]) is str:
            bench.window(item[2], item[1] == "open", item[0])
        else:
            bench.raw(item[1], item[2], item[0])
    replies = []
    todo = sorted(actions, key=lambda a: a[0])
    for action in todo:
        if action[1] == "press":
            bench.press(action[2], action[0])
    for action in todo:
        if action[1] != "cmd":
            continue
        bench.run(action[0] - bench.board.clock.elapsed)
        handler = bench.app.commands()[action[2]][0]
        try:
            replies.append({"t": bench.board.clock.elapsed, "ok": handler(*action[3:])})
        except ValueError as exc:
            replies.append({"t": bench.board.clock.elapsed, "err": str(exc)})
    bench.run(until_ms - bench.board.clock.elapsed)
    return replies


def session(overrides, script, actions, until_ms, options=None):
    """Power up (all windows shut unless options["open_at_start"]), play, report everything."""
    options = options or {}
    bench = _bench(overrides, options)
    error = None
    replies = []
    try:
        replies = _play(bench, script, actions, until_ms)
    except Exception as exc:  # the test shows it; a fuse box must never get here
        error = repr(exc)
    result = {"events": bench.events, "replies": replies, "snapshot": bench.app.state_command(),
              "tick_ms": bench.app.tick_ms, "errors": bench.errors + bench.app.config_errors,
              "error": error, "elapsed": bench.board.clock.elapsed, "overflow": bench.board.overflow}
    result.update(_outputs(bench))
    if bench.chip is not None:
        result["pullups"] = bench.chip.regs[0x0C] | (bench.chip.regs[0x0D] << 8)
        result["iodir"] = bench.chip.regs[0x00] | (bench.chip.regs[0x01] << 8)
        result["mcp_reads"] = bench.chip.reads
    return result


def mcp23017_refuses(pin):
    """What the virtual MCP23017 says when a sensor drives expander pin `pin` (None: accepted)."""
    from fake_mcp23017 import FakeMcp23017
    try:
        FakeMcp23017().drive(pin, 0)
    except ValueError as exc:
        return str(exc)
    return None


def mcp23017_windows():
    """{window 1..8: expander pin 0..15} as the firmware reads them (drivers.switches.mcp23017_pin)."""
    from drivers.switches import mcp23017_pin
    return {str(w): mcp23017_pin(w - 1) for w in range(1, 9)}


def link_session(overrides, lines):
    """The box behind the real link router: request lines in, every line the board sent out."""
    from link.router import Link
    sent = []
    link = Link(sent.append, {"firmware": "test", "prop": "fusebox", "board": "pico"})

    def forward(record):
        fields = {}
        for key in record:
            if key != "event":
                fields[key] = record[key]
        link.event(record["event"], fields)

    bench = FuseBoxBench(overrides)
    bench.echo = forward
    link.add_commands(bench.app.commands())
    bench.run(20)
    for line in lines:
        if line.startswith("open ") or line.startswith("close "):
            word, _, window = line.partition(" ")
            bench.window(int(window), word == "open")
        else:
            link.handle_line(line.encode())
        bench.run(100)
    return [item.decode() if type(item) is not str else item for item in sent]


def bus_gap(overrides, gap_from, gap_to, script, until_ms):
    """The MCP23017 stops answering from gap_from to gap_to (a loose cable); events and the end state."""
    bench = _bench(overrides, {})
    for t, word, window in script:
        bench.window(window, word == "open", t)
    chip = bench.chip
    address = bench.settings["fusebox"]["mcp_address"]
    devices = bench.board.i2c_devices

    def each():
        t = bench.board.clock.elapsed
        if gap_from <= t < gap_to:
            devices.pop(address, None)
        else:
            devices[address] = chip

    error = None
    try:
        bench.run(until_ms, None, each)
    except Exception as exc:
        error = repr(exc)
    return {"events": bench.events, "error": error, "snapshot": bench.app.snapshot()}


class _SetUpWatch:
    """Per runtime pass: is the expander's set-up (directions, pull-ups) in place; when it came back."""

    def __init__(self, bench, off_from, on_at, silent) -> None:
        self.bench = bench
        self.chip = bench.chip
        self.off_from = off_from
        self.on_at = on_at
        self.silent = silent
        self.back = -1         # first pass after on_at with the set-up in place
        self.scans_to_back = -1  # runtime passes (one scan each) from power back to set-up back
        self._on = False

    def _set_up(self) -> bool:
        regs = self.chip.regs
        return regs[0] == 0x7F and regs[1] == 0x7F and regs[0x0C] == 0x7F and regs[0x0D] == 0x7F

    def each(self) -> None:
        t = self.bench.board.clock.elapsed
        chip = self.chip
        if self._on and self.back < 0:
            self.scans_to_back += 1
            if self._set_up():
                self.back = t
        if self.silent:
            if t >= self.on_at and not self._on:
                chip.power_cycle()
                self._on = True
                self.scans_to_back = 0
        elif self.off_from <= t < self.on_at:
            chip.power_off()
        elif t >= self.on_at and not chip.powered:
            chip.power_on()
            self._on = True
            self.scans_to_back = 0


def mcp_power_cycle(overrides, off_from, on_at, script, until_ms, silent=False):
    """The MCP23017 loses power from off_from to on_at (or, silent, browns out at on_at with no
    bus error): when its set-up was back, in time and in scans, and what the box made of it."""
    bench = _bench(overrides, {})
    for t, word, window in script:
        bench.window(window, word == "open", t)
    watch = _SetUpWatch(bench, off_from, on_at, silent)
    error = None
    try:
        bench.run(until_ms, None, watch.each)
    except Exception as exc:
        error = repr(exc)
    return {"events": bench.events, "error": error, "snapshot": bench.app.snapshot(),
            "back_ms": watch.back, "scans": watch.scans_to_back}


# --- no allocation in the hot paths ----------------------------------------

_COUNT = bytearray(2)


def _count_event(name, fields):
    _COUNT[0] = (_COUNT[0] + 1) & 0xFF


def heap_locked_round(overrides, card_id, moves):
    """Select a card normally, then open windows (with bounce) and blow the fuse with the heap locked.

    moves: [[t_ms, window, level], ...] relative to the start of the locked run.
    """
    bench = _bench(overrides, {})
    bench.run(20)
    bench.app.select_card(card_id)
    bench.run(20)
    start = bench.board.clock.elapsed
    for t, window, level in moves:
        bench.raw(window, level, start + t)
    bench.app.on_event = _count_event
    last = moves[-1][0] if moves else 0
    before = _COUNT[0]
    ok = True
    micropython.heap_lock()
    try:
        bench.run(last + 3000)  # through the blown-fuse sound and the relay pulse
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return {"ok": ok, "at": bench.board.clock.elapsed - start, "events": (_COUNT[0] - before) & 0xFF,
            "state": bench.app.state, "sounding": bench.sounding()}



def restart(overrides, state_path, until_ms):
    """Power the box up again on the same state file; what it restored."""
    bench = _bench(overrides, {"state_path": state_path})
    bench.run(until_ms)
    return {"events": bench.events, "snapshot": bench.app.state_command()}
