"""The ghost clock's bench workload (MicroPython): what `make bench` runs on this prop.

    heap_round(wiring, pack)   the round bench/mp_firmware.py measures the heap over: a
                               generator, yielding between the steps (a request, a stretch
                               of board time); wiring is mp_firmware.Wiring (the link, the
                               self-test, a store that writes later), pack unused here
    meter(meters)              (optional; none here: the clock's work is the runtime's
                               passes, which bench/mp_heap.py meters for every prop) the
                               prop's own kinds of work, metered on its classes
    hot_app(sink)              bench/mp_hotpaths.py's board and app (HOT_PATH names it);
                               hot_due(app) and hot_start(app): rounds back to back
    ROUND                      the round in words, for bench/REPORT.md

bench/ finds this module by the prop's name (vprops/NAME/workload.py, NAME from the
firmware's props.NAMES); a prop without one is listed as having no bench workload.
Loaded, with this prop's bench.py, before the bench's baseline: not counted.
"""
import vprops.clock.bench  # noqa: F401  (the virtual board's side, loaded before the baseline)

ROUND = "plays a round (seed 3), then a new game and the players' report"


def heap_round(wiring, pack):
    from vprops.clock.bench import ClockBench
    bench = ClockBench({"clock": {"seed": 3}}, capacity=1, store=wiring.store)
    wiring.plug(bench, bench.app)
    yield
    wiring.ask("new_game", players=3)
    yield
    bench.press(at_ms=100)
    while bench.app.state == "idle":
        bench.run(100)
    while bench.app.state != "idle":   # the round, in steps of 500 ms
        bench.run(500)
        yield
    wiring.ask("report", on_clock=[0, 1, 0], unused=[1, 0, 1])
    yield
    wiring.ask("state")
    yield
    bench.run(2000)   # the save is written
    yield


HOT_PATH = "clock tick (whole rounds)"


def hot_app(sink):
    """The clock for bench/mp_hotpaths.py: a fresh board and the app, with the divider wired
    (ticks read the pack every 2 s and rescale the motor's duty: voltage compensation)."""
    import settings
    import vboard
    from props import clock
    cfg, _ = settings.merge({"clock": {"seed": 3, "battery_min_mv": 3000}})
    board = vboard.new_board(0, 1)
    return board, clock.build(cfg, sink)


def hot_due(app) -> bool:
    """Rounds back to back: idle, so the next tick needs hot_start first (allocation-free)."""
    return app.state == "idle"


def hot_start(app) -> None:
    """Starting a round builds the plan (a list): bench/mp_hotpaths.py lifts the heap lock for
    this call only; the ticks themselves stay locked."""
    app.start_round(3)
