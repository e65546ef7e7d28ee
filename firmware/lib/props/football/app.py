"""The Finger Football box's control logic: FootballApp (see props.football for the whole box).

Buttons and the link's reports drive the referee engine
(rules.fingerfootball.FingerFootball); the 3-second field-goal count runs in
`tick(now_ms)`; the game is saved to a store; the scoreboard shows `view()`.
"""
from time import ticks_diff

from drivers.entropy import urandom_seed
from drivers.switches import KIND_NAMES, LONG, PRESSED, event_index, event_kind

from props.football.constants import (
    BEAT_MS,
    BEAT_TONE,
    BUTTON_NAMES,
    COUNTING,
    END_TONE,
    FAULT,
    GO_TONE,
    GOOD,
    IDLE,
    KICK,
    REFUSED_TONE,
    ROLL,
    SAVE_VERSION,
    box_settings,
)
from props.football.scoreboard import game_view
from rules.fingerfootball import KICK_COUNT_MS, FingerFootball


class FootballApp:
    """The box's control logic (see the module docstring).

    switches: Switches with the four buttons in BUTTON_NAMES order; chime: a
    PiezoChime; display: OledDisplay or LedDisplay (anything with render/off);
    settings: the full settings dict or None; store: a store.Store or None;
    entropy(): a fresh seed when the config has none; indicator: optional LED;
    clock(): the time for link commands between ticks (default: the last tick's time),
    so a report is timed when it arrives, not at the tick before.
    """

    def __init__(self, switches, chime, display, settings=None, on_event=None, store=None,
                 entropy=None, indicator=None, tick_ms: int = 10, clock=None) -> None:
        cfg, errors = box_settings(settings)
        self.config_errors = errors
        self.cfg = cfg
        self.tick_ms = tick_ms
        self._switches = switches
        self._chime = chime
        self._display = display
        self._indicator = indicator
        self.on_event = on_event if on_event is not None else print_event  # replaceable sink
        self._entropy = entropy
        self._clock = clock
        self.store = None
        self.state = IDLE
        self.seed = 0
        self.game = self._fresh_game(None)
        self._now = 0
        self._go_at = 0
        self._beat = 0          # beats sounded in the count: 0 = go ... 3 = the end
        self._expired = False   # the final tone sounded; the kick is settled on the next tick
        self._f_count = {"step": "go", "beat": 0, "at_ms": 0}
        self._f_button = {"button": "roll", "kind": "pressed"}
        if store is not None:
            self.attach_store(store)
        self._refresh()

    # --- game and persistence ---------------------------------------------
    def _fresh_game(self, seed) -> FingerFootball:
        if seed is None:
            seed = self.cfg["seed"]
        if seed is None:
            seed = self._entropy() if self._entropy is not None else urandom_seed()
        overrides = {"plays_per_quarter": self.cfg["plays_per_quarter"],
                     "quarters": self.cfg["quarters"], "names": self.cfg["names"]}
        try:
            game = FingerFootball(seed, overrides)
        except ValueError as exc:
            self.config_errors.append("football: %s; using the rulebook's settings" % exc)
            game = FingerFootball(seed)
        self.seed = seed
        return game

    def attach_store(self, store) -> None:
        """Save every change to `store`; resume the game saved there, if any."""
        self.store = store
        saved = store.load()
        if saved is None:
            self._save()
            return
        try:
            if saved.get("version") != SAVE_VERSION:
                raise ValueError("saved by another firmware version")
            self.game = FingerFootball.restore(saved["game"])
            self.seed = saved["seed"]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.config_errors.append("football: saved game not resumed (%s); new game" % exc)
            self._save()
        self._refresh()

    def _save(self) -> None:
        if self.store is not None:
            self.store.save({"version": SAVE_VERSION, "seed": self.seed, "game": self.game.snapshot()})

    # --- commands (the link and the buttons) -------------------------------
    def new_game(self, seed=None) -> dict:
        """Forget the game and start a new one (seed: replay a known game)."""
        self._stop_count()
        self.game = self._fresh_game(seed)
        self._save()
        self._refresh()
        self._emit("play", {"action": "new_game", "message": self.game.state["message"],
                            "seed": self.seed})
        return self.snapshot()

    def roll(self, zone=None, lane=None) -> dict:
        """The random button: the coin at the toss, the dice before a play.

        zone/lane: faces read off real dice instead of the box's own roll.
        """
        self._not_counting()
        game = self.game
        phase = game.state["phase"]
        if phase == "toss":
            self._act("toss", None)
            self._emit("toss", {"winner": game.state["toss_winner"],
                                "name": game.name(game.state["toss_winner"])})
            return self.snapshot()
        if (zone is None) != (lane is None):
            raise ValueError("give both dice faces (zone and lane), or none for the box's roll")
        self._act("roll", None if zone is None else [zone, lane])
        s = game.state
        dice = s["dice"]
        self._emit("roll", {"zone": dice[0], "lane": dice[1], "by": 1 - s["offense"],
                            "target": s["target"], "options": s["options"]})
        return self.snapshot()

    def kick_start(self) -> dict:
        """"Ready": start the 3-second count (announcing the field goal or extra point first)."""
        self._not_counting()
        game = self.game
        phase = game.state["phase"]
        if phase == "scrimmage":
            self._act("field_goal", None)   # refused (ValueError) before the 50
        elif phase == "conversion":
            self._act("extra_point", None)
        elif phase not in ("field_goal", "extra_point"):
            raise ValueError("no kick now: a field goal needs the ball past the 50, an extra "
                             "point a touchdown")
        now = self._time()
        self.state = COUNTING
        self._go_at = now
        self._beat = 0
        self._expired = False
        self._chime.start(now, GO_TONE)
        f = self._f_count
        f["step"] = "go"
        f["beat"] = 0
        f["at_ms"] = 0
        self._emit("kick_count", f)
        self._refresh()
        return self.snapshot()

    def report(self, action: str, yards=None, pick=None) -> dict:
        """A result the players report, passed to the referee: e.g. report("made"),
        report("fumble", yards=35), report("target", pick="touchdown").

        During the count "good"/"no_good" settle the kick; "good" after the
        final tone counts as no good.
        """
        if self.state == COUNTING or self._expired:
            if action == "good":
                self._settle_kick(True)
                return self.snapshot()
            if action == "no_good":
                self._settle_kick(False)
                return self.snapshot()
            raise ValueError("the kick count is running: report good or no_good")
        if self.game.state["phase"] in ("field_goal", "extra_point") and action in ("good", "no_good"):
            raise ValueError("start the count first (kick button): the kick must come between "
                             "'go' and 'one thousand three'")
        if yards is not None and pick is not None:
            raise ValueError("give yards or pick, not both")
        self._act(action, yards if yards is not None else pick)
        return self.snapshot()

    def snapshot(self) -> dict:
        """The box and the game as plain values (allocates; not for ticks)."""
        snap = self.game.snapshot()
        del snap["settings"]
        snap["box"] = self.state
        snap["seed"] = self.seed
        snap["lines"] = list(getattr(self._display, "lines", []))
        snap["kick_ms"] = ticks_diff(self._time(), self._go_at) if self.state == COUNTING else None
        return snap

    def state_command(self) -> dict:
        """The snapshot with the game's settings (team names, rows, dice): enough for a host to
        restore the game (FingerFootball.restore) and read the moves it takes, as the referee
        `propctl play fingerfootball --port` does."""
        snap = self.snapshot()
        snap["settings"] = self.game.settings
        return snap

    def commands(self) -> dict:
        """name -> (handler, schema), for link.router.Link.add_commands."""
        return {
            "roll": (self.roll, {"zone": "str?", "lane": "str?"}),
            "kick_start": (self.kick_start, {}),
            "report": (self.report, {"action": "str", "yards": "int?", "pick": "str?"}),
            "state": (self.state_command, {}),
            "new_game": (self.new_game, {"seed": "seed?"}),
        }

    def shutdown(self) -> None:
        """Quiet and dark (called when the pump ends for any reason)."""
        self._chime.silence()
        if self._indicator is not None:
            self._indicator.off()

    def wait_ms(self, now: int) -> int:
        """Until the next deadline: the next tick (the count's beats fall on ticks)."""
        return self.tick_ms

    def flash_ok(self, now: int) -> bool:
        """True when a flash write may stall the chip now (runtime.FLASH_STALL_MS, nothing runs):
        no kick count, no tone, no button change being debounced."""
        return (self.state != COUNTING and not self._expired and not self._chime.busy
                and self._switches.settled)

    # --- the tick ------------------------------------------------------------
    def tick(self, now: int) -> None:
        """Do everything due at `now` (ms ticks). The count allocates nothing; button
        actions (the referee) do. An exception goes to runtime.Runtime's fault contract:
        shutdown() (the box quiet), then fault(exc).
        """
        self._now = now
        if self._expired:
            self._settle_kick(False)
        switches = self._switches
        switches.update(now)
        while switches.pending():
            self._on_switch(switches.pop())
        if self.state == COUNTING:
            self._count(now)
        self._chime.update(now)
        if self._indicator is not None:
            self._indicator.update(now)

    def _count(self, now: int) -> None:
        elapsed = ticks_diff(now, self._go_at)
        if elapsed < (self._beat + 1) * BEAT_MS:
            return
        self._beat += 1
        f = self._f_count
        f["beat"] = self._beat
        f["at_ms"] = elapsed
        if self._beat < 3:
            self._chime.start(now, BEAT_TONE)
            f["step"] = "beep"
        else:
            self._chime.start(now, END_TONE)
            f["step"] = "end"
            self.state = IDLE
            self._expired = True   # no "good" before the end: settled as no good next tick
        self._emit("kick_count", f)

    def _settle_kick(self, claimed_good: bool) -> None:
        at = ticks_diff(self._time(), self._go_at)
        late = self._expired or at >= KICK_COUNT_MS
        good = claimed_good and not late
        kind = self.game.state["phase"]
        if late and not self._expired:
            # reported at or after 3,000 ms, before the tick that ends the count: end it now
            self._chime.start(self._time(), END_TONE)
            f = self._f_count
            f["step"] = "end"
            f["beat"] = 3
            f["at_ms"] = at
            self._emit("kick_count", f)
        elif not late:
            self._chime.silence()  # the count stops at the report
        self.state = IDLE
        self._expired = False
        self._act("good" if good else "no_good", None)
        self._emit("kick_result", {"kind": kind, "good": good, "late": late and claimed_good,
                                   "at_ms": at if at < KICK_COUNT_MS else KICK_COUNT_MS})

    def _time(self) -> int:
        return self._clock() if self._clock is not None else self._now

    def _stop_count(self) -> None:
        if self.state == COUNTING:
            self._chime.silence()
        self.state = IDLE
        self._expired = False

    def _not_counting(self) -> None:
        if self.state == COUNTING or self._expired:
            raise ValueError("the kick count is running: report good or no_good first")

    def _act(self, name: str, arg) -> None:
        events = self.game.act(name, arg)   # ValueError: nothing changed
        self._save()
        self._refresh()
        for event in events:
            fields = dict(event)
            self._emit(fields.pop("event"), fields)

    def _on_switch(self, event: int) -> None:
        index = event_index(event)
        kind = event_kind(event)
        if index >= len(BUTTON_NAMES):
            return
        f = self._f_button
        f["button"] = BUTTON_NAMES[index]
        f["kind"] = KIND_NAMES[kind]
        self._emit("button", f)
        if kind == LONG and index == ROLL and self.game.state["phase"] == "over":
            self.new_game()  # held after the final whistle: a new game without the host
            return
        if kind != PRESSED:
            return
        try:
            self._press(index)
        except ValueError as exc:
            self._emit("refused", {"button": BUTTON_NAMES[index], "error": str(exc)})
            self._chime.start(self._now, REFUSED_TONE)
            if self._indicator is not None:
                from drivers.indicator import Indicator
                self._indicator.start(self._now, Indicator.FAULT)

    def _press(self, index: int) -> None:
        if index == ROLL:
            if self.game.state["phase"] == "over":
                return  # the start of a hold for a new game, not a mistake
            self.roll()
            return
        if index == KICK:
            self.kick_start()
            return
        good = index == GOOD
        if self.state == COUNTING or self._expired:
            self.report("good" if good else "no_good")
            return
        names = self.game.action_names()
        for name in (("made", "touchdown", "good") if good else ("missed", "no_good")):
            if name in names:
                self.report(name)
                return
        raise ValueError("nothing to report as %s now; %s" % (
            "good" if good else "missed", self.game.state["message"]))

    # --- display ---------------------------------------------------------------
    def _refresh(self) -> None:
        self._display.render(game_view(self.game, self.state == COUNTING))

    def fault(self, exc) -> None:
        """A tick raised (runtime.Runtime's fault contract: the box is already quiet):
        state FAULT and the "fault" event with the state it was in."""
        was = self.state
        self.state = FAULT
        self._emit("fault", {"state": was, "error": repr(exc)})

    def _emit(self, name: str, fields: dict) -> None:
        self.on_event(name, fields)


def print_event(name: str, fields: dict) -> None:
    """The default event sink: one line on the console."""
    print("football:", name, fields)
