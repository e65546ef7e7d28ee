"""Run the configured prop on the board with the link on its USB serial.

    from link import board
    board.start(mode, settings, config_errors, guard)   # from main.py

Props plug in through PROPS: prop name -> (module, commands). The module
provides `build(settings, on_event)` returning an app with `tick(now_ms)`,
`tick_ms` and `shutdown()`; `commands(app, on_event)` returns an object whose
`commands()` is the link's command table (see link.router). A prop without
firmware yet still boots: the link answers `hello` and reports a fault.

In safe mode and maintenance mode no prop starts and no watchdog runs: the
link answers `hello` (with `mode`) and Ctrl-C gives the REPL, which is what
mpremote and `propctl deploy` need.
"""
import sys
import time

import safemode

from link import stdio
from link.router import Link

FIRMWARE_VERSION = "0.1.0"
STATE_DIR = ""


def _clock_commands(app, on_event):
    from store import Store

    from link.clock import STATE_FILE, ClockCommands
    return ClockCommands(app, Store(STATE_DIR + STATE_FILE), on_event)


def _football_commands(app, on_event):
    from props.football import STATE_FILE
    from store import Store
    app.attach_store(Store(STATE_DIR + STATE_FILE))
    return app  # FootballApp.commands() is its own command table


def _fusebox_commands(app, on_event):
    return app  # FuseBoxApp.commands() is its own table; build() gave it the store


PROPS = {
    "clock": ("props.clock", _clock_commands),
    "football": ("props.football", _football_commands),
    "fusebox": ("props.fusebox", _fusebox_commands),
}


def identity(settings, mode: str, errors=None) -> dict:
    """What `hello` reports besides the protocol fields (config errors too: boot lines may be missed)."""
    return {"firmware": FIRMWARE_VERSION, "prop": settings["prop"], "board": settings["board"],
            "mode": mode, "platform": sys.platform, "config_errors": list(errors or [])}


def _idle_commands(link, mode: str, crashes: int, errors=()) -> dict:
    def leave():
        safemode.BootGuard().clear()
        link.event("reset", {"why": "leaving %s mode" % mode})
        _reset()

    def advice():
        if mode != safemode.SAFE:
            return {"mode": mode}
        return safemode.advice(crashes, errors, safemode.last_fault())
    return {"leave": (leave, {}), "why": (advice, {})}


def _reset() -> None:
    import machine
    machine.reset()


def serve_without_prop(mode: str, settings, errors, guard) -> None:
    """Safe or maintenance mode: answer the link, start nothing; Ctrl-C gives the REPL."""
    link = Link(stdio.write_line, identity(settings, mode, errors))
    crashes = guard.count()
    link.add_commands(_idle_commands(link, mode, crashes, errors))
    if mode == safemode.SAFE:
        link.event("safe_mode", safemode.advice(crashes, errors, safemode.last_fault()))
    else:
        link.event("maintenance", {"why": "deploy asked for it; no prop runs"})
    for message in errors:
        link.event("config_error", {"msg": message})
    port = stdio.StdioPort(link)
    while True:
        port.pump(1000)


def run_prop(link, settings, errors, guard, stable_ms: int = safemode.STABLE_MS) -> None:
    """Build the prop, then tick it and the link forever. Exceptions propagate."""
    name = settings["prop"]
    entry = PROPS.get(name)
    if entry is None:
        link.event("fault", {"error": "this firmware has no %s prop yet" % name})
        serve_without_prop_loop(link)
        return
    module = __import__(entry[0], None, None, ["build"])
    app = module.build(settings, link.event)
    link.add_commands(entry[1](app, link.event).commands())

    def maintenance():
        link.event("resetting", {"why": "maintenance (deploy)"})
        safemode.request_maintenance()
        _reset()
    link.add_commands({"maintenance": (maintenance, {})})
    link.event("boot", link.hello_info())
    for message in errors + getattr(app, "config_errors", []):
        link.event("config_error", {"msg": message})
    port = stdio.StdioPort(link)
    watchdog_ms = settings.get(name, {}).get("watchdog_ms", 0)
    wdt = None
    if watchdog_ms:
        import boards
        import machine
        longest = boards.limits(settings["board"])["wdt_max_ms"]
        wdt = machine.WDT(timeout=watchdog_ms if watchdog_ms < longest else longest)
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
    started = ticks_ms()
    stable = False
    try:
        while True:
            now = ticks_ms()
            app.tick(now)
            if wdt is not None:
                wdt.feed()
            if not stable and ticks_diff(now, started) >= stable_ms:
                guard.stable()
                stable = True
            port.pump(app.tick_ms)
    except KeyboardInterrupt:
        guard.stable()  # a person pressed Ctrl-C: not a crash
        raise
    finally:
        app.shutdown()


def serve_without_prop_loop(link) -> None:
    """Answer the link forever (a prop this firmware cannot run)."""
    port = stdio.StdioPort(link)
    while True:
        port.pump(1000)


def start(mode: str, settings, errors, guard) -> None:
    """main.py's one call: run in `mode`; a crash reports a fault and resets the board."""
    if mode != safemode.RUN:
        serve_without_prop(mode, settings, errors, guard)
        return
    link = Link(stdio.write_line, identity(settings, safemode.RUN, errors))
    try:
        run_prop(link, settings, errors, guard)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        # the app has already released the motor; say why, then start afresh
        # (three of these in a row before the prop ran stably: safe mode)
        error = "%s: %s" % (type(exc).__name__, exc)
        link.event("fault", {"error": error, "action": "reset"})
        safemode.note_fault(error)
        sys.print_exception(exc)  # type: ignore[attr-defined]
        time.sleep_ms(500)  # type: ignore[attr-defined]
        _reset()
