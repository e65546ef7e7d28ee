"""The football box's bench workload (MicroPython): what `make bench` runs on this prop.

    heap_round(wiring, pack)   the game bench/mp_firmware.py measures the heap over (a
                               generator; see vprops/clock/workload.py); pack unused here
    meter(meters)              the prop's own kinds of work for bench/mp_heap.py
    hot_app(sink)              bench/mp_hotpaths.py's board and app (HOT_PATH names it)
    ROUND                      the game in words, for bench/REPORT.md

Loaded, with this prop's bench.py, before the bench's baseline: not counted.
"""
import vprops.football.bench  # noqa: F401  (the virtual board's side, loaded before the baseline)

ROUND = "plays a whole random game (seed 5) through its commands and the 3-second count"


def heap_round(wiring, pack):
    from rules.rng import Rng
    from vprops.football.bench import FootballBench
    bench = FootballBench({"football": {"seed": 5}}, capacity=1)
    app = bench.app
    wiring.plug(bench, app)
    yield
    rng = Rng(5)
    steps = 0
    # Random legal play through the box's commands, with ticks in between;
    # kicks go through the real 3-second count.
    while app.game.state["phase"] != "over" and steps < 5000:
        steps += 1
        name, kind, options = rng.choice(app.game.actions())
        if name in ("toss", "roll"):
            wiring.ask("roll")
        elif name in ("field_goal", "extra_point") or app.game.state["phase"] in (
                "field_goal", "extra_point"):
            wiring.ask("kick_start")
            yield
            bench.run(500 + rng.below(3000))
            yield
            wiring.ask("report", action="good" if rng.below(2) else "no_good")
        elif kind == "pick":
            wiring.ask("report", action=name, pick=rng.choice(options))
        elif kind == "yards":
            wiring.ask("report", action=name, yards=rng.between(options[0], options[1]))
        else:
            wiring.ask("report", action=name)
        bench.run(100)
        yield
    bench.run(1000)   # the last save is written
    yield


def meter(meters) -> None:
    """The scoreboard (its view and render) and the referee (the rules engine)."""
    from props.football.app import FootballApp
    FootballApp._refresh = meters.meter("the scoreboard: view and render", FootballApp._refresh)
    FootballApp._act = meters.meter("the referee: rules engine", FootballApp._act)


HOT_PATH = "football box tick (waiting for the toss)"


def hot_app(sink):
    """The football box for bench/mp_hotpaths.py: a fresh board and the app (LED display)."""
    import settings
    import vboard
    from props import football
    cfg, _ = settings.merge({"prop": "football", "football": {"display": "leds", "seed": 3}})
    board = vboard.new_board(0, 1)
    return board, football.build(cfg, sink)
