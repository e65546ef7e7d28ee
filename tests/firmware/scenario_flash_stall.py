"""Flash writes that stall the virtual board (vflash.FlashFs), placed by the runtime (MicroPython).

Every prop runs as link.startup runs it: the app saves to a store with
later=True, the runtime writes that store and the boot guard's counter. Each
scenario takes `folder` (a path prefix for the flash's files), `stall_ms`
(what one flash write costs) and the prop's `watchdog_ms`, and returns what the tests judge: events, output
logs, the stalls and where they fell, watchdog resets, what was saved.
"""
import safemode
from props import clock as clock_prop
from props import football as football_prop
from props import fusebox as fusebox_prop
from scenario_football_box import _to_own_field_goal_range
from store import Store
from vflash import FlashFs
from vprops.clock.bench import ClockBench
from vprops.football.bench import FootballBench
from vprops.fusebox.bench import FuseBoxBench


def _flash(folder, state_file):
    """The board's flash: a later store for the prop, the boot guard (this boot counted)."""
    fs = FlashFs(folder)
    guard = safemode.BootGuard(safemode.DEFAULT_PATH, fs=fs)
    return fs, Store(state_file, fs, later=True), guard


def _outcome(bench, store, guard):
    board = bench.board
    return {"stalls": board.stalls, "resets": board.resets, "saved": store.load(),
            "waiting": store.waiting is not None, "boot_count": guard.count(),
            "events": bench.events}


def clock_round(folder, stall_ms, watchdog_ms):
    """A round started at 100 ms, so the boot guard's write (stable after 1 s) falls in it, and
    new_game and report requests while the hand turns and while the bell rings."""
    fs, store, guard = _flash(folder, clock_prop.STATE_FILE)
    bench = ClockBench({"clock": {"seed": 5, "watchdog_ms": watchdog_ms}}, store=store)
    board = bench.board
    board.flash_stall_ms = stall_ms
    guard.begin()   # as main.py does, before the prop runs
    bench.write_flash(store, guard)
    commands = bench.app.commands()

    def new_game():
        commands["new_game"][0](3)

    def report():
        commands["report"][0]([0, 1, 0], [1, 0, 1])

    def on_event(record):
        name = record["event"]
        if name == "start":
            t = record["t"]
            board.call_at(t + 400, new_game)
            board.call_at(t + record["duration_ms"] - 150, new_game)
        elif name == "stop":
            board.call_at(record["t"] + 120, report)   # the bell rings from 100 ms after the stop

    bench.echo = on_event
    bench.press(at_ms=100)
    bench.run_round(settle_ms=3000)
    seen = _outcome(bench, store, guard)
    seen["chime_log"] = [e for e in board.log() if e[1].startswith(str(bench.pins["piezo"]))]
    return seen


def fusebox_blow(folder, stall_ms, watchdog_ms):
    """Manual mode with a 1 s relay pulse: a new game, window 3 opens, the bolt button blows the
    fuse; the game master reports the discs 900 ms later, while the relay and the buzzer are on."""
    fs, store, guard = _flash(folder, fusebox_prop.STATE_FILE)
    bench = FuseBoxBench({"fusebox": {"relay": True, "relay_ms": 1000, "watchdog_ms": watchdog_ms}})
    board = bench.board
    board.flash_stall_ms = stall_ms
    guard.begin()
    bench.write_flash(store, guard)
    commands = bench.app.commands()
    board.call_at(200, lambda: commands["new_game"][0](3))
    bench.window(2, True, at_ms=3000)
    bench.press("btn_bolt", at_ms=3200, hold_ms=600)   # held longer than a stall: never missed

    def report():
        commands["report_choices"][0]([2])

    def on_event(record):
        if record["event"] == "fuse_blown":
            board.call_at(record["t"] + 900, report)

    bench.echo = on_event
    bench.run(6000)
    seen = _outcome(bench, store, guard)
    seen["relay"] = bench.log_of("relay")
    seen["piezo"] = bench.log_of("piezo.duty")
    return seen


def fusebox_windows(folder, stall_ms, watchdog_ms, last_ms, saves):
    """Manual mode: `saves` new_game requests, each followed 10 ms later by window 1 opening
    for last_ms (then closing); 1500 ms between them. Every change must come out as an event."""
    fs, store, guard = _flash(folder, fusebox_prop.STATE_FILE)
    bench = FuseBoxBench({"fusebox": {"watchdog_ms": watchdog_ms}})
    board = bench.board
    board.flash_stall_ms = stall_ms
    guard.begin()
    bench.write_flash(store, guard)
    commands = bench.app.commands()
    i = 0
    while i < saves:
        at = 2000 + 1500 * i
        board.call_at(at, lambda: commands["new_game"][0](2))
        bench.window(0, True, at_ms=at + 10)
        bench.window(0, False, at_ms=at + 10 + last_ms)
        i += 1
    bench.run(2000 + 1500 * saves + 1000)
    seen = _outcome(bench, store, guard)
    seen["windows"] = [[e["t"], e["open"]] for e in bench.events if e["event"] == "window"
                       and e["window"] == 1]
    return seen


def football_kick(folder, stall_ms, watchdog_ms, seed):
    """A field goal by the kick button; saved games before, at the kick and after it."""
    fs, store, guard = _flash(folder, football_prop.STATE_FILE)
    bench = FootballBench({"football": {"seed": seed, "watchdog_ms": watchdog_ms}})
    board = bench.board
    board.flash_stall_ms = stall_ms
    guard.begin()
    bench.write_flash(store, guard)
    bench.run(1200)   # the first save (a fresh game) and the boot guard's write are done
    _to_own_field_goal_range(bench)
    bench.run(2000)
    press = bench.press("kick", at_ms=board.clock.elapsed + 50)
    bench.run(5000)
    seen = _outcome(bench, store, guard)
    seen["press"] = press
    seen["tones"] = bench.tones()
    seen["piezo"] = [e for e in board.log() if e[1] == str(bench.pins["piezo"]) + ".duty"]
    return seen


def flash_model(folder, stall_ms):
    """What vflash charges: a 5,000-byte file written in two pieces, a rename, a remove, a read."""
    import vboard
    board = vboard.new_board()
    if stall_ms is not None:
        board.flash_stall_ms = stall_ms
    fs = FlashFs(folder)
    seen = []
    with fs.open("a.bin", "wb") as f:
        f.write(b"x" * 3000)
        seen.append(board.clock.elapsed)
        f.write(b"y" * 2000)
        seen.append(board.clock.elapsed)
    fs.rename("a.bin", "b.bin")
    seen.append(board.clock.elapsed)
    with fs.open("b.bin", "rb") as f:
        size = len(f.read())
    seen.append(board.clock.elapsed)
    fs.remove("b.bin")
    seen.append(board.clock.elapsed)
    return {"elapsed": seen, "size": size, "stalls": board.stalls}
