"""Ghost-clock scenarios on the virtual board.

MicroPython only: called through the `vboard_process` fixture, whose
MICROPYPATH has host_tools/propctl/vboard (the fake machine) first. Each
function takes and returns JSON values; the pytest side checks them.
"""
from time import ticks_add

import micropython
from props.clock import app as clock_app
from vprops.clock.bench import ClockBench


def _long_plan(seed, limits):
    """Far longer than any cap: 10 x 20 s at 80 % speed."""
    return [(20000, 800)] * 10


def _direct_reversals(seed, limits):
    """Reversals with no standing segment: the motor driver's own dwell must still hold."""
    return [(1500, 900), (1500, -900), (1500, 700), (20, -1000), (1500, 1000), (1500, -400)]


PLANNERS = {"long": _long_plan, "direct": _direct_reversals}


def _bench(overrides, options):
    app_options = {}
    if options.get("planner"):
        app_options["planner"] = PLANNERS[options["planner"]]
    start = 0
    if options.get("wrap_in_ms"):
        start = ticks_add(0, -options["wrap_in_ms"])
    return ClockBench(overrides, start_ms=start, **app_options)


def _signal_log(bench, pins):
    names = []
    for key in pins:
        pin = bench.pins[key]
        names.append(str(pin))
        names.append(str(pin) + ".duty")
        names.append(str(pin) + ".freq")
    return [entry for entry in bench.board.log() if entry[1] in names]


def _hand_figures(bench):
    hand = bench.hand
    hand.settle()
    return {"forbidden": hand.forbidden, "quick_reversals": hand.quick_reversals,
            "min_reverse_gap": hand.min_reverse_gap, "reversals": hand.reversals,
            "energised": hand.energised, "angle_mdeg": hand.angle_mdeg(),
            "skipped": getattr(hand, "skipped", 0), "position": getattr(hand, "position", 0)}


def round_trace(overrides, options):
    """One round (or a scripted session) on the virtual board; everything a test needs to judge it.

    options: wrap_in_ms (start the board that long before time.ticks_ms wraps),
    planner ("long", "direct"),
    sample_ms, presses ([[at_ms, hold_ms], ...], default one press at 50 ms),
    battery_mv, chip_full_mv (the ADC's real full scale, if not the profile's),
    trip_at_ms (an exception is raised into the firmware's next
    pin write after that time), run_ms (run this long instead of one round).
    """
    bench = _bench(overrides, options)
    board = bench.board
    app = bench.app
    if options.get("chip_full_mv"):
        board.adc_full_mv = options["chip_full_mv"]  # this chip's real read_u16 full scale
    if options.get("battery_mv") is not None:
        bench.set_battery_mv(options["battery_mv"])
    for at_ms, hold_ms in options.get("presses", [[50, 100]]):
        bench.press(at_ms, hold_ms)
    sample_ms = options.get("sample_ms", 20)
    samples = []
    state = {"next": 0, "trip": options.get("trip_at_ms")}

    def each():
        t = board.clock.elapsed
        if state["trip"] is not None and t >= state["trip"]:
            board.tripped = RuntimeError("injected fault")
            state["trip"] = None
        if t >= state["next"]:
            state["next"] = t + sample_ms
            samples.append([t, bench.hand.angle_mdeg(), bench.hand.direction])

    error = None
    fault = {}
    try:
        if options.get("run_ms"):
            bench.run(options["run_ms"], None, each)
        else:
            bench.run(app.max_run_ms + 20000, lambda: bench.idles > 0, each)
            bench.run(500, None, each)  # longer than the dwell: the motor gets released
    except Exception as exc:
        error = repr(exc)
        bench.hand.settle()
        fault = {"t": board.clock.elapsed, "energised": bench.hand.energised,
                 "angle_mdeg": bench.hand.angle_mdeg(), "writes": board.count}
        board.clock.advance(1000)  # the pump is gone: nothing may move any more
        fault["angle_after_mdeg"] = bench.hand.angle_mdeg()
        fault["writes_after"] = board.count
    c = bench.settings["clock"]
    motor_pins = (["stepper_in1"] if c["motor"] == "stepper"
                  else ["motor_in1", "motor_in2", "motor_pwm", "motor_stby"])
    return {
        "tick_ms": app.tick_ms, "dwell_ms": c["dwell_ms"], "ramp_ms": c["ramp_ms"],
        "max_run_ms": app.max_run_ms, "state": app.state, "round": app.round,
        "completed": app.completed, "plan": [list(seg) for seg in app.plan],
        "events": bench.events, "samples": samples,
        "chime_log": _signal_log(bench, ["piezo", "solenoid"]),
        "led_log": _signal_log(bench, ["led"]),
        "motor_log": _signal_log(bench, motor_pins) if c["motor"] == "dc" else [],
        "hand": _hand_figures(bench), "overflow": board.overflow, "error": error, "fault": fault,
        "errors": bench.errors + app.config_errors, "elapsed": board.clock.elapsed,
        "origin": board.clock.origin, "pins": bench.pins,
    }


