"""The props on the virtual board, driven from a web page (MicroPython WebAssembly in the browser).

    import web_bridge
    prop = web_bridge.Prop("clock", "", 12345, 3)  # or "fusebox" (pack file path), "football"
    prop.input("button", 1)                       # hold the start button; ("button", 0) lets go
    prop.command("report", '{"action": "receive"}')   # a link command (football's reports,
                                                  # the fuse box's new_game and report_choices)
    reply = prop.frame(16)                        # run 16 ms of board time, JSON of what changed
    prop.reports('["opp2"]')                      # football: the reports a pick's words lead to

The page calls frame() once per animation frame with the real time that
passed (times its speed). The real firmware runs through the benches, in
the firmware's runtime.Runtime in virtual time (each pass wakes it at its
next deadline, at most tick_ms later), exactly as the tests and the terminal
sims do. The reply holds the prop's new events, the piezo's new PWM changes
([t, freq, duty], so the page can play them), the output levels, and the
picture: the hand's angle (clock), the card and the game (fuse box), the
OLED text, what each button does now and the reports the game takes
(football, in the players' words from propctl/props/football/reports.py). Each
event carries "text", its sentence from propctl/describe.py (both put on
sys.path by the page).

Seeds: a fixed seed (the page's &seed=N, 0 or more) is the prop's seed
setting, as `propctl sim clock --seed N` and `propctl plan --seed N` use it:
every clock round plays that plan, the football box tosses and rolls from
it. Without one (-1) the WebAssembly port, which has no os.urandom, draws
the rounds' seeds from `entropy`, a random number from the browser's crypto.
"""
import json
import random

# Recorder entries: the page reads them every frame, so a few thousand are plenty.
CAPACITY = 4000
FUSEBOX_BUTTONS = ("btn_next", "btn_prev", "btn_bolt")
FOOTBALL_BUTTONS = ("roll", "kick", "good", "miss")
MIN_PRESS_MS = 80  # a press the firmware's debounce surely sees


def version() -> str:
    """The MicroPython version running the page, e.g. "1.27.0"."""
    import sys
    return "%d.%d.%d" % sys.implementation.version[:3]


def _entropy() -> int:
    """A fresh 30-bit seed for a round or a game (in place of drivers.entropy)."""
    return random.getrandbits(30)


