"""The Finger weg! fuse box: 8 window sensors, the card in the box, a fuse that blows.

FuseBoxApp is a tickable state machine: `tick(now_ms)` scans the window
sensors and buttons and drives the buzzer, the lights and the relay, so
tests run it in virtual time and the board only runs it in runtime.Runtime:

    app = build(settings, on_event)       # drivers on the board profile's pins, the pack
    Runtime(app).run()                    # what main.py does (runtime.py), with the link

Modes: "pack" when a task-card pack loaded and verified (the box knows every
card's bolt window), else "manual" (missing or damaged pack: the box still
reports windows, and the bolt button says "the bolt is in the window just
opened"). Box states: idle (no card in play), round (a card accepted),
blown (the bolt window was opened; idle again once every window is shut).

A card is chosen by id (select_card), or with next/prev (buttons or link);
it is accepted only when all windows are closed, else the box signals which
window is open (red blinks: its number, top window = 1) and accepts the card
as soon as the last window closes. In manual mode a round starts whenever
all windows are closed.

Commands for the link: select_card(card), next_card(), prev_card(), bolt(),
new_game(players), report_choices(away), state(). Events to
`on_event(name, fields)`: window, card, safe, fuse_blown, windows_not_closed,
sensor_fault (window -1, fault "i2c": the MCP23017 stopped answering), mode,
pack_error, scored. Windows are 0..7 (top first) in
commands and events, as in rules.fingerweg. The fields dicts of the tick's
events are allocated once and reused: copy them to keep them.

The game (rules.fingerweg.Game, started with new_game) gets one round per
accepted card; report_choices feeds it the discs for the oldest window not
yet reported and returns the rules core's result. Game and selected card are
saved with store.Store after every change (a round cut short by a power cut
is dropped; its points already reported stay).
"""
from drivers.indicator import Indicator
from drivers.sensorwatch import KIND_NAMES as FAULT_NAMES
from drivers.sensorwatch import fault_index, fault_kind
from drivers.switches import PRESSED, event_index, event_kind
from micropython import const

from props.fusebox_game import GameTable
from rules.fingerweg import WINDOWS, Game

PACK = "pack"
MANUAL = "manual"
IDLE = "idle"
ROUND = "round"
BLOWN = "blown"

STATE_FILE = "fusebox_state.json"
BUTTON_NEXT = const(0)
BUTTON_PREV = const(1)
BUTTON_BOLT = const(2)
_ALL = const(0xFF)

# A blown fuse: a harsh falling buzz. A safe window: a short tick.
BLOWN_SOUND = (196, 120, 175, 120, 196, 120, 175, 120, 147, 120, 131, 700)
CLICK = (3500, 8)
WRONG = (330, 120, 0, 80, 330, 120)   # a card cannot be accepted yet
SAFE_FLASH = (600,)                   # green on for 600 ms
ACCEPT_BLINK = (120, 100, 120)        # green: card accepted


def _blinks(n: int) -> tuple:
    """Red LED pattern for "window n+1 is open": n+1 short blinks, then a pause."""
    pattern = []
    for _ in range(n + 1):
        pattern += [180, 180]
    pattern[-1] = 800
    return tuple(pattern)


def print_event(name: str, fields: dict) -> None:
    """The default event sink: one line on the console."""
    print("fusebox:", name, fields)


def open_pack(path: str, stream=None) -> tuple:
    """(pack, error): the verified task-card pack at `path` (or in `stream`).

    (None, None) when there is no pack; (None, message) when it is damaged
    or not a task-card pack. Never raises for a bad file.
    """
    from cardpack import Pack, PackError, taskcard
    if stream is None:
        if not path:
            return None, None
        try:
            stream = open(path, "rb")
        except OSError:
            return None, None
    try:
        pack = Pack(stream, kind=taskcard.KIND)
        taskcard.check_version(pack)
        pack.verify()
    except (PackError, OSError) as exc:
        return None, "card pack %s is unusable: %s" % (path or "stream", exc)
    return pack, None