def watchdog_hang(overrides, hang_at_ms, hang_ms, watchdog_ms):
    """Run the clock through its runtime in virtual time (the watchdog set to watchdog_ms, fed
    every pass); at hang_at_ms the program hangs: board time passes by hang_ms with no pass.
    Returns what the hand did.
    """
    config = {}
    for key in overrides:
        config[key] = dict(overrides[key]) if type(overrides[key]) is dict else overrides[key]
    config.setdefault("clock", {})["watchdog_ms"] = watchdog_ms
    bench = ClockBench(config)
    board = bench.board
    bench.press(50, 100)
    bench.run(hang_at_ms)
    seen = {"resets_before_hang": board.resets, "energised_before": bench.hand.energised}
    board.pass_ms(hang_ms)  # hung: no tick, no feed
    seen["energised_after"] = bench.hand.energised
    seen["angle_at_reset"] = bench.hand.angle_mdeg()
    board.clock.advance(1000)
    seen["angle_later"] = bench.hand.angle_mdeg()
    seen["resets"] = board.resets
    seen["reason"] = board.reset_reason
    seen["state"] = bench.app.state
    seen["events"] = bench.names()
    return seen


# --- no allocation in the hot paths ----------------------------------------

_COUNTS = bytearray(16)


def _count_event(name, fields):
    # No allocation: bump a preallocated counter.
    _COUNTS[0] = (_COUNTS[0] + 1) & 0xFF


def _locked_passes(bench, stop_state, limit_ms):
    """Runtime passes with the heap locked until app.state == stop_state; (ok, where)."""
    app = bench.app
    clock = bench.board.clock

    def stopped():
        return app.state == stop_state

    micropython.heap_lock()
    try:
        bench.run(limit_ms, stopped)
    except MemoryError:
        micropython.heap_unlock()
        return False, "%s at %d ms" % (app.state, clock.elapsed)
    micropython.heap_unlock()
    return True, "%s at %d ms" % (app.state, clock.elapsed)


def _with_seed(overrides, seed):
    result = {}
    for key in overrides:
        result[key] = dict(overrides[key]) if type(overrides[key]) is dict else overrides[key]
    result.setdefault("clock", {})["seed"] = seed
    return result



def heap_locked_round(overrides, seed):
    """Start a round normally, then run it to the end (running, stop, chime, idle) with the heap locked.

    Whole runtime passes in virtual time (tick, watchdog, wait until the next deadline); the
    vboard's recorder and hand physics run inside the locked region too.
    """
    bench = ClockBench(_with_seed(overrides, seed))
    bench.app.on_event = _count_event
    bench.press(50, 100)
    # Unlocked: the press, the plan (a list) and the release are allowed to allocate.
    bench.run(300, None, None)
    started = bench.app.state == clock_app.RUNNING
    before = _COUNTS[0]
    ok, where = _locked_passes(bench, clock_app.IDLE, bench.app.max_run_ms + 20000)
    return {"started": started, "ok": ok, "where": where, "state": bench.app.state,
            "events_in_lock": (_COUNTS[0] - before) & 0xFF, "completed": bench.app.completed,
            "energised": bench.hand.energised, "resets": bench.board.resets}


