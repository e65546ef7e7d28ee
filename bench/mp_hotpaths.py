"""Allocations on the hot paths, under micropython.heap_lock() (MicroPython).

Usage: micropython bench/mp_hotpaths.py ITERATIONS
MICROPYPATH: host_tools/propctl/vboard, firmware/lib. Prints one JSON line
per hot path: iterations run with the heap locked, allocations caught (a
locked heap turns any allocation into MemoryError, so the first one ends that
path's run and is counted), and microseconds per iteration.
"""
import gc
import json
import sys
import time

import micropython
import vboard

EVENTS = bytearray(1)


def count_event(name, fields):
    EVENTS[0] = (EVENTS[0] + 1) & 0xFF  # no allocation


def control_setup():
    return []


def control_step(state, i):
    state.append(i)  # allocates: proves the lock is armed


def locked(name, setup, step, iterations):
    """Run step(i) `iterations` times with the heap locked; report one JSON line."""
    state = setup()
    gc.collect()
    allocations = 0
    done = 0
    t0 = time.ticks_us()
    micropython.heap_lock()
    try:
        while done < iterations:
            step(state, done)
            done += 1
    except MemoryError:
        allocations = 1
    micropython.heap_unlock()
    elapsed = time.ticks_diff(time.ticks_us(), t0)
    rounds = getattr(state[1], "completed", None) if len(state) > 1 else None
    print(json.dumps({"path": name, "iterations": done, "allocations": allocations,
                      "us_per_iteration": elapsed / done if done else 0, "rounds": rounds}))


def warm_up(board, app):
    """Tick through power-up (boot work may allocate once) with the heap unlocked."""
    while board.clock.elapsed < 1000:
        board.clock.elapsed += app.tick_ms
        app.tick(board.clock.now())


def clock_setup():
    import settings
    from props import clock
    from props.clock.app import IDLE
    # the divider wired: ticks read the pack every 2 s and rescale the motor's duty (voltage compensation)
    cfg, _ = settings.merge({"clock": {"seed": 3, "battery_min_mv": 3000}})
    board = vboard.new_board(0, 1)
    app = clock.build(cfg, count_event)
    warm_up(board, app)
    return [board, app, IDLE]


def clock_step(state, i):
    # Rounds back to back. Starting a round builds the plan (a list), so the
    # lock is lifted for that call only: the ticks themselves stay locked.
    board, app, idle = state
    if app.state == idle:
        micropython.heap_unlock()
        app.start_round(3)
        micropython.heap_lock()
    board.clock.elapsed += app.tick_ms
    app.tick(board.clock.now())


def switches_setup():
    from drivers.switches import PinSource, Switches
    from machine import Pin
    board = vboard.new_board(0, 1)
    pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in range(8)]
    for n in range(8):
        board.set_input(n, 1)
    switches = Switches(PinSource(pins), 8, debounce_ms=20, long_press_ms=1500)
    switches.update(0)
    return [board, switches]


def switches_step(state, i):
    board, switches = state
    # Input i%8 bounces for 8 scans in every 64, then holds: presses, releases, bounces.
    board.inputs[i & 7] = (i >> 3) & 1
    switches.update(i)
    while switches.pending():
        switches.pop()


def motor_setup():
    from drivers.bridge import DRV8833
    from drivers.motor import HBridgeMotor
    from machine import PWM, Pin
    vboard.new_board(0, 1)
    motor = HBridgeMotor(DRV8833(PWM(Pin(16)), PWM(Pin(17)), Pin(19, Pin.OUT)))
    motor.update(0)
    return [motor, (800, -800, 0, 1000, 350, -1000)]


def motor_step(state, i):
    motor, speeds = state
    if i % 500 == 0:
        motor.set_speed(speeds[(i // 500) % 6])
    motor.update(i * 2)


def fusebox_setup():
    import settings
    from props import fusebox
    cfg, _ = settings.merge({"fusebox": {"pack": ""}})
    board = vboard.new_board(0, 1)
    app = fusebox.build(cfg, count_event)
    warm_up(board, app)
    return [board, app]


def football_setup():
    import settings
    from props import football
    cfg, _ = settings.merge({"prop": "football", "football": {"display": "leds", "seed": 3}})
    board = vboard.new_board(0, 1)
    app = football.build(cfg, count_event)
    warm_up(board, app)
    return [board, app]


def app_tick(state, i):
    board, app = state
    board.clock.elapsed += app.tick_ms
    app.tick(board.clock.now())


PATHS = (("control: list.append, must allocate", control_setup, control_step),
         ("clock tick (whole rounds)", clock_setup, clock_step),
         ("switch scan (8 inputs, bouncing)", switches_setup, switches_step),
         ("motor update (DRV8833, ramps, reversals)", motor_setup, motor_step),
         ("fuse box tick (windows shut, manual mode)", fusebox_setup, app_tick),
         ("football box tick (waiting for the toss)", football_setup, app_tick))


def main():
    iterations = int(sys.argv[1])
    for name, setup, step in PATHS:
        locked(name, setup, step, iterations)


main()
