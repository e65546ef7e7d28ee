"""Run the fuse-box firmware on the virtual board, driven by commands on stdin (MicroPython side).

    MICROPYPATH=<vboard>:firmware/lib micropython vprops/fusebox/run.py [--overrides FILE]

JSON: the board's settings over the defaults, shaped like config.json (checked
by settings.merge), e.g. '{"fusebox": {"inputs": "mcp23017"}}'; without it, all
defaults. One command per input line; board time moves only with commands,
so a session is the same every time (the sim at a terminal sends `wait MS` with
the real time that passed between keys):
    open N | close N | toggle N   window N (1-8, top first) moves, with a little contact bounce
    next | prev | bolt            press that button
    select ID                     link command select_card
    game N                        link command new_game (N players)
    report [S,S,...]              link command report_choices: players (1-n) who showed the bolt
    chatter N                     window N's sensor flickers for 1.5 s (a faulty sensor)
    wait MS                       let MS of board time pass
    state                         print the box and the game
    quit
Output, one JSON object per line, "t" = board time in ms:
    {"type": "info", ...}, {"type": "event", "event": ..., ...fields},
    {"type": "reply", "ok": ...} or {"type": "refused", "error": ...} for link commands,
    {"type": "pwm", "t": ..., "pin": "15", "what": "freq" or "duty", "value": ...}   the piezo's PWM
    {"type": "status", ...} after every command (the sim draws it), {"type": "end"}.
"""
import sys

from runner_io import emit_event, runner_options
from vboard import emit

from cardpack import taskcard
from vprops.fusebox.bench import FuseBoxBench

SETTLE_MS = 100   # after a window move: longer than the debounce time
BUTTON_MS = 150


def whole_number(what: str, word: str) -> int:
    """int(word), or a ValueError a person can read (MicroPython's says "invalid syntax ...")."""
    try:
        return int(word)
    except ValueError:
        raise ValueError("%s is a whole number, not %r" % (what, word)) from None