class Prop:
    """One prop on a fresh virtual board (see the module docstring)."""

    def __init__(self, name: str, pack: str = "", entropy: int = 0, seed=-1,
                 show_plan: bool = False) -> None:
        self.name = name
        seed = int(seed)  # the page hands a seed as text: JavaScript's numbers are not Python's ints
        self._events: list = []
        # the round's planned length would spoil the game at the table: told only with show_plan
        self._secret = () if show_plan else ("duration_ms",)
        random.seed(entropy)
        if name == "clock":
            from vprops.clock import bench as clock_bench
            clock = {"motor": "stepper"}
            if seed >= 0:
                clock["seed"] = seed
            self.bench = clock_bench.ClockBench({"clock": clock}, capacity=CAPACITY,
                                                 echo=self._events.append, entropy=_entropy)
        elif name == "fusebox":
            from vprops.fusebox import bench as fusebox_bench
            self.bench = fusebox_bench.FuseBoxBench({"fusebox": {"pack": pack}}, capacity=CAPACITY,
                                                     echo=self._events.append)
            self._open = [False] * 8
        elif name == "football":
            from vprops.football import bench as football_bench
            settings = {"football": {"seed": seed}} if seed >= 0 else None
            self.bench = football_bench.FootballBench(settings, capacity=CAPACITY,
                                                       echo=self._events.append, entropy=_entropy)
        else:
            raise ValueError("no prop called %r" % name)
        self.board = self.bench.board
        self._seen = 0
        piezo = str(self.bench.pins["piezo"])
        self._freq_sig = piezo + ".freq"
        self._duty_sig = piezo + ".duty"
        self._freq = 0
        self._levels: dict = {}   # signal name -> last value written
        self._card = None
        self._down_at = 0   # board time a football button went down

    def input(self, what: str, value: int) -> None:
        """A person at the prop: hold/let go of a button, open/close a window (1-8), press a button."""
        bench = self.bench
        if self.name == "clock" and what == "button":
            if value:
                self.board.set_input(bench.button, 0)
            else:
                self.board.clear_input(bench.button)
        elif self.name == "fusebox" and what == "window":
            index = value - 1
            self._open[index] = not self._open[index]
            bench.window(index, self._open[index])
        elif self.name == "fusebox" and what == "close_windows":  # the next starter shuts them all
            for index in range(8):
                if self._open[index]:
                    self._open[index] = False
                    bench.window(index, False)
        elif self.name == "fusebox" and what in FUSEBOX_BUTTONS:
            bench.press(what)
        elif self.name == "football" and what in FOOTBALL_BUTTONS:
            pin = bench.pins["btn_" + what]
            now = self.board.clock.elapsed
            if value:  # held until let go (a long ROLL after the final whistle: a new game)
                self.board.set_input(pin, 0)
                self._down_at = now
            else:      # a tap shorter than a frame still lasts long enough for the debounce
                self.board.schedule_input(max(now, self._down_at + MIN_PRESS_MS), pin, None)
        else:
            raise ValueError("%s has no input %r" % (self.name, what))

    def frame(self, ms: int) -> str:
        """Run `ms` of board time; JSON of the events, tones and picture since the last frame."""
        if ms > 0:
            self.bench.run(ms)
        log = self.board.log(self._seen)
        self._seen = self.board.count
        tones = []
        levels = self._levels
        for t, signal, value in log:
            if signal == self._freq_sig:
                self._freq = value
                tones.append([t, value, -2])      # -2: the duty did not change
            elif signal == self._duty_sig:
                tones.append([t, self._freq, value])
            levels[signal] = value
        for event in self._events:
            event["text"] = self._describe(event)
            for key in self._secret:
                event.pop(key, None)
        reply = {"t": self.board.clock.elapsed, "events": list(self._events), "tones": tones,
                 "outputs": self._outputs()}
        self._picture(reply)
        self._events.clear()  # in place: the bench's echo appends to this list
        # The page keeps the log: a session of any length must not fill the bench.
        self.bench.events.clear()
        if self.board.count > self.board.capacity // 2:
            self.board.count = 0
            self._seen = 0
        return json.dumps(reply)

    def _describe(self, event: dict) -> str:
        """The event as a sentence (propctl/describe.py, as `propctl monitor` shows it)."""
        from propctl import describe
        fields = {}
        for key in event:
            if key != "event" and key != "t" and key not in self._secret:
                fields[key] = event[key]
        if self.name == "football":
            fields["names"] = self.bench.app.cfg["names"]  # the teams by name, as the sim says them
        return describe.describe_event(self.name, event["event"], fields)

    def _outputs(self) -> dict:
        """Last level of every output of the prop's profile ("piezo.duty": the PWM duty)."""
        out = {}
        levels = self._levels
        for name in self.bench.pins:
            pin = self.bench.pins[name]
            if pin is None:
                continue
            for suffix in ("", ".duty"):
                signal = str(pin) + suffix
                if signal in levels:
                    out[name + suffix] = levels[signal]
        return out

    def _picture(self, reply: dict) -> None:
        bench = self.bench
        if self.name == "clock":
            reply["hand_mdeg"] = bench.hand.angle_mdeg()
            reply["state"] = bench.app.state
        elif self.name == "fusebox":
            reply["open"] = [i + 1 for i in range(8) if self._open[i]]
            for event in reply["events"]:
                if event["event"] == "card":
                    self._card = self._describe_card(event["index"])
            reply["card"] = self._card
            reply["box"] = bench.app.state_command()  # the box's state and the game (players 1-n)
        else:
            from propctl.props.football import reports as football_reports
            reply["screen"] = bench.screen()
            state = self._football_state()
            reply["message"] = bench.app.game.state["message"]
            reply["counting"] = state["box"] == "counting"
            reply["roles"] = football_reports.button_roles(state, "hold it down")  # what each button does now
            # what the players may report now (over the link on a real table)
            reply["actions"] = state["actions"]
            reply["reports"] = self._entries(football_reports.reports(state))
            reply["play_note"] = football_reports.play_note(state)

    def _football_state(self) -> dict:
        app = self.bench.app
        actions = [[a[0], a[1], a[2]] for a in app.game.actions()]
        return {"phase": app.game.state["phase"], "actions": actions, "box": app.state}

    def reports(self, prefix_json: str) -> str:
        """Football: the report entries once the words in the JSON list `prefix_json` of a pick
        (an announced play: its zone first) are chosen."""
        from propctl.props.football import reports as football_reports
        prefix = tuple(json.loads(prefix_json))
        return json.dumps(self._entries(football_reports.reports(self._football_state(), prefix)))

    @staticmethod
    def _entries(entries) -> list:
        """football_reports' (label, line, needs) as the page takes them: {"label", "report": the
        report command's arguments or None, "needs": ["yards", action, lo, hi] or ["pick",
        action, [words chosen]] or None}."""
        from propctl.props.football import reports as football_reports
        out = []
        for label, line, needs in entries:
            out.append({"label": label, "report": football_reports.report_args(line) if line else None,
                        "needs": list(needs) if needs else None})
        return out

    def command(self, name: str, args_json: str) -> str:
        """A link command of the prop (as `propctl` would send it); JSON {"ok": result} or {"error": why}."""
        handler = self.bench.app.commands()[name][0]
        args = json.loads(args_json)
        try:
            return json.dumps({"ok": handler(**args)})
        except ValueError as exc:
            from propctl import describe
            return json.dumps({"error": str(exc), "text": describe.describe_event(
                self.name, "refused", {"error": str(exc)})})

    def _describe_card(self, index: int):
        """The card in the box, read from the pack as the firmware reads it."""
        from cardpack import taskcard
        pack = self.bench.app.slot.pack
        if pack is None or index < 0:
            return None
        card = taskcard.decode(pack.record(index))
        return {"id": card.id, "category": card.category, "text": card.text,
                "statements": list(card.statements), "bolt": card.bolt + 1}
