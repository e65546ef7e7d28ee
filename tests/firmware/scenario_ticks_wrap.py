"""Every firmware timer with the board's ms counter wrapping inside it (vboard, MicroPython only).

The virtual board's `time` wraps at 2^30 like a Pico's (vboard/time.py). Each
scenario starts the board `wrap_at_ms` before the wrap (0: no wrap in sight)
and returns what the outputs and events did, in ms since power-up. A timer
that survives the wrap gives exactly the same result wherever the wrap falls;
the pytest side compares every run with the one that never wraps.
"""
from time import TICKS_PERIOD, ticks_add, ticks_diff

import vboard
from machine import WDT
from vprops.clock.bench import ClockBench
from vprops.football.bench import FootballBench
from vprops.fusebox.bench import FuseBoxBench


def _start(wrap_at_ms):
    """Board start so that the counter wraps `wrap_at_ms` ms after power-up (0: far from it)."""
    return ticks_add(0, -wrap_at_ms) if wrap_at_ms else 1000


def _events(bench, keys=("event", "t")):
    return [[e[k] for k in keys if k in e] for e in bench.events]


def _logs(board, names):
    return [entry for entry in board.log() if entry[1] in names]


def _clock_pins(bench, names):
    out = []
    for name in names:
        pin = str(bench.pins[name])
        out += [pin, pin + ".duty", pin + ".freq"]
    return out


def clock_round(wrap_at_ms, overrides, presses, run_ms):
    """The ghost clock: presses [[at_ms, hold_ms]], run_ms of virtual time.

    Covers the round timer, the 100 ms chime delay, the bell melody or the
    solenoid strikes, the motor's ramps and dwell, debounce and long press.
    """
    bench = ClockBench(overrides, start_ms=_start(wrap_at_ms))
    for at_ms, hold_ms in presses:
        bench.press(at_ms, hold_ms)
    bench.run(run_ms)
    names = _clock_pins(bench, ("piezo", "solenoid", "led", "motor_in1", "motor_in2", "motor_pwm",
                                "stepper_in1"))
    return {"events": _events(bench, ("event", "t", "kind", "at_ms", "round", "completed")),
            "log": _logs(bench.board, names), "state": bench.app.state,
            "origin": bench.board.clock.origin}


def clock_battery_low(wrap_at_ms, pack_mv):
    """A press on a flat pack: the LED's three long blinks and the low alarm on the piezo."""
    bench = ClockBench({"clock": {"battery_min_mv": 3600}}, start_ms=_start(wrap_at_ms))
    bench.set_battery_mv(pack_mv)
    bench.press(50, 100)
    bench.run(6000)
    names = _clock_pins(bench, ("piezo", "led"))
    return {"events": _events(bench, ("event", "t", "mv")), "log": _logs(bench.board, names),
            "state": bench.app.state}


def fusebox_relay(wrap_at_ms):
    """Manual mode: window 3 opens, the bolt button blows the fuse, the relay pulses relay_ms."""
    bench = FuseBoxBench({"fusebox": {"relay": True, "relay_ms": 2000}}, start_ms=_start(wrap_at_ms))
    bench.window(2, True, 100)
    bench.press("btn_bolt", 300)
    bench.window(2, False, 5000)
    bench.run(6000)
    return {"events": _events(bench), "relay": bench.log_of("relay"), "red": bench.log_of("led_red"),
            "green": bench.log_of("led_green"), "piezo": bench.log_of("piezo.duty")}


def football_kick(wrap_at_ms, seed):
    """The 3-second field-goal count: go, beeps at 1 and 2 s, the final tone at 3 s."""
    bench = FootballBench({"football": {"seed": seed}}, start_ms=_start(wrap_at_ms))
    app = bench.app
    app.roll()
    app.report("kick")
    app.report("goal", pick="north")
    app.report("in_field", yards=60)
    bench.run(200)
    bench.press("kick", at_ms=bench.board.clock.elapsed + 50)
    bench.run(5000)
    return {"events": _events(bench, ("event", "t", "step", "at_ms", "good")), "tones": bench.tones(),
            "box": app.state}


def watchdog(wrap_at_ms, feed_every_ms, timeout_ms, run_ms):
    """A machine.WDT fed every feed_every_ms while the counter wraps: when does it reset the board?"""
    board = vboard.new_board(_start(wrap_at_ms), 100)
    wdt = WDT(timeout=timeout_ms)
    fired_at = -1
    while board.clock.elapsed < run_ms:
        if board.check_watchdog():
            fired_at = board.clock.elapsed
            break
        if feed_every_ms and board.clock.elapsed % feed_every_ms == 0:
            wdt.feed()
        board.clock.advance(1)
    return {"fired_at": fired_at, "resets": board.resets}


def tick_arithmetic():
    """The shim agrees with a 2^30 board: period, add and diff across the wrap."""
    top = TICKS_PERIOD - 1
    return {"period": TICKS_PERIOD, "add": ticks_add(top, 1), "back": ticks_add(0, -1),
            "diff": ticks_diff(5, top), "diff_back": ticks_diff(top, 5)}


def fusebox_sensor_faults(wrap_at_ms):
    """Window 7 stays open (stuck_open after 2 s), window 3 chatters (flicker after 1 s)."""
    bench = FuseBoxBench({"fusebox": {"stuck_open_ms": 2000}}, start_ms=_start(wrap_at_ms))
    bench.window(6, True, 100)
    i = 0
    while i < 300:
        bench.raw(2, i % 2, 100 + 7 * i)
        i += 1
    bench.run(4000)
    return {"events": _events(bench, ("event", "t", "window", "fault")), "red": bench.log_of("led_red")}


def real_time_clock(steps, step_us, speed):
    """The virtual board's clock in real-time mode (the sims at a terminal) while the host's
    microsecond counter runs `steps` x `step_us` through its 2^30 wrap: elapsed board ms."""
    import vboard
    host = [0]
    saved = vboard.time.ticks_us
    vboard.time.ticks_us = lambda: host[0] & 0x3FFFFFFF
    try:
        clock = vboard.Clock(0)
        clock.run_real(speed)
        seen = []
        for _ in range(steps):
            host[0] += step_us
            clock.now()
            seen.append(clock.elapsed)
        return seen
    finally:
        vboard.time.ticks_us = saved