class FuseBoxRun:
    """One virtual fuse box and the commands above."""

    def __init__(self, overrides) -> None:
        self.bench = FuseBoxBench(overrides, echo=emit_event)
        self.app = self.bench.app
        self.outputs = self._watch_outputs()
        c = self.bench.settings["fusebox"]
        emit({"type": "info", "prop": "fusebox", "board": self.bench.settings["board"],
              "inputs": c["inputs"], "pack": c["pack"], "errors": self.bench.errors + self.app.config_errors})
        self.bench.run(20)  # power-up: the first scan settles the sensors

    def _watch_outputs(self) -> dict:
        """The lights' and relay's levels and the piezo's duty, kept up to date on every change
        (the recorder's log fills up in a long session, and reading it through grows with it);
        the piezo's PWM changes are reported as they happen."""
        board = self.bench.board
        pins = self.bench.pins
        piezo = str(pins["piezo"])
        names = {}
        for name in ("led_red", "led_green", "relay"):
            names[board.signal(str(pins[name]))] = name
        names[board.signal(piezo + ".duty")] = "piezo"
        levels = {"led_red": 0, "led_green": 0, "relay": 0, "piezo": 0}
        pwm = {board.signal(piezo + ".duty"): "duty", board.signal(piezo + ".freq"): "freq"}

        def changed(sig, value, t):
            name = names.get(sig)
            if name is not None:
                levels[name] = value
            what = pwm.get(sig)
            if what is not None:
                emit({"type": "pwm", "t": t, "pin": piezo, "what": what, "value": value})

        for _, signal, value in board.log():  # what the build set before the watch began
            name = names.get(board.signal(signal))
            if name is not None:
                levels[name] = value
        board.watch(changed)
        return levels

    def _window_number(self, word: str) -> int:
        n = whole_number("a window", word)
        if n < 1 or n > 8:
            raise ValueError("windows are 1 to 8, not %d" % n)
        return n - 1

    def move(self, window: int, is_open: bool) -> None:
        bench = self.bench
        now = bench.board.clock.elapsed
        level = bench.level_for(is_open)
        bench.raw(window, level, now)
        bench.raw(window, 1 - level, now + 1)  # contact bounce
        bench.raw(window, level, now + 3)
        bench.run(SETTLE_MS)

    def link(self, name: str, *args) -> None:
        try:
            result = self.app.commands()[name][0](*args)
        except ValueError as exc:
            emit({"type": "refused", "t": self.bench.board.clock.elapsed, "error": str(exc)})
            return
        emit({"type": "reply", "t": self.bench.board.clock.elapsed, "cmd": name, "ok": result})

    def command(self, line: str) -> bool:
        """Do one command line; False to stop."""
        words = line.split()
        if not words:
            return True
        verb = words[0]
        arg = words[1] if len(words) > 1 else ""
        bench = self.bench
        try:
            if verb in ("open", "close", "toggle"):
                window = self._window_number(arg)
                if verb == "toggle":
                    is_open = window + 1 not in self.app.snapshot()["open"]  # the link counts 1-8
                else:
                    is_open = verb == "open"
                self.move(window, is_open)
            elif verb in ("next", "prev", "bolt"):
                bench.press("btn_" + verb)
                bench.run(BUTTON_MS)
            elif verb == "select":
                self.link("select_card", arg)
            elif verb == "game":
                self.link("new_game", whole_number("the number of players", arg))
            elif verb == "report":
                seats = [whole_number("a player", s) for s in arg.split(",") if s not in ("", "-")]
                self.link("report_choices", seats)
            elif verb == "chatter":
                window = self._window_number(arg)
                now = bench.board.clock.elapsed
                # the window stays where it is: the sensor flickers and settles at its level again
                level = bench.level_for(window + 1 in self.app.snapshot()["open"])
                for i in range(1, 217):  # odd: the other level; the last (even) settles
                    bench.raw(window, 1 - level if i % 2 else level, now + 7 * i)
                bench.run(7 * 216 + SETTLE_MS)
            elif verb == "wait":
                bench.run(whole_number("the time to wait (ms)", arg))
            elif verb == "state":
                self.link("state")
            elif verb == "quit":
                return False
            else:
                emit({"type": "refused", "t": bench.board.clock.elapsed,
                      "error": "unknown command %s (open/close/toggle N, next, prev, bolt, select ID, "
                               "game N, report S,S, chatter N, wait MS, state, quit)" % verb})
        except ValueError as exc:  # a bad number in the command line
            emit({"type": "refused", "t": bench.board.clock.elapsed, "error": str(exc)})
        self.status()
        return True

    def status(self) -> None:
        app = self.app
        bench = self.bench
        snap = app.state_command()
        snap["type"] = "status"
        snap["t"] = bench.board.clock.elapsed
        levels = self.outputs
        snap["red"] = levels["led_red"]
        snap["green"] = levels["led_green"]
        snap["relay"] = levels["relay"]
        snap["sound"] = levels["piezo"] > 0
        snap["text"] = None
        snap["statements"] = None
        snap["bolt_seen"] = None
        if app.slot.pack is not None and snap["index"] >= 0:
            card = taskcard.decode(app.slot.pack.record(snap["index"]))
            snap["text"] = card.text
            snap["category"] = card.category
            snap["statements"] = list(card.statements)
            # the bolt shows only through an open window, as on the real card
            snap["bolt_seen"] = card.bolt + 1 if card.bolt + 1 in snap["open"] else None  # window 1-8
        emit(snap)


def main() -> None:
    run = FuseBoxRun(runner_options(sys.argv[1:], {"overrides": {}}, "vprops/fusebox/run.py")["overrides"])
    run.status()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if not run.command(line.strip()):
            break
    emit({"type": "end", "t": run.bench.board.clock.elapsed})


main()
