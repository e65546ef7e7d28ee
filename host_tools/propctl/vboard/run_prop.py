"""Run a prop's firmware on the virtual board and print JSON lines (MicroPython side).

    MICROPYPATH=<this folder>:firmware/lib micropython run_prop.py clock [options]

Options:
    --seed N          fixed seed for the round (default: the config's, else entropy)
    --speed N         0: virtual time, as fast as possible (default);
                      N >= 1: real time, N times faster; both run by the firmware's runtime.Runtime
    --frame-ms N      a hand frame every N ms of board time (default 100)
    --overrides FILE  a JSON file: the board's settings over the defaults, shaped like
                      config.json, e.g. {"clock": {"motor": "stepper"}, "board": "esp32"}
                      (checked by settings.merge). A file, not the JSON itself: the unix
                      port interns each argument as a qstr, and one over 255 bytes kills it
    --press-at MS     when the start button is pressed (default 300)
    --rounds N        play N rounds, pressing the button again 2 s after each (default 1)
    --battery-mv N    the battery pack's voltage (default: fresh 3 x AA, vboard.FRESH_3XAA_MV,
                      or $VBOARD_BATTERY_MV)
    --keys 1          a person plays (needs --speed >= 1): no automatic presses; stdin lines
                      "down" (the button goes down; up again after 100 ms unless "hold" follows),
                      "hold" (keep it down, pressing it again if the tap is over), "up",
                      "speed N", "quit"; the run ends on "quit"

Output, one JSON object per line, "t" = board time in ms since power-up:
    {"type": "info", "prop": "clock", "board": ..., "motor": ..., "errors": [...]}
    {"type": "event", "t": ..., "event": "start", ...the event's fields}
    {"type": "frame", "t": ..., "angle_mdeg": ..., "state": ..., "direction": ..., "left_ms": ...}
    {"type": "pwm", "t": ..., "pin": "15", "what": "freq" or "duty", "value": ...}   the piezo's PWM
    {"type": "end", "t": ..., "completed": ..., "energised": ..., "quick_reversals": ..., "forbidden": ...}
The run ends once the clock is idle again after its last round (exit status 0),
or with status 1 on a fault or when the round does not finish in time.
"""
import sys

from clock_bench import ClockBench
from runtime import Runtime, watchdog
from vboard import StdinLines, emit, read_overrides


def parse_args(argv):
    opts = {"prop": None, "seed": None, "speed": 0, "frame_ms": 100, "overrides": {},
            "press_at": 300, "rounds": 1, "battery_mv": None, "keys": 0}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--"):
            if i + 1 >= len(argv):
                raise SystemExit("run_prop: %s needs a value" % arg)
            value = argv[i + 1]
            i += 2
            if arg == "--seed":
                opts["seed"] = int(value)
            elif arg == "--speed":
                opts["speed"] = int(value)
            elif arg == "--frame-ms":
                opts["frame_ms"] = int(value)
            elif arg == "--overrides":
                opts["overrides"] = read_overrides(value)
            elif arg == "--press-at":
                opts["press_at"] = int(value)
            elif arg == "--rounds":
                opts["rounds"] = int(value)
            elif arg == "--battery-mv":
                opts["battery_mv"] = int(value)
            elif arg == "--keys":
                opts["keys"] = int(value)
            else:
                raise SystemExit("run_prop: unknown option %s" % arg)
        else:
            opts["prop"] = arg
            i += 1
    return opts


def overrides_from(opts) -> dict:
    """The --overrides object, with --seed on top."""
    data = opts["overrides"]
    if opts["seed"] is not None:
        if type(data) is not dict:
            data = {}
        clock = data.get("clock")
        if type(clock) is not dict:
            clock = data["clock"] = {}
        clock["seed"] = opts["seed"]
    return data


class Keys:
    """A person's key presses from stdin lines (see --keys), polled without blocking."""

    TAP_MS = 100  # board ms a "down" without "hold" keeps the button down

    def __init__(self, bench) -> None:
        self.bench = bench
        self.board = bench.board
        self.button = bench.button
        self.heard_from = 0  # bench.events index at the last press
        self.stdin = StdinLines()
        self.down_at = -1   # board ms the button went down, -1 while up
        self.held = False
        self.speed = 1
        self.quit = False

    def read(self, now: int) -> None:
        for line in self.stdin.ready():
            if not self.quit:
                self.command(line.strip(), now)
        if self.stdin.closed:
            self.quit = True  # the host went away
        if self.down_at >= 0 and not self.held and now - self.down_at >= self.TAP_MS and self.heard():
            self.release()

    def heard(self) -> bool:
        """The clock saw the press (a loaded host can stall longer than a tap lasts)."""
        for e in self.bench.events[self.heard_from:]:
            if e["event"] == "button" and e["kind"] == "pressed":
                return True
        return False

    def command(self, word: str, now: int) -> None:
        if word == "down":
            self.board.set_input(self.button, 0)
            self.down_at = now
            self.heard_from = len(self.bench.events)
            self.held = False
        elif word == "hold":
            # a terminal's key repeat starts late: a tap may already be over, so press again
            if self.down_at < 0:
                self.board.set_input(self.button, 0)
                self.down_at = now
                self.heard_from = len(self.bench.events)
            self.held = True
        elif word == "up":
            if now - self.down_at >= self.TAP_MS and self.heard():
                self.release()
            else:
                self.held = False  # a tap: up once TAP_MS have passed
        elif word.startswith("speed "):
            self.speed = max(1, int(word[6:]))
        elif word == "quit":
            self.quit = True

    def release(self) -> None:
        self.board.clear_input(self.button)
        self.down_at = -1
        self.held = False


