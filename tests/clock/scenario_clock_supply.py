"""The clock's voltage-compensated drive on the virtual board: the pack runs down, the hand keeps its speed.

MicroPython only (the `vboard_process` fixture). The virtual hand (vboard/physics.py) turns at
its rated speed when the motor sees its rated 3 V on average (duty x the pack's voltage).
"""
from props.clock import app as clock_app
from vprops.clock.bench import ClockBench, discharge  # noqa: F401  (discharge: called by name)


def _segment_ends(plan, t0):
    ends = []
    t = t0
    for duration, _ in plan:
        t += duration
        ends.append(t)
    return ends


def pack_reads(overrides, pack_mv, from_ms=None):
    """One round; when the firmware read the pack, the round's deadlines, the hand's peak voltage.

    from_ms: the divider reads 0 V from then on (a broken wire; the pack itself stays on).
    """
    bench = ClockBench(overrides)
    bench.set_battery_mv(pack_mv)
    battery = bench.app._battery
    reads = []
    read_mv = battery.read_mv

    def counted():
        reads.append(bench.board.clock.elapsed)
        return read_mv()

    battery.read_mv = counted

    def each():
        if from_ms is not None and bench.board.clock.elapsed >= from_ms:
            bench.board.set_adc_mv(bench.pins["battery_adc"], 0)

    bench.run_round(each=each)
    start = [e for e in bench.events if e["event"] == "start"][0]
    stop = [e for e in bench.events if e["event"] == "stop"][0]
    bench.hand.settle()
    return {"reads": reads, "start": start["t"], "stop": stop["t"], "tick_ms": bench.app.tick_ms,
            "segment_ends": _segment_ends(bench.app.plan, start["t"]), "peak_mv": bench.hand.peak_mv,
            "names": bench.names(), "pack_mv": bench.app.snapshot()["pack_mv"]}


def refused_when_off(overrides):
    """The pack reads 0 V (switched off, the board on USB): the press is refused; the message."""
    bench = ClockBench(overrides)
    bench.set_battery_mv(0)
    bench.run(100)
    try:
        bench.app.start_round()
    except ValueError as exc:
        return {"refused": str(exc), "names": bench.names(), "state": bench.app.state}
    return {"refused": None, "names": bench.names(), "state": bench.app.state}


def idle_state():
    return clock_app.IDLE
