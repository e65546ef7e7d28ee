"""runtime.Runtime's one fault contract, for each prop on the virtual board (MicroPython only).

Each prop is brought to where its outputs work (the hand turning, the fuse
blown with sound, relay and light, the field-goal count beeping), then the
next output write raises (vboard's fault injection) inside the prop's tick.
"""
from scenario_football_box import _to_own_field_goal_range
from vprops.clock.bench import ClockBench
from vprops.football.bench import FootballBench
from vprops.fusebox.bench import FuseBoxBench


def _on(bench, pins) -> list:
    """The outputs of `pins` (profile name -> pin) whose last level or duty is above 0."""
    last = {}
    for _, signal, value in bench.board.log():
        last[signal] = value
    on = []
    for name in sorted(pins):
        pin = pins[name]
        for signal in (str(pin), str(pin) + ".duty"):
            if last.get(signal, 0) > 0:
                on.append(name)
    return on


def _working_clock():
    bench = ClockBench({"clock": {"seed": 4, "motor": "dc", "bridge": "drv8833"}})
    bench.press(50)
    bench.run(3000)
    return bench


def _working_fusebox():
    bench = FuseBoxBench({"fusebox": {"relay": True}})
    bench.run(300)                            # manual mode: all windows shut, a round starts
    bench.window(2, True, at_ms=bench.board.clock.elapsed + 20)
    bench.run(200)
    bench.press("btn_bolt")                   # the bolt was in the window just opened
    bench.run(120)
    return bench


def _working_football():
    bench = FootballBench({"football": {"seed": 12, "display": "leds"}})
    _to_own_field_goal_range(bench)
    bench.run(100)
    bench.app.kick_start()
    bench.run(20)                             # the "go" tone sounds
    return bench


WORKING = {"clock": _working_clock, "fusebox": _working_fusebox, "football": _working_football}
# The outputs each prop's shutdown() makes safe (inputs are not recorded by the virtual board).
# The football box's scoreboard (OLED, or the LEDs of the fallback) keeps showing the game.
OUTPUTS = {"clock": ("motor_in1", "motor_in2", "motor_pwm", "piezo", "led"),
           "fusebox": ("relay", "led_red", "led_green", "piezo"),
           "football": ("piezo", "led")}


def tick_raises(prop):
    """{"before": outputs on before the fault, "after": outputs on after it, "error", "faults"}."""
    bench = WORKING[prop]()
    pins = {name: bench.pins[name] for name in OUTPUTS[prop] if bench.pins.get(name) is not None}
    before = _on(bench, pins)
    bench.board.tripped = RuntimeError("injected fault")
    error = None
    try:
        bench.run(2000)
    except RuntimeError as exc:
        error = str(exc)
    bench.board.clock.advance(1000)  # the runtime is gone: nothing may switch on again
    return {"before": before, "after": _on(bench, pins), "error": error,
            "faults": [e["error"] for e in bench.events if e["event"] == "fault"]}
