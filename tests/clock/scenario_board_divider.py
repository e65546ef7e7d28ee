"""The clock's battery divider as each board's wiring table wires it, read by the real firmware.

MicroPython only, through the `vboard_process` fixture.
"""
from vprops.clock.bench import ClockBench


def pack_read(overrides, wired_permille, pack_mv):
    """The clock built from `overrides` on a board whose divider is soldered as `wired_permille`
    (battery V per ADC-pin V x 1000), the pack at pack_mv: what the firmware reads, and whether
    a round starts."""
    bench = ClockBench(overrides)
    bench.board.battery_divider_permille = wired_permille  # what the builder wired, not the config
    bench.board.set_battery_mv(pack_mv)
    mv = bench.app._battery.read_mv()
    bench.run(100)
    try:
        bench.app.start_round()
        refused = None
    except ValueError as exc:
        refused = str(exc)
    bench.app.emergency_stop()
    return {"read_mv": mv, "refused": refused, "errors": bench.errors}
