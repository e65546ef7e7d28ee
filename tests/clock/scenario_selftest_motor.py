"""The clock's self-test motor steps on the virtual board in virtual time (MicroPython only,
`vboard_process`), with the hand model the served board's world attaches (vboard/world.py).

On a served board (tests/serial_link/test_selftest_vboard.py) the board's clock is the host's wall clock:
a host stall between the firmware's clock reading and its pin write moves the model's record
of that write, so how far the hand turned and how long it stood between the turns are read
here, where nothing but the firmware moves the clock.
"""
import physics
import settings as settings_module
import vboard
from vprops.clock.world import HAND_DEG_PER_S


def clock_motor_steps(overrides, gap_ms):
    """motor_cw, `gap_ms` of standing (the person answering), then motor_ccw, ticked every 10 ms
    as the runtime does; the hand as it stands after each step."""
    board = vboard.new_board(0, 4000)
    cfg, _ = settings_module.merge(overrides)
    import boardprofiles
    pins = boardprofiles.profile(cfg["board"], "clock")
    c = cfg["clock"]
    hand = physics.HBridgeHand(board, c["bridge"], pins["motor_in1"], pins["motor_in2"],
                               pins.get("motor_pwm"), pins.get("motor_stby"),
                               deg_per_s=HAND_DEG_PER_S, dwell_ms=c["dwell_ms"])
    from selftest.session import Session
    test = Session(cfg, lambda name, fields: None, 0)
    seen = {}
    t = 0
    for name in ("motor_cw", "motor_ccw"):
        ms = test.output(name)["ms"]
        end = t + ms + 1 + gap_ms
        while t < end:
            t += 10
            board.clock.advance(10)
            test.tick(board.clock.now())
        hand.settle()
        seen[name] = {"hand_mdeg": hand.angle_mdeg(), "energised": hand.energised,
                      "forbidden": hand.forbidden, "quick_reversals": hand.quick_reversals,
                      "reversals": hand.reversals, "min_reverse_gap": hand.min_reverse_gap,
                      "hum_ms": hand.hum_ms, "ms": ms}
    return seen