def run_clock(opts) -> int:
    def echo(record):
        line = {"type": "event"}
        for key in record:
            line[key] = record[key]
        emit(line)

    bench = ClockBench(overrides_from(opts), echo=echo)
    board = bench.board
    app = bench.app
    c = bench.settings["clock"]
    if opts["battery_mv"] is not None:
        bench.set_battery_mv(opts["battery_mv"])
    emit({"type": "info", "prop": "clock", "board": bench.settings["board"], "motor": c["motor"],
          "bridge": c["bridge"], "chime": c["chime"], "tick_ms": app.tick_ms,
          "max_run_ms": app.max_run_ms, "errors": bench.errors + app.config_errors})
    piezo = str(bench.pins["piezo"])

    def on_change(sig, value, t):
        name, _, what = board.names[sig].partition(".")
        if name == piezo and what:
            emit({"type": "pwm", "t": t, "pin": piezo, "what": what, "value": value})

    board.watch(on_change)
    frame_ms = opts["frame_ms"]
    state = {"next_frame": 0, "done_at": -1, "pressed_for": 0, "press_at": -1, "down_at": -1}

    def press(at_ms):
        if opts["speed"] <= 0:
            bench.press(at_ms)
        else:
            state["press_at"] = at_ms

    def hold_in_real_time():
        # A loaded host can stall longer than a 100 ms press lasts at a high --speed: like a
        # person, hold the button until the clock has heard it (a "button pressed" event).
        t = board.clock.elapsed
        if state["press_at"] >= 0 and t >= state["press_at"]:
            board.set_input(bench.button, 0)
            state["press_at"] = -1
            state["down_at"] = len(bench.events)
        elif state["down_at"] >= 0:
            for e in bench.events[state["down_at"]:]:
                if e["event"] == "button" and e["kind"] == "pressed":
                    board.clear_input(bench.button)
                    state["down_at"] = -1
                    break

    keys = Keys(bench) if opts["keys"] else None
    if keys is None:
        press(opts["press_at"])

    def frame():
        t = board.clock.elapsed
        if t >= state["next_frame"]:
            state["next_frame"] = t - t % frame_ms + frame_ms
            snap = app.snapshot()
            emit({"type": "frame", "t": t, "angle_mdeg": bench.hand.angle_mdeg(), "state": snap["state"],
                  "direction": bench.hand.direction, "left_ms": snap["time_left_ms"],
                  "round": snap["round"]})

    def finished():
        if bench.idles > state["pressed_for"] and bench.idles < opts["rounds"]:
            state["pressed_for"] = bench.idles
            press(board.clock.elapsed + 2000)  # the winner presses for the next round
        if state["done_at"] < 0 and bench.idles >= opts["rounds"]:
            state["done_at"] = board.clock.elapsed
        # a little longer than the dwell, so the end line shows the motor released
        return state["done_at"] >= 0 and board.clock.elapsed - state["done_at"] >= c["dwell_ms"] + 100

    limit = (app.max_run_ms + 20000) * opts["rounds"] + opts["press_at"]
    try:
        if opts["speed"] <= 0:
            bench.run(limit, finished, frame)
        else:
            board.clock.run_real(opts["speed"])

            def until():
                if keys is not None:
                    keys.read(board.clock.elapsed)
                    if keys.speed != speed[0]:
                        board.clock.run_real(keys.speed)
                        runtime._speed = speed[0] = keys.speed  # sleep 1/speed of each wait
                else:
                    hold_in_real_time()
                board.check_watchdog()
                frame()
                if keys is not None:
                    return keys.quit  # a person plays as long as they like
                return finished() or board.clock.elapsed > limit

            # The loop main.py runs on a board; it sleeps 1/speed of each wait
            # (below 1 ms it only loops: a stepper at a high --speed keeps a core busy).
            runtime = Runtime(app, clock=board.clock.now, wdt=watchdog(bench.settings, "clock"),
                              speed=opts["speed"])
            speed = [opts["speed"]]
            if keys is not None:
                keys.speed = opts["speed"]
            runtime.run(until)
    except Exception as exc:  # the app already emitted "fault"; report and fail
        emit({"type": "error", "t": board.clock.elapsed, "error": repr(exc)})
        return 1
    bench.hand.settle()
    frame()
    emit({"type": "end", "t": board.clock.elapsed, "completed": app.completed,
          "energised": bench.hand.energised, "quick_reversals": bench.hand.quick_reversals,
          "forbidden": bench.hand.forbidden, "resets": board.resets})
    if keys is not None:
        return 0
    return 0 if app.completed >= opts["rounds"] else 1


def main() -> None:
    opts = parse_args(sys.argv[1:])
    if opts["prop"] != "clock":
        emit({"type": "error", "error": "run_prop: unknown prop %r (known: clock)" % (opts["prop"],)})
        sys.exit(2)
    sys.exit(run_clock(opts))


main()