def heap_locked_drivers(kind):
    """Switch scans with bouncing inputs, and motor updates through ramps and reversals, heap locked."""
    import vboard
    from drivers.bridge import DRV8833, TB6612
    from drivers.motor import HBridgeMotor, StepperMotor
    from drivers.switches import PinSource, Switches
    from machine import PWM, Pin

    board = vboard.new_board(0, 20000)
    if kind == "switches":
        pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in range(8)]
        switches = Switches(PinSource(pins), 8, debounce_ms=5, long_press_ms=50)
        n = 0
        while n < 8:
            board.set_input(n, 1)  # every key exists before the lock
            n += 1
        switches.update(0)
        micropython.heap_lock()
        try:
            t = 1
            while t < 400:
                # bounce input t % 8 for a while, then hold it
                board.inputs[t % 8] = (t >> 3) & 1
                switches.update(t)
                while switches.pending():
                    switches.pop()
                t += 1
        except MemoryError:
            micropython.heap_unlock()
            return {"ok": False, "t": t}
        micropython.heap_unlock()
        return {"ok": True, "t": t}
    if kind == "stepper":
        motor = StepperMotor([Pin(n, Pin.OUT) for n in (2, 3, 4, 5)])
    elif kind == "tb6612":
        motor = HBridgeMotor(TB6612(Pin(16, Pin.OUT), Pin(17, Pin.OUT), PWM(Pin(18)), Pin(19, Pin.OUT)))
    else:
        motor = HBridgeMotor(DRV8833(PWM(Pin(16)), PWM(Pin(17)), Pin(19, Pin.OUT)))
    speeds = (800, -800, 0, 1000, 300, -1000, 0)
    motor.update(0)
    micropython.heap_lock()
    try:
        t = 0
        i = 0
        while i < 7:
            motor.set_speed(speeds[i])
            end = t + 700
            while t < end:
                t += 2
                motor.update(t)
            i += 1
        motor.stop()
        motor.update(t + 2)
        motor.release()
    except MemoryError:
        micropython.heap_unlock()
        return {"ok": False, "t": t}
    micropython.heap_unlock()
    return {"ok": True, "t": t, "writes": board.count}


def link_commands(overrides):
    """The commands the serial link calls, between ticks: refusals, snapshot, emergency stop."""
    bench = ClockBench(overrides)
    app = bench.app
    out = {}
    bench.run(100)
    out["idle"] = app.snapshot()
    app.emergency_stop()  # nothing runs: a no-op, no event
    bench.run(100)
    out["idle_stop_events"] = bench.names()
    app.start_round(123)
    bench.run(3000)
    out["running"] = app.snapshot()
    try:
        app.start_round(5)
    except ValueError as exc:
        out["refused"] = str(exc)
    app.emergency_stop()
    bench.run(500)
    out["stopped"] = app.snapshot()
    out["events"] = bench.names()
    out["energised"] = bench.hand.energised
    return out


def start_before_first_tick(overrides):
    """A link command before the pump's first tick is refused, not run on a made-up time."""
    bench = ClockBench(overrides, start_ms=ticks_add(0, -5000))
    try:
        bench.app.start_round(1)
        refused = None
    except ValueError as exc:
        refused = str(exc)
    bench.run(50)
    bench.app.start_round(1)
    bench.run(bench.app.max_run_ms + 5000, lambda: bench.idles > 0)
    return {"refused": refused, "events": bench.names(), "stop": [e for e in bench.events
                                                                 if e["event"] == "stop"]}
