"""Run the ghost clock's firmware on the virtual board and print JSON lines (MicroPython side).

    MICROPYPATH=<vboard>:firmware/lib micropython vprops/clock/run.py [options]

Options (the round's seed is a setting: clock.seed in --overrides):
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
    {"type": "end", "t": ..., "completed": ..., "energised": ..., "quick_reversals": ..., "forbidden": ...,
     "hum_ms": ms the DC motor was driven without turning (physics.HBridgeHand)}
The run ends once the clock is idle again after its last round (exit status 0),
or with status 1 on a fault or when the round does not finish in time.
"""
import sys

from runner_io import emit_event, report_piezo, runner_options
from runtime import Runtime, watchdog
from vboard import StdinLines, emit

from vprops.clock.bench import ClockBench

DEFAULTS = {"speed": 0, "frame_ms": 100, "overrides": {}, "press_at": 300, "rounds": 1,
            "battery_mv": -1, "keys": 0}
NEXT_ROUND_MS = 2000  # the winner presses the button again this long after the chime


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


class ClockRun:
    """One run of the clock on the virtual board: presses, hand frames, the end line (see above)."""

    def __init__(self, opts) -> None:
        self.opts = opts
        self.bench = bench = ClockBench(opts["overrides"], echo=emit_event)
        self.board = bench.board
        self.app = app = bench.app
        if opts["battery_mv"] >= 0:
            bench.set_battery_mv(opts["battery_mv"])
        c = bench.settings["clock"]
        self.dwell_ms = c["dwell_ms"]
        emit({"type": "info", "prop": "clock", "board": bench.settings["board"], "motor": c["motor"],
              "bridge": c["bridge"], "chime": c["chime"], "tick_ms": app.tick_ms,
              "max_run_ms": app.max_run_ms, "errors": bench.errors + app.config_errors})
        report_piezo(self.board, str(bench.pins["piezo"]))
        self.next_frame = 0       # board ms of the next hand frame
        self.done_at = -1         # board ms the last round ended (idle again), -1 before
        self.pressed_for = 0      # rounds over for which the next press is already planned
        self.press_at = -1        # real time: board ms the button goes down, -1: none planned
        self.heard_from = -1      # real time: events index at the press, -1: the button is up
        self.keys = Keys(bench) if opts["keys"] else None
        self.limit = (app.max_run_ms + 20000) * opts["rounds"] + opts["press_at"]
        self.runtime = None
        if self.keys is None:
            self.press(opts["press_at"])

    def press(self, at_ms: int) -> None:
        if self.opts["speed"] <= 0:
            self.bench.press(at_ms)  # virtual time: scheduled on the board
        else:
            self.press_at = at_ms

    def hold_in_real_time(self) -> None:
        """A loaded host can stall longer than a 100 ms press lasts at a high --speed: like a
        person, hold the button until the clock has heard it (a "button pressed" event)."""
        bench = self.bench
        t = self.board.clock.elapsed
        if self.press_at >= 0 and t >= self.press_at:
            self.board.set_input(bench.button, 0)
            self.press_at = -1
            self.heard_from = len(bench.events)
        elif self.heard_from >= 0:
            for e in bench.events[self.heard_from:]:
                if e["event"] == "button" and e["kind"] == "pressed":
                    self.board.clear_input(bench.button)
                    self.heard_from = -1
                    break

    def frame(self) -> None:
        t = self.board.clock.elapsed
        if t >= self.next_frame:
            frame_ms = self.opts["frame_ms"]
            self.next_frame = t - t % frame_ms + frame_ms
            snap = self.app.snapshot()
            emit({"type": "frame", "t": t, "angle_mdeg": self.bench.hand.angle_mdeg(),
                  "state": snap["state"], "direction": self.bench.hand.direction,
                  "left_ms": snap["time_left_ms"], "round": snap["round"]})

    def finished(self) -> bool:
        """All rounds played, and a little longer than the dwell (the end line shows the motor released)."""
        idles, rounds, now = self.bench.idles, self.opts["rounds"], self.board.clock.elapsed
        if self.pressed_for < idles < rounds:
            self.pressed_for = idles
            self.press(now + NEXT_ROUND_MS)
        if self.done_at < 0 and idles >= rounds:
            self.done_at = now
        return self.done_at >= 0 and now - self.done_at >= self.dwell_ms + 100

    def until(self) -> bool:
        """Real time, after every runtime pass: the keys or the presses, the watchdog, a frame."""
        keys = self.keys
        if keys is not None:
            keys.read(self.board.clock.elapsed)
            if keys.speed != self.runtime.speed:
                self.board.clock.run_real(keys.speed)
                self.runtime.speed = keys.speed  # sleep 1/speed of each wait
        else:
            self.hold_in_real_time()
        self.board.check_watchdog()
        self.frame()
        if keys is not None:
            return keys.quit  # a person plays as long as they like
        return self.finished() or self.board.clock.elapsed > self.limit

    def run(self) -> int:
        """The rounds, in virtual time (--speed 0) or real time; the exit status."""
        speed = self.opts["speed"]
        try:
            if speed <= 0:
                self.bench.run(self.limit, self.finished, self.frame)
            else:
                self.board.clock.run_real(speed)
                # The loop main.py runs on a board; it sleeps 1/speed of each wait
                # (below 1 ms it only loops: a stepper at a high --speed keeps a core busy).
                self.runtime = Runtime(self.app, clock=self.board.clock.now,
                                       wdt=watchdog(self.bench.settings, "clock"), speed=speed)
                if self.keys is not None:
                    self.keys.speed = speed
                self.runtime.run(self.until)
        except Exception as exc:  # the runtime made the outputs safe; the app said "fault"
            emit({"type": "error", "t": self.board.clock.elapsed, "error": repr(exc)})
            return 1
        return self.end()

    def end(self) -> int:
        bench, app = self.bench, self.app
        bench.hand.settle()
        self.frame()
        emit({"type": "end", "t": self.board.clock.elapsed, "completed": app.completed,
              "energised": bench.hand.energised, "quick_reversals": bench.hand.quick_reversals,
              "forbidden": bench.hand.forbidden, "resets": self.board.resets,
              "hum_ms": getattr(bench.hand, "hum_ms", 0)})
        if self.keys is not None:
            return 0
        return 0 if app.completed >= self.opts["rounds"] else 1


sys.exit(ClockRun(runner_options(sys.argv[1:], DEFAULTS, "vprops/clock/run.py")).run())
