"""The wiring self-test's board side on the virtual board (MicroPython only, `vboard_process`).

A selftest.session.Session is built as `selftest_begin` builds it, on a fresh board: the
steps it offers and what it says as a step starts, or what it did to an MCP23017.
"""
import settings as settings_module
import vboard
from fake_mcp23017 import FakeMcp23017


def _session(overrides, pack_mv=None, chip=None):
    board = vboard.new_board(0, 2000)
    if pack_mv is not None:
        board.set_battery_mv(pack_mv)
    cfg, errors = settings_module.merge(overrides)
    if chip is not None:
        board.i2c_devices[cfg["fusebox"]["mcp_address"]] = chip
    from selftest.session import Session
    return board, Session(cfg, lambda name, fields: None, 0)


def clock_steps(overrides, pack_mv):
    """The clock's output steps and, for each, the reply of selftest_output as it starts."""
    board, test = _session(overrides, pack_mv)
    steps = test.steps()["outputs"]
    started = {}
    t = 0
    for name, _, ms, _ in steps:
        started[name] = test.output(name)
        end = t + ms + 1
        while t < end:
            t += 10
            board.clock.advance(10)
            test.tick(board.clock.now())
    return {"steps": steps, "started": started}


def mcp_set_up(overrides):
    """A power-on MCP23017 (no set-up): is it set up once the self-test began, and again within
    one tick after it browned out?"""
    chip = FakeMcp23017()
    board, test = _session(overrides, chip=chip)

    def set_up():
        regs = chip.regs
        return regs[0] == 0x7F and regs[1] == 0x7F and regs[0x0C] == 0x7F and regs[0x0D] == 0x7F

    at_begin = set_up()
    chip.power_cycle()
    lost = set_up()
    board.clock.advance(10)
    test.tick(board.clock.now())
    return {"at_begin": at_begin, "lost": lost, "after_one_tick": set_up()}


def guarded_stepper_rate(rate):
    """A stepper rate the driver refuses, past the settings' check (as a settings bug would let
    it through): the prop's build and the self-test get the same guard from props.clock.wiring."""
    cfg, _ = settings_module.merge({"clock": {"motor": "stepper"}})
    cfg["clock"]["stepper_steps_per_s"] = rate
    vboard.new_board(0, 2000)
    from props import clock
    seen = {}
    try:
        seen["prop"] = clock.build(cfg).config_errors
    except ValueError as exc:
        seen["prop"] = "ValueError: %s" % exc
    from selftest.session import Session
    try:
        seen["selftest"] = [s[0] for s in Session(cfg, lambda name, fields: None, 0).steps()["outputs"]]
    except ValueError as exc:
        seen["selftest"] = "ValueError: %s" % exc
    return seen