class FuseBoxApp:
    """The fuse box's control logic (see the module docstring).

    windows: drivers.switches.Switches over the 8 window sensors (bit i =
    window i); watch: the drivers.sensorwatch.SensorWatch under it (or
    None); buttons: Switches over next, prev, bolt (or None); chime: a
    PiezoChime; red, green, relay: drivers.indicator.Indicator (relay may be
    None); pack: a verified cardpack.Pack of task cards or None, with
    pack_error saying why not; store: store.Store or None.
    """

    def __init__(self, windows, chime, red, green, relay=None, watch=None, buttons=None,
                 settings=None, on_event=None, pack=None, pack_error=None, pack_path: str = "",
                 store=None) -> None:
        if settings is None:
            import settings as settings_module
            settings = settings_module.DEFAULTS
        cfg = settings["fusebox"]
        self._windows = windows
        self._watch = watch
        self._buttons = buttons
        self._chime = chime
        self._red = red
        self._green = green
        self._relay = relay
        self._relay_pattern = (cfg["relay_ms"],)
        self._on_event = on_event if on_event is not None else print_event
        self._closed_level = 0 if cfg["open_when_active"] else _ALL
        self.tick_ms = cfg["scan_ms"] if cfg["scan_ms"] > 0 else 5
        self.config_errors: list = []
        self.pack = pack
        self.pack_path = pack_path
        self.pack_error = pack_error
        self.mode = PACK if pack is not None else MANUAL
        self.state = IDLE
        self.table = GameTable()
        self.store = store
        self._blink_patterns = [_blinks(i) for i in range(WINDOWS)]
        self._now = 0
        self._started = False
        self._bus_lost = False    # the sensor source raised OSError (MCP23017 gone)
        self._open = 0            # bitmap of open windows (debounced)
        self._round_bits = 0      # windows opened in this round
        self._opened = 0          # how many
        self._last_opened = -1
        self._blown_window = -1
        self._card_index = -1
        self._card_id: str | None = None
        self._bolt = -1           # bolt window of the card in the box; -1: unknown (manual)
        self._pending = False     # a card is chosen but not accepted yet
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
        if card and self.pack is not None:
            try:
                index = self._find(card)
                if index >= 0:
                    self._choose(index)
            except ValueError:  # PackError: the boot's check passed, so only a failing flash gets here
                self.config_errors.append("the saved card %s could not be read from the pack" % card)

    def _save(self) -> None:
        if self.store is None:
            return
        game = self.table.game.state() if self.table.game is not None else None
        self.store.save({"game": game, "card": self._card_id})

    # --- cards ------------------------------------------------------------
    def _find(self, card_id: str) -> int:
        from cardpack import taskcard
        assert self.pack is not None
        return taskcard.find(self.pack, card_id)

    def _choose(self, index: int) -> None:
        """Make card `index` the one in the box (not yet accepted)."""
        from cardpack import taskcard
        pack = self.pack
        assert pack is not None
        card = taskcard.decode(pack.record(index))
        self._card_index = index
        self._card_id = card.id
        self._bolt = card.bolt
        self._pending = True

    def _pack_failed(self, exc) -> None:
        self.pack = None
        self.pack_error = "card pack %s failed: %s" % (self.pack_path or "stream", exc)
        self.mode = MANUAL
        self._card_index = -1
        self._card_id = None
        self._bolt = -1
        self._pending = False
        self._emit("pack_error", {"error": self.pack_error, "path": self.pack_path})
        self._emit("mode", {"mode": MANUAL, "cards": 0, "why": self.pack_error})
        self._end_round()
        if self._open == 0:
            self._accept(self._now)

    def _select(self, index: int) -> dict:
        from cardpack import PackError
        if self.mode != PACK:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        try:
            self._choose(index)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(self.pack_error) from None
        self._end_round()
        if self._open == 0:
            self._accept(self._now)
        else:
            self._signal_open()
        return self.snapshot()

    def _end_round(self) -> None:
        if self.state == BLOWN:
            self._red.off()
        self.state = IDLE

    def _signal_open(self) -> None:
        windows = [w for w in range(WINDOWS) if self._open & (1 << w)]
        self._red.start(self._now, self._blink_patterns[windows[0]])
        self._chime.start(self._now, WRONG)
        self._emit("windows_not_closed", {"windows": windows, "card": self._card_id})

    def _accept(self, now: int) -> None:
        """All windows are shut: the chosen card (or, in manual mode, a fresh round) is in play."""
        self._pending = False
        self.state = ROUND
        self._round_bits = 0
        self._opened = 0
        self._last_opened = -1
        self._blown_window = -1
        self._red.off()
        self._green.start(now, ACCEPT_BLINK)
        dropped = self.table.card_accepted(self._bolt)
        self._save()
        self._emit("card", {"id": self._card_id, "index": self._card_index,
                            "bolt_known": self._bolt >= 0, "mode": self.mode,
                            "dropped_round": dropped})

    # --- commands -------------------------------------------------------------
    def select_card(self, card: str) -> dict:
        """Put the card with id `card` into the box (accepted once every window is shut)."""
        if self.mode != PACK:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        from cardpack import PackError
        try:
            index = self._find(card)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(self.pack_error) from None
        if index < 0:
            raise ValueError("there is no card %s in the pack (%d cards)" % (card, len(self.pack)))
        return self._select(index)

    def next_card(self) -> dict:
        """The next card of the pack (the first after the last)."""
        return self._step(1)

    def prev_card(self) -> dict:
        """The previous card of the pack (the last before the first)."""
        return self._step(-1)

    def _step(self, delta: int) -> dict:
        if self.mode != PACK or self.pack is None:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        count = len(self.pack)
        if self._card_index < 0:
            index = 0 if delta > 0 else count - 1
        else:
            index = (self._card_index + delta) % count
        return self._select(index)

    def bolt(self) -> dict:
        """Manual mode: the bolt is behind the window opened last; the fuse blows."""
        if self.mode != MANUAL:
            raise ValueError("the box knows where this card's bolt is: the bolt button is for manual mode")
        if self.state != ROUND or self._last_opened < 0:
            raise ValueError("open a window first: the bolt button marks the window just opened")
        self._blow(self._last_opened, self._now)
        return self.snapshot()

    def new_game(self, players: int) -> dict:
        """Forget the old game; start one for `players` (2-8), seat 0 holding the start card."""
        fresh_card = self.state == ROUND and self._round_bits == 0
        self.table.new_game(players, (self._bolt if self._bolt >= 0 else 0) if fresh_card else None)
        self._save()
        return self.table.summary()

    def report_choices(self, away) -> dict:
        """The discs for the oldest opened window not yet reported: `away` = seats that showed the bolt.

        Returns the rules core's result (rules.fingerweg.Opening.as_dict) and the scores.
        """
        result = self.table.report(away, self._bolt >= 0, self._blown_window)
        self._save()
        self._emit("scored", result)
        return result

    def snapshot(self) -> dict:
        """The box for the host link (allocates; not for ticks)."""
        reports = self.table.pending()
        faulty = self._watch.faulty if self._watch is not None else 0
        return {
            "mode": self.mode, "state": self.state, "card": self._card_id,
            "index": self._card_index, "cards": len(self.pack) if self.pack is not None else 0,
            "pending": self._pending, "open": [w for w in range(WINDOWS) if self._open & (1 << w)],
            "opened": self._opened, "to_report": reports,
            "faulty": [w for w in range(WINDOWS) if faulty & (1 << w)],
            "pack_error": self.pack_error,
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
        self._open = self._windows.state ^ self._closed_level
        if self.mode == PACK:
            assert self.pack is not None
            self._emit("mode", {"mode": PACK, "cards": len(self.pack), "why": ""})
        else:
            if self.pack_error:
                self._emit("pack_error", {"error": self.pack_error, "path": self.pack_path})
            self._emit("mode", {"mode": MANUAL, "cards": 0,
                                "why": self.pack_error or "no card pack (%s)" % (self.pack_path or "none")})
        if self._open == 0:
            if self.mode == MANUAL or self._pending:
                self._accept(now)
        elif self._pending:
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
        f["window"] = index
        f["open"] = is_open
        f["opened"] = self._opened
        self._emit("window", f)
        if fresh:
            if self.mode == MANUAL:
                self._chime.start(now, CLICK)  # bolt unknown: the players look and press the bolt button
            elif index == self._bolt:
                self._blow(index, now)
            else:
                self._chime.start(now, CLICK)
                self._green.start(now, SAFE_FLASH)
                f = self._f_safe
                f["window"] = index
                f["opened"] = self._opened
                self._emit("safe", f)
        elif not is_open and self._open == 0:
            if self.state == BLOWN:
                self._end_round()
            if self._pending or (self.mode == MANUAL and self.state == IDLE):
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
        f["window"] = window
        f["opened"] = self._opened
        self._emit("fuse_blown", f)

    def _on_fault(self, event: int, now: int) -> None:
        f = self._f_fault
        f["window"] = fault_index(event)
        f["fault"] = FAULT_NAMES[fault_kind(event)]
        if self.state != BLOWN:
            self._red.start(now, Indicator.FAULT)
        self._emit("sensor_fault", f)

    def _on_button(self, index: int) -> None:
        try:
            if index == BUTTON_BOLT:
                if self.mode == MANUAL:
                    self.bolt()
            elif self.mode == PACK:
                self._step(1 if index == BUTTON_NEXT else -1)
        except ValueError:
            pass  # refused: a button has no one to tell but the lights (pack_error already sent)

    def _emit(self, name: str, fields: dict) -> None:
        self._on_event(name, fields)


def build(settings, on_event=None, store=None, pack_stream=None) -> FuseBoxApp:
    """A FuseBoxApp on the pins of settings["board"]'s fusebox profile, with its pack (the prop contract).

    store: a store.Store for the game and card (None: nothing saved);
    `pack_stream` replaces the pack file. Raises OSError when the configured
    MCP23017 does not answer.
    """
    import boards
    import machine as m
    from drivers.chime import PiezoChime
    from drivers.sensorwatch import SensorWatch
    from drivers.switches import Mcp23017Source, PinSource, Switches
    cfg = settings["fusebox"]
    pins = boards.profile(settings["board"], "fusebox")

    def out(name):
        return m.Pin(pins[name], m.Pin.OUT, value=0)

    source: object
    if cfg["inputs"] == "mcp23017":
        i2c = m.I2C(0, sda=m.Pin(pins["i2c_sda"]), scl=m.Pin(pins["i2c_scl"]))
        source = Mcp23017Source(i2c, cfg["mcp_address"], WINDOWS, active_low=True)
        try:
            source.enable_pullups()
        except OSError:
            raise OSError("no MCP23017 answers at I2C address 0x%02x: check SDA, SCL, power and A0-A2"
                          % cfg["mcp_address"]) from None
    else:
        source = PinSource([m.Pin(pins["window%d" % (i + 1)], m.Pin.IN, m.Pin.PULL_UP)
                            for i in range(WINDOWS)], active_low=True)
    debounce = cfg["debounce_ms"]
    watch = SensorWatch(source, WINDOWS, debounce, cfg["flicker_ms"], cfg["stuck_open_ms"],
                        open_bits=_ALL if cfg["open_when_active"] else 0)
    windows = Switches(watch, WINDOWS, debounce_ms=debounce, long_press_ms=0)
    buttons = Switches(PinSource([m.Pin(pins[name], m.Pin.IN, m.Pin.PULL_UP)
                                  for name in ("btn_next", "btn_prev", "btn_bolt")], active_low=True),
                       3, debounce_ms=debounce, long_press_ms=0)
    chime = PiezoChime(m.PWM(m.Pin(pins["piezo"], m.Pin.OUT, value=0), freq=1000, duty_u16=0),
                       melody=BLOWN_SOUND)
    relay = Indicator(out("relay")) if cfg["relay"] else None
    pack, error = open_pack(cfg["pack"], pack_stream)
    return FuseBoxApp(windows, chime, Indicator(out("led_red")), Indicator(out("led_green")), relay,
                      watch=watch, buttons=buttons, settings=settings, on_event=on_event, pack=pack,
                      pack_error=error, pack_path=cfg["pack"], store=store)
