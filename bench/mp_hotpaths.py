"""Allocations on the hot paths, under micropython.heap_lock() (MicroPython).

Usage: micropython bench/mp_hotpaths.py ITERATIONS
MICROPYPATH: host_tools/propctl/vboard, firmware/lib. Prints one JSON line
per hot path: iterations run with the heap locked, allocations caught (a
locked heap turns any allocation into MemoryError, so the first one ends that
path's run and is counted), and microseconds per iteration. The drivers'
paths are here; each prop's (a tick of its app) is its own, in
vprops/PROP/workload.py, for every prop of the registry (props.NAMES); a prop
with none prints {"path": PROP, "no_workload": true}.
"""
import gc
import json
import sys
import time

import micropython
import vboard
from vprops import workload

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


def prop_path(prop):
    """(name, setup, step) of the prop's hot path: vprops/PROP/workload.py's hot_app, ticked
    from power-up on; its hot_due/hot_start, if any, run between ticks (the start unlocked).
    None if the prop has no bench workload."""
    found = workload(prop)
    if found is None:
        return None

    def setup():
        board, app = found.hot_app(count_event)
        warm_up(board, app)
        return [board, app, getattr(found, "hot_due", None), getattr(found, "hot_start", None)]
    return found.HOT_PATH, setup, prop_tick


def prop_tick(state, i):
    board, app, due, start = state
    if due is not None and due(app):
        micropython.heap_unlock()
        start(app)
        micropython.heap_lock()
    board.clock.elapsed += app.tick_ms
    app.tick(board.clock.now())


PATHS = (("control: list.append, must allocate", control_setup, control_step),
         ("switch scan (8 inputs, bouncing)", switches_setup, switches_step),
         ("motor update (DRV8833, ramps, reversals)", motor_setup, motor_step))


def main():
    from props import NAMES  # the firmware's registry: each prop's path is in its own folder
    iterations = int(sys.argv[1])
    for name, setup, step in PATHS:
        locked(name, setup, step, iterations)
    for prop in NAMES:
        path = prop_path(prop)
        if path is None:
            print(json.dumps({"path": prop, "no_workload": True}))
        else:
            locked(path[0], path[1], path[2], iterations)


main()
