"""The ghost clock's hardware in a served board's world (world.World, `propctl sim serve`): the
battery divider as the config wires it, and the hand its motor turns (vboard.physics).
Imported only when the served prop is the clock: the others keep physics off the heap."""

HAND_DEG_PER_S = 120  # the hand at full speed, as on the bench (vprops/clock/bench.py)


def wire(board, cfg) -> None:
    """Before the pack's voltage is set: the divider as the config (or the board's table) says."""
    import boardprofiles
    from props.clock.wiring import divider_permille
    board.battery_divider_permille = divider_permille(cfg["clock"], boardprofiles.limits(cfg["board"]))


def hand(board, cfg, pin_of: dict):
    """The hand on the motor's pins as wired (pin_of: each part's pin, faults included)."""
    import physics
    c = cfg["clock"]
    p = pin_of
    if c["motor"] == "stepper":
        return physics.StepperHand(board, (p["stepper_in1"], p["stepper_in2"], p["stepper_in3"],
                                           p["stepper_in4"]), dwell_ms=c["dwell_ms"])
    return physics.HBridgeHand(board, c["bridge"], p["motor_in1"], p["motor_in2"],
                               p.get("motor_pwm"), p.get("motor_stby"),
                               deg_per_s=HAND_DEG_PER_S, dwell_ms=c["dwell_ms"])
