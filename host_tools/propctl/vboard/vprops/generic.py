"""Any prop of the firmware on the virtual board, with no runner of its own (MicroPython side).

    MICROPYPATH=<vboard>:firmware/lib micropython vprops/generic.py PROP [--overrides FILE]

The prop is built as on a board: props.<PROP>.build(settings, on_event, None), run by the
firmware's runtime.Runtime in virtual time (vboard.Board.run). `propctl sim PROP` starts this
for a prop with no vprops/PROP/run.py (propctl.sim.generic is its screen). Lines on stdin:

    COMMAND [JSON]    a command of the prop's link (app.commands()), its arguments a JSON
                      object: `new_game {"players": 3}`; the reply is a "reply" line
    press ROLE [MS]   the input pin ROLE of the board profile (btn_start...) held low for MS
                      (default 150), then let go
    wait MS           board time runs on MS ms
    quit              the end

Output, one JSON object per line ("t": board ms since power-up):
    {"type": "info", "prop", "board", "commands": [...], "pins": [the profile's roles], "errors": [...]}
    {"type": "event", "t", "event", ...the event's fields}
    {"type": "reply", "t", "command", "ok": result} or {..., "error": why}
    {"type": "state", "t", "state": app.snapshot()}   after every line
    {"type": "end", "t"}
"""
import sys

from runner_io import emit_event, runner_options
from vboard import emit, new_board

PRESS_MS = 150    # longer than any debounce
SETTLE_MS = 100   # after a command: the app's next passes
WORDS = "COMMAND [JSON], press ROLE [MS], wait MS, quit"


class GenericRun:
    """One prop built by its package's build(), on a fresh virtual board."""

    def __init__(self, prop: str, overrides) -> None:
        import boardprofiles
        import settings as settings_module
        from runtime import watchdog
        self.board = new_board(0, 2000)
        data = {}
        for key in overrides:
            data[key] = overrides[key]
        data["prop"] = prop
        cfg, errors = settings_module.merge(data)
        package = __import__("props." + prop, None, None, ("build",), 0)
        self.app = package.build(cfg, self._event, None)
        self.runtime = self.board.runtime(self.app, watchdog(cfg, prop))
        try:
            self.pins = boardprofiles.profile(cfg["board"], prop)
        except ValueError:  # a new prop with no pins in the profile yet: commands only
            self.pins = {}
        commands = sorted(self.app.commands())
        pins = sorted(role for role in self.pins if self.pins[role] is not None)
        emit({"type": "info", "prop": prop, "board": cfg["board"], "commands": commands,
              "pins": pins, "errors": errors + list(self.app.config_errors)})

    def _event(self, name, fields) -> None:
        record = dict(fields)  # the app reuses its fields dicts
        record["event"] = name
        record["t"] = self.board.clock.elapsed
        emit_event(record)

    def run(self, ms: int) -> None:
        self.board.run(self.runtime, ms)

    def _refuse(self, why: str) -> None:
        emit({"type": "refused", "t": self.board.clock.elapsed, "error": why})

    def line(self, text: str) -> bool:
        """One stdin line; False on quit."""
        verb, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if verb == "quit":
            return False
        try:
            if not verb:
                pass  # an empty line: the state again
            elif verb == "wait":
                self.run(int(rest))
            elif verb == "press":
                self._press(rest)
            else:
                self._command(verb, rest)
        except ValueError as exc:  # a number or JSON a person mistyped
            self._refuse(str(exc))
        emit({"type": "state", "t": self.board.clock.elapsed, "state": self.app.snapshot()})
        return True

    def _press(self, rest: str) -> None:
        role, _, ms = rest.partition(" ")
        pin = self.pins.get(role)
        if pin is None or type(pin) is not int:
            raise ValueError("no input %r on this board (%s)" % (role, WORDS))
        self.board.set_input(pin, 0)
        self.run(int(ms) if ms.strip() else PRESS_MS)
        self.board.clear_input(pin)
        self.run(SETTLE_MS)

    def _command(self, name: str, rest: str) -> None:
        import json
        table = self.app.commands()
        if name not in table:
            raise ValueError("unknown command %s (%s; the prop's: %s)"
                             % (name, WORDS, ", ".join(sorted(table))))
        args = json.loads(rest) if rest else {}
        if type(args) is not dict:
            raise ValueError("the arguments are a JSON object, as {\"players\": 3}")
        reply = {"type": "reply", "t": self.board.clock.elapsed, "command": name}
        try:
            reply["ok"] = table[name][0](**args)
        except (ValueError, TypeError) as exc:  # the prop refused, or the arguments do not fit
            reply["error"] = str(exc)
        emit(reply)
        self.run(SETTLE_MS)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit("vprops/generic.py: name the prop first")
    options = runner_options(sys.argv[2:], {"overrides": {}}, "vprops/generic.py")
    run = GenericRun(sys.argv[1], options["overrides"])
    run.run(SETTLE_MS)  # power-up
    while True:
        line = sys.stdin.readline()
        if not line or not run.line(line):
            break
    emit({"type": "end", "t": run.board.clock.elapsed})


main()
