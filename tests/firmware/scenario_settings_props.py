"""Any config on the virtual board: settings.merge under MicroPython, then the real prop runs a round.

MicroPython only (the `vboard_process` fixture). Each function takes the raw
overrides a config.json could hold, builds the prop exactly as a board does
(through settings.merge and the prop's build()), plays one round and reports
whether anything raised, plus what the pytest side needs to judge the round.
"""
import settings
from vprops.clock.bench import ClockBench
from vprops.football.bench import FootballBench
from vprops.fusebox.bench import FuseBoxBench


def merge(overrides):
    """settings.merge as the board runs it: [settings, errors]."""
    result, errors = settings.merge(overrides)
    return [result, errors]


def clock_round(overrides, battery_mv):
    """Press the button at 50 ms; run until idle, then past the dwell so the motor is released."""
    error = None
    bench = None
    try:
        bench = ClockBench(overrides)
        bench.set_battery_mv(battery_mv)
        app = bench.app
        bench.press(50, 100)
        bench.run(app.max_run_ms + 20000, lambda: bench.idles > 0 or bench.names().count("battery_low") > 0)
        bench.run(bench.settings["clock"]["dwell_ms"] + 200)
    except Exception as exc:  # the property fails on any: no accepted value may crash the prop
        error = repr(exc)
    if bench is None:
        return {"error": error}
    hand = bench.hand
    hand.settle()
    return {"error": error, "errors": bench.errors + bench.app.config_errors, "names": bench.names(),
            "state": bench.app.state, "completed": bench.app.completed, "energised": hand.energised,
            "forbidden": hand.forbidden, "quick_reversals": hand.quick_reversals,
            "max_run_ms": bench.app.max_run_ms, "stop": [e for e in bench.events if e["event"] == "stop"]}


def fusebox_round(overrides):
    """Manual mode unless a pack is set: window 3 opens at 100 ms, the bolt button at 400, all shut at 3 s."""
    error = None
    bench = None
    try:
        bench = FuseBoxBench(overrides)
        bench.window(2, True, 100)
        bench.press("btn_bolt", 400, 400)  # held longer than any debounce the schema allows
        bench.window(2, False, 3000)
        bench.run(5000)
    except Exception as exc:
        error = repr(exc)
    if bench is None:
        return {"error": error}
    return {"error": error, "errors": bench.errors + bench.app.config_errors, "names": bench.names(),
            "mode": bench.app.slot.mode}


def football_round(overrides):
    """The toss and a kickoff by the buttons and the link, then a roll of the dice."""
    error = None
    bench = None
    try:
        bench = FootballBench(overrides)
        app = bench.app
        bench.press("roll", hold_ms=400)    # the coin; held longer than any debounce the schema allows
        bench.run(700)
        app.report("kick")
        app.report("goal", pick="north")
        app.report("in_field", yards=30)
        bench.press("roll", hold_ms=400)    # the dice
        bench.run(700)
    except Exception as exc:
        error = repr(exc)
    if bench is None:
        return {"error": error}
    return {"error": error, "errors": bench.app.config_errors, "names": bench.names()}


def clock_from_file(path):
    """settings.load(path) as main.py calls it, then a clock round on those settings.

    Returns the load's errors, whether the loaded settings are all valid, and
    how the round went ("error" is what load or the round raised, if anything).
    """
    error = None
    errors = []
    names = []
    valid = False
    try:
        cfg, errors = settings.load(path, echo=None)
        valid = settings.merge(cfg)[1] == []
        bench = ClockBench(cfg)
        bench.press(50, 100)
        bench.run(bench.app.max_run_ms + 20000, lambda: bench.idles > 0)
        names = bench.names()
    except Exception as exc:
        error = repr(exc)
    return {"error": error, "errors": errors, "valid": valid, "names": names}


def fusebox_in(flash_dir):
    """The fuse box built with config.json's defaults, in `flash_dir` as the board's root."""
    import os
    here = os.getcwd()
    os.chdir(flash_dir)
    try:
        cfg, errors = settings.load(echo=None)
        bench = FuseBoxBench(cfg)   # cfg holds fusebox.pack (null: the standard place)
        bench.run(100)
        return {"errors": errors, "mode": bench.app.slot.mode, "pack": cfg["fusebox"]["pack"],
                "path": bench.app.slot.pack_path, "names": bench.names()}
    finally:
        os.chdir(here)
