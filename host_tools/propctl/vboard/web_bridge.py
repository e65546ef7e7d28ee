"""The props on the virtual board, driven from a web page (MicroPython WebAssembly in the browser).

    import web_bridge
    prop = web_bridge.Prop("clock", "", 12345, 3)  # a prop of vprops/ with a web.py, its pack, ...
    prop.input("button", 1)                       # hold the start button; ("button", 0) lets go
    prop.command("report", '{"action": "receive"}')   # a link command of the prop
    reply = prop.frame(16)                        # run 16 ms of board time, JSON of what changed
    prop.reports('["opp2"]')                      # a part with pickers: what a pick's words lead to

The page calls frame() once per animation frame with the real time that
passed (times its speed). The real firmware runs through the benches, in
the firmware's runtime.Runtime in virtual time (each pass wakes it at its
next deadline, at most tick_ms later), exactly as the tests and the terminal
sims do. The reply holds the prop's new events, the piezo's new PWM changes
([t, freq, duty], so the page can play them), the output levels, and the
picture the page draws of the prop. What is about one prop (its bench, its
inputs, its picture, its words) is its part, vprops/<name>/web.py (PropWeb),
and the page's side of it propctl/props/<name>/web.js. Each event
carries "text", its sentence from propctl/describe.py (the page puts the
propctl modules that run on MicroPython on sys.path).

Seeds: a fixed seed (the page's &seed=N, 0 or more) is the prop's seed
setting, as `propctl sim clock --seed N` and `propctl plan --seed N` use it:
every clock round plays that plan, a prop with dice rolls them from it.
Without one (-1) the WebAssembly port, which has no os.urandom, draws the
rounds' seeds from `entropy`, a random number from the browser's crypto.
"""
import json
import random

# Recorder entries: the page reads them every frame, so a few thousand are plenty.
CAPACITY = 4000


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
        self.part = _part(name).PropWeb(pack, seed, CAPACITY, self._events.append, _entropy)
        self.bench = self.part.bench
        self.board = self.bench.board
        self._seen = 0
        piezo = str(self.bench.pins["piezo"])
        self._freq_sig = piezo + ".freq"
        self._duty_sig = piezo + ".duty"
        self._freq = 0
        self._levels: dict = {}   # signal name -> last value written

    def input(self, what: str, value: int) -> None:
        """A person at the prop: hold/let go of a button, open/close a window (1-8), press a button."""
        if not self.part.input(what, value):
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
        self.part.fields(fields)
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
        self.part.picture(reply)  # the hand, the card, the OLED: what the page draws of this prop

    def reports(self, prefix_json: str) -> str:
        """The part's report entries once the words in the JSON list `prefix_json` of a pick
        are chosen (only a part that offers pickers has reports())."""
        return self.part.reports(prefix_json)

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


def _part(name: str):
    """The prop's part for the page: vprops/<name>/web.py (its bench, inputs and picture)."""
    for ch in name:  # the page's ?prop= never makes us import anything but a prop's part
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            raise ValueError("no prop called %r" % name)
    try:
        return __import__("vprops.%s.web" % name, None, None, ("PropWeb",), 0)
    except ImportError:
        raise ValueError("no prop called %r" % name) from None
