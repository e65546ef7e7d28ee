"""The Finger Football box on a virtual board: used by the tests and the sim.

    bench = FootballBench({"football": {"seed": 7}})
    bench.press("roll")                  # a button press 50 ms from now (debounced by the firmware)
    bench.run(500)                       # virtual time, through bench.runtime (runtime.Runtime)
    bench.screen()                       # text read off the fake OLED's pixels
    bench.events                         # [{"event": "roll", "t": ..., ...}, ...]
    bench.tones()                        # [(t, freq), ...] piezo tones that started

Runs under MicroPython with this folder before firmware/lib on MICROPYPATH.
"""
import oled as oled_module
import vboard

# The firmware is imported when a bench is built (as in vprops/clock/bench.py).


class FootballBench:
    """Fresh board + fake OLED + FootballApp built by props.football.build."""

    def __init__(self, settings=None, start_ms: int = 0, capacity: int = 100000, echo=None,
                 oled_height: int = 32, attach_oled: bool = True, **app_options) -> None:
        from props import football as football_prop
        from runtime import watchdog
        self.board = vboard.new_board(start_ms, capacity)
        cfg = {"prop": "football", "board": "pico"}
        for key in settings or {}:
            cfg[key] = settings[key]
        football = dict(cfg.get("football") or {})
        football.setdefault("oled_height", oled_height)
        cfg["football"] = football
        self.settings = cfg
        # what a board with these settings runs (a refused value means the default): merged
        # once, as settings.load does, with the settings module forgotten before the build
        merged = vboard.boot_settings(cfg, "football")[0]
        # what watchdog() reads, kept for write_flash (not the whole merged config)
        self._wdt_settings = {"board": merged["board"], "football": merged["football"]}
        self.pins = vboard.board_tables(cfg["board"], "football")[0]
        self.oled = None
        if attach_oled:
            # where the firmware will look
            geometry = merged["football"]
            self.oled = oled_module.FakeSSD1306(128, geometry["oled_height"])
            self.board.i2c_devices[geometry["oled_address"]] = self.oled
        self.echo = echo
        self.events: list = []
        app_options.setdefault("clock", self.board.clock.now)  # link commands in board time
        self.app = football_prop.build(cfg, self._event, **app_options)
        self.runtime = self.board.runtime(self.app, watchdog(merged, "football"))

    def write_flash(self, store=None, guard=None) -> None:
        """Run as link.startup runs a prop: the app saves to `store` (made with later=True) and the
        runtime writes it and the boot guard's counter, each write where the app allows it
        (runtime.Runtime). Use a vflash.FlashFs for the stall."""
        from runtime import watchdog
        if store is not None:
            self.app.attach_store(store)
        self.runtime = self.board.runtime(self.app, watchdog(self._wdt_settings, "football"), guard=guard,
                                          stores=(store,) if store is not None else ())

    def _event(self, name, fields) -> None:
        record = dict(fields)  # the app reuses some fields dicts
        record["event"] = name
        record["t"] = self.board.clock.elapsed
        self.events.append(record)
        if self.echo is not None:
            self.echo(record)

    def names(self) -> list:
        """Event names so far, in order."""
        return [e["event"] for e in self.events]

    def press(self, button: str, at_ms=None, hold_ms: int = 60) -> int:
        """Schedule a press of button roll/kick/good/miss; returns when it starts."""
        if at_ms is None:
            at_ms = self.board.clock.elapsed + 50
        self.board.press(self.pins["btn_" + button], at_ms, hold_ms)
        return at_ms

    def run(self, ms: int, until=None, each=None) -> int:
        """Runtime passes for ms of virtual time or until until() (see vboard.Board.run)."""
        return self.board.run(self.runtime, ms, until, each)

    def click(self, button: str, settle_ms: int = 150) -> None:
        """Press a button now and run until the press is handled and released."""
        self.press(button)
        self.run(50 + settle_ms)

    def screen(self) -> list:
        """Text on the OLED, read off its pixels."""
        return self.oled.text_lines() if self.oled is not None else []

    def tones(self) -> list:
        """[t, freq] for every piezo tone that started (duty switched on or note changed while on)."""
        pin = str(self.pins["piezo"])
        out = []
        freq = 0
        on = False
        for t, name, value in self.board.log():
            if name == pin + ".freq":
                freq = value
                if on:
                    out.append([t, freq])
            elif name == pin + ".duty":
                if value > 0 and not on:
                    out.append([t, freq])
                on = value > 0
        return out

    def leds(self) -> dict:
        """Current level of each LED output of the football profile."""
        levels: dict = {}
        for entry in self.board.log():
            levels[entry[1]] = entry[2]
        out = {}
        for name in self.pins:
            if name.startswith("led"):
                out[name] = levels.get(str(self.pins[name]), 0)
        return out
