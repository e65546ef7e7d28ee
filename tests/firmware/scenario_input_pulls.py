"""The pulls each prop's build asks for on its input pins, on the virtual board (MicroPython)."""


def pulls(prop, overrides):
    """{gpio: [signal, pull]} of every input Pin the prop's build made (None: no pull asked for)."""
    import boardprofiles
    from machine import Pin
    if prop == "clock":
        from vprops.clock.bench import ClockBench
        bench = ClockBench(overrides)
    elif prop == "fusebox":
        from vprops.fusebox.bench import FuseBoxBench
        bench = FuseBoxBench(overrides)
    else:
        from vprops.football.bench import FootballBench
        bench = FootballBench(overrides)
    board = overrides.get("board", "pico")
    signal = {}
    for name, gpio in boardprofiles.profile(board, prop).items():
        signal[gpio] = name
    out = {}
    for part in bench.board.outputs:
        if isinstance(part, Pin) and part._mode == Pin.IN and type(part.id) is int:
            out[str(part.id)] = [signal.get(part.id, "?"), part._pull]
    return out
