"""The fuse box's control logic: FuseBoxApp (see props.fusebox for the whole box).

The window scan and its state machine (idle, round, blown), the buttons, sound,
lights and relay in `tick(now_ms)`, persistence, the game table and the link's
commands. The card in the box is a collaborator, props.fusebox.cards.CardSlot
(`self.slot`): the box asks it which card and where its bolt is, and reacts.
"""
from drivers.indicator import Indicator
from drivers.sensorwatch import KIND_NAMES as FAULT_NAMES
from drivers.sensorwatch import fault_index, fault_kind
from drivers.switches import PRESSED, event_index, event_kind

from props.fusebox.cards import CardSlot
from props.fusebox.commands import GameTable, as_numbers
from props.fusebox.constants import (
    ACCEPT_BLINK,
    ALL_WINDOWS,
    BLOWN,
    BLOWN_SOUND,
    BUTTON_BOLT,
    BUTTON_NEXT,
    CLICK,
    IDLE,
    MANUAL,
    PACK,
    ROUND,
    SAFE_FLASH,
    WRONG,
    blinks,
    print_event,
)
from rules.fingerweg import WINDOWS, Game


class FuseBoxApp:
    """The fuse box's control logic (see the module docstring).

    windows: drivers.switches.Switches over the 8 window sensors (bit i =
    window i); watch: the drivers.sensorwatch.SensorWatch under it (or
    None); buttons: Switches over next, prev, bolt (or None); chime: a
    PiezoChime; red, green, relay: drivers.indicator.Indicator (relay may be
    None); pack: a verified cardpack.Pack of task cards or None, with
    pack_error saying why not (they go into the CardSlot `slot`); store:
    store.Store or None.
    """

    def __init__(self, windows, chime, red, green, relay=None, watch=None, buttons=None,
                 settings=None, on_event=None, pack=None, pack_error=None, pack_path: str = "",
                 store=None) -> None:
        if settings is None:
            import settings as settings_module
            settings = settings_module.defaults("fusebox")
        cfg = settings["fusebox"]
        self._windows = windows
        self._watch = watch
        self._buttons = buttons
        self._chime = chime
        self._red = red
        self._green = green
        self._relay = relay
        self._relay_pattern = (cfg["relay_ms"],)
        self.on_event = on_event if on_event is not None else print_event  # replaceable sink
        self._closed_level = 0 if cfg["open_when_active"] else ALL_WINDOWS
        self.tick_ms = cfg["scan_ms"] if cfg["scan_ms"] > 0 else 5
        self.config_errors: list = []
        self.slot = CardSlot(pack, pack_path, pack_error)
        self.state = IDLE
        self.table = GameTable()
        self.store = store
        self._blink_patterns = [blinks(i) for i in range(WINDOWS)]
        self._now = 0
        self._started = False
        self._bus_lost = False    # the sensor source raised OSError (MCP23017 gone)
        self._open = 0            # bitmap of open windows (debounced)
        self._round_bits = 0      # windows opened in this round
        self._opened = 0          # how many
        self._last_opened = -1
        self._blown_window = -1
        self._f_window = {"window": 0, "open": False, "opened": 0}
        self._f_safe = {"window": 0, "opened": 0}
        self._f_blown = {"window": 0, "opened": 0}
        self._f_fault = {"window": 0, "fault": ""}
        self._restore()

    # --- persistence ----------------------------------------------------
    def _restore(self) -> None:
        if self.store is None:
            return
        saved = self.store.load()
        if not saved:
            return
        try:
            if saved.get("game") is not None:
                self.table.game = Game.from_state(saved["game"])
        except (ValueError, TypeError, AttributeError):
            self.config_errors.append("the saved game could not be read; starting without one")
        card = saved.get("card") if type(saved) is dict else None
        if card and self.slot.pack is not None:
            try:
                index = self.slot.find(card)
                if index >= 0:
                    self.slot.choose(index)
            except ValueError:  # PackError: the boot's check passed, so only a failing flash gets here
                self.config_errors.append("the saved card %s could not be read from the pack" % card)

    def _save(self) -> None:
        if self.store is None:
            return
        game = self.table.game.state() if self.table.game is not None else None
        self.store.save({"game": game, "card": self.slot.card_id})

    def _end_round(self) -> None:
        if self.state == BLOWN:
            self._red.off()
        self.state = IDLE

    def _signal_open(self) -> None:
        windows = [w for w in range(WINDOWS) if self._open & (1 << w)]
        self._red.start(self._now, self._blink_patterns[windows[0]])
        self._chime.start(self._now, WRONG)
        self._emit("windows_not_closed", {"windows": as_numbers(windows), "card": self.slot.card_id})

    def _accept(self, now: int) -> None:
        """All windows are shut: the chosen card (or, in manual mode, a fresh round) is in play."""
        self.slot.accepted()
        self.state = ROUND
        self._round_bits = 0
        self._opened = 0
        self._last_opened = -1
        self._blown_window = -1
        self._red.off()
        self._green.start(now, ACCEPT_BLINK)
        dropped = self.table.card_accepted(self.slot.bolt)
        self._save()
        self._emit("card", {"id": self.slot.card_id, "index": self.slot.index,
                            "bolt_known": self.slot.bolt >= 0, "mode": self.slot.mode,
                            "dropped_round": dropped})

    # --- commands -------------------------------------------------------------
    def select_card(self, card: str) -> dict:
        """Put the card with id `card` into the box (accepted once every window is shut)."""
        from cardpack import PackError
        slot = self.slot
        try:
            index = slot.find(card)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(slot.pack_error) from None
        if index < 0:
            raise ValueError("there is no card %s in the pack (%d cards)" % (card, slot.count()))
        return self._select(index)

    def next_card(self) -> dict:
        """The next card of the pack (the first after the last)."""
        return self._select(self.slot.step(1))

    def prev_card(self) -> dict:
        """The previous card of the pack (the last before the first)."""
        return self._select(self.slot.step(-1))

    def _select(self, index: int) -> dict:
        """Card `index` into the box: accepted at once if every window is shut, else signalled."""
        from cardpack import PackError
        try:
            self.slot.choose(index)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(self.slot.pack_error) from None
        self._end_round()
        if self._open == 0:
            self._accept(self._now)
        else:
            self._signal_open()
        return self.snapshot()

    def _pack_failed(self, exc) -> None:
        """The pack failed mid-game (the flash): manual mode, said on the link, a manual round."""
        error = self.slot.fail(exc)
        self._emit("pack_error", {"error": error, "path": self.slot.pack_path})
        self._emit("mode", {"mode": MANUAL, "cards": 0, "why": error})
        self._end_round()
        if self._open == 0:
            self._accept(self._now)

    def bolt(self) -> dict:
        """Manual mode: the bolt is behind the window opened last; the fuse blows."""
        if self.slot.mode != MANUAL:
            raise ValueError("the box knows where this card's bolt is: the bolt button is for manual mode")
        if self.state != ROUND or self._last_opened < 0:
            raise ValueError("open a window first: the bolt button marks the window just opened")
        self._blow(self._last_opened, self._now)
        return self.snapshot()

    def new_game(self, players: int) -> dict:
        """Forget the old game; start one for `players` (2-8), player 1 holding the start card."""
        fresh_card = self.state == ROUND and self._round_bits == 0
        self.table.new_game(players, (self.slot.bolt if self.slot.bolt >= 0 else 0) if fresh_card else None)
        self._save()
        return self.table.summary()

    def report_choices(self, away) -> dict:
        """The discs for the oldest opened window not yet reported: `away` = players (1-n) showing the bolt.

        Returns the rules core's result (rules.fingerweg.Opening.as_dict) and
        the scores, with windows 1-8 and players 1-n (the core counts from 0).
        """
        result = self.table.report(away, self.slot.bolt >= 0, self._blown_window)
        self._save()
        self._emit("scored", result)
        return result

    def snapshot(self) -> dict:
        """The box for the host link (allocates; not for ticks)."""
        reports = self.table.pending()
        faulty = self._watch.faulty if self._watch is not None else 0
        return {
            "mode": self.slot.mode, "state": self.state, "card": self.slot.card_id,
            "index": self.slot.index, "cards": self.slot.count(),
            "pending": self.slot.pending, "open": [w + 1 for w in range(WINDOWS) if self._open & (1 << w)],
            "opened": self._opened, "to_report": as_numbers(reports),
            "faulty": [w + 1 for w in range(WINDOWS) if faulty & (1 << w)],
            "pack_error": self.slot.pack_error,
        }

    def state_command(self) -> dict:
        """The box and the game."""
        snap = self.snapshot()
        snap["game"] = self.table.summary()
        return snap

    def commands(self) -> dict:
        """name -> (handler, schema), for link.router.Link.add_commands."""
        return {
            "select_card": (self.select_card, {"card": "str"}),
            "next_card": (self.next_card, {}),
            "prev_card": (self.prev_card, {}),
            "bolt": (self.bolt, {}),
            "new_game": (self.new_game, {"players": "int"}),
            "report_choices": (self.report_choices, {"away": "ints"}),
            "state": (self.state_command, {}),
        }

    def shutdown(self) -> None:
        """Sound, lights and relay off."""
        self._chime.silence()
        self._red.off()
        self._green.off()
        if self._relay is not None:
            self._relay.off()

    def wait_ms(self, now: int) -> int:  # the contract's: every deadline falls on a scan
        return self.tick_ms

    def flash_ok(self, now: int) -> bool:
        """True when a flash write may stall the chip now (runtime.FLASH_STALL_MS, nothing runs):
        no sound, no relay pulse, no window or button change being debounced."""
        relay = self._relay
        buttons = self._buttons
        return (not self._chime.busy and (relay is None or not relay.busy)
                and self._windows.settled and (buttons is None or buttons.settled))

    # --- the tick ------------------------------------------------------------
    def tick(self, now: int) -> None:
        """Scan sensors and buttons, react, advance sound and lights.

        Allocates nothing while windows open and close and the fuse blows;
        accepting a card (or starting a manual round) emits a fresh event
        dict and saves the game, and choosing a card reads the pack.
        """
        self._now = now
        windows = self._windows
        if self._watch is not None:
            self._watch.now = now
        try:
            windows.update(now)
            scanned = True
        except OSError:
            scanned = False
            # the MCP23017 stopped answering (loose cable): say so once, keep the box running
            if not self._bus_lost:
                self._bus_lost = True
                f = self._f_fault
                f["window"] = -1
                f["fault"] = "i2c"
                self._red.start(now, Indicator.FAULT)
                self._emit("sensor_fault", f)
        if scanned:
            self._bus_lost = False
            if not self._started:
                self._boot(now)
            while windows.pending():
                event = windows.pop()
                self._on_window(event_index(event),
                                (event_kind(event) == PRESSED) != (self._closed_level != 0), now)
            watch = self._watch
            if watch is not None:
                while watch.pending():
                    self._on_fault(watch.pop(), now)
        buttons = self._buttons
        if buttons is not None:
            buttons.update(now)
            while buttons.pending():
                event = buttons.pop()
                if event_kind(event) == PRESSED:
                    self._on_button(event_index(event))
        self._outputs(now)

    def _outputs(self, now: int) -> None:
        self._chime.update(now)
        self._red.update(now)
        self._green.update(now)
        if self._relay is not None:
            self._relay.update(now)

    def _boot(self, now: int) -> None:
        self._started = True
        slot = self.slot
        self._open = self._windows.state ^ self._closed_level
        if slot.mode == PACK:
            self._emit("mode", {"mode": PACK, "cards": slot.count(), "why": ""})
        else:
            if slot.pack_error:
                self._emit("pack_error", {"error": slot.pack_error, "path": slot.pack_path})
            why = slot.pack_error or "no card pack (%s)" % (slot.pack_path or "none")
            self._emit("mode", {"mode": MANUAL, "cards": 0, "why": why})
        if self._open == 0:
            if slot.mode == MANUAL or slot.pending:
                self._accept(now)
        elif slot.pending:
            self._signal_open()

    def _on_window(self, index: int, is_open: bool, now: int) -> None:
        bit = 1 << index
        fresh = False
        if is_open:
            self._open |= bit
            if self.state == ROUND and not self._round_bits & bit:
                fresh = True
                self._round_bits |= bit
                self._opened += 1
                self._last_opened = index
                self.table.window_opened(index)
        else:
            self._open &= ~bit
        f = self._f_window
        f["window"] = index + 1  # windows 1-8 on the link, as printed on the box
        f["open"] = is_open
        f["opened"] = self._opened
        self._emit("window", f)
        if fresh:
            if self.slot.mode == MANUAL:
                self._chime.start(now, CLICK)  # bolt unknown: the players look and press the bolt button
            elif index == self.slot.bolt:
                self._blow(index, now)
            else:
                self._chime.start(now, CLICK)
                self._green.start(now, SAFE_FLASH)
                f = self._f_safe
                f["window"] = index + 1
                f["opened"] = self._opened
                self._emit("safe", f)
        elif not is_open and self._open == 0:
            if self.state == BLOWN:
                self._end_round()
            if self.slot.pending or (self.slot.mode == MANUAL and self.state == IDLE):
                self._accept(now)

    def _blow(self, window: int, now: int) -> None:
        self.state = BLOWN
        self._blown_window = window
        self._chime.start(now, BLOWN_SOUND)
        self._green.off()
        self._red.on()
        if self._relay is not None:
            self._relay.start(now, self._relay_pattern)
        f = self._f_blown
        f["window"] = window + 1
        f["opened"] = self._opened
        self._emit("fuse_blown", f)

    def _on_fault(self, event: int, now: int) -> None:
        f = self._f_fault
        f["window"] = fault_index(event) + 1
        f["fault"] = FAULT_NAMES[fault_kind(event)]
        if self.state != BLOWN:
            self._red.start(now, Indicator.FAULT)
        self._emit("sensor_fault", f)

    def _on_button(self, index: int) -> None:
        try:
            if index == BUTTON_BOLT:
                if self.slot.mode == MANUAL:
                    self.bolt()
            elif self.slot.mode == PACK:
                self._select(self.slot.step(1 if index == BUTTON_NEXT else -1))
        except ValueError:
            pass  # refused: a button has no one to tell but the lights (pack_error already sent)

    def fault(self, exc) -> None:
        """A tick raised (runtime.Runtime's fault contract; the outputs are off): say so."""
        self._emit("fault", {"state": self.state, "error": repr(exc)})
        self.state = "fault"

    def _emit(self, name: str, fields: dict) -> None:
        self.on_event(name, fields)
