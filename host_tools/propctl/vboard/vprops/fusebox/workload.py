"""The fuse box's bench workload (MicroPython): what `make bench` runs on this prop.

    heap_round(wiring, pack)   the round bench/mp_firmware.py measures the heap over (a
                               generator; see vprops/clock/workload.py); pack: the card pack
    meter(meters)              the prop's own kinds of work for bench/mp_heap.py
    hot_app(sink)              bench/mp_hotpaths.py's board and app (HOT_PATH names it)
    ROUND                      the round in words, for bench/REPORT.md

Loaded, with this prop's bench.py, before the bench's baseline: not counted.
"""
import vprops.fusebox.bench  # noqa: F401  (the virtual board's side, loaded before the baseline)

ROUND = ("takes a card from the sample pack, opens windows until the fuse blows and the discs "
         "are reported")


def heap_round(wiring, pack):
    from vprops.fusebox.bench import FuseBoxBench
    bench = FuseBoxBench({"fusebox": {"pack": pack}}, capacity=1)
    wiring.plug(bench, bench.app)
    bench.run(300)
    yield
    wiring.ask("new_game", players=4)
    yield
    wiring.ask("select_card", card="GEO-01")
    bench.run(300)
    yield
    window = 0
    while window < 8:  # open the windows one by one; GEO-01's bolt is among them
        bench.window(window, True, at_ms=bench.board.clock.elapsed + 10)
        bench.run(600)
        yield
        if bench.app.state == "blown":
            break
        window += 1
    bench.run(2000)   # the relay and the buzzer end
    yield
    tries = 0
    while bench.app.table.pending() and tries < 16:  # the discs per window; a refused guess retried
        wiring.ask("report_choices", away=[tries % 4 + 1] if tries < 12 else [])
        tries += 1
        yield
    wiring.ask("state")
    bench.run(2000)   # the save is written
    yield


def meter(meters) -> None:
    """Reading the card from the pack."""
    from props.fusebox.cards import CardSlot
    CardSlot.choose = meters.meter("the card: read from the pack", CardSlot.choose)


HOT_PATH = "fuse box tick (windows shut, manual mode)"


def hot_app(sink):
    """The fuse box for bench/mp_hotpaths.py: a fresh board and the app, no pack."""
    import settings
    import vboard
    from props import fusebox
    cfg, _ = settings.merge({"fusebox": {"pack": ""}})
    board = vboard.new_board(0, 1)
    return board, fusebox.build(cfg, sink)
