"""Run the configured prop on the board with the link on its USB serial.

    from link import startup
    startup.start(mode, settings, config_errors, guard)   # from main.py

Every prop in props.NAMES plugs in the same way (the prop contract):
`props.<name>.build(settings, on_event, store)` returns an app that keeps the
contract in props/contract.pyi (PropApp, checked by mypy: `tick(now_ms)`,
`tick_ms`, `wait_ms`, `flash_ok`, `shutdown()`, `fault(exc)`, `commands()` (the
link's command table, see link.router), `config_errors`, `on_event`, `store`,
`snapshot()`); store is a store.Store on the module's STATE_FILE.
A prop this firmware does not have still boots: the link answers `hello`
and reports a fault.

The prop runs in runtime.Runtime. Besides the prop's commands the link then
answers `maintenance` (reboot for deploy), `mem` (heap free and used) and
the wiring self-test's `selftest_*` commands (selftest.py).
While it runs a Ctrl-C on the line is data (see link.stdio). In safe mode
and maintenance mode no prop starts and no watchdog runs: the link answers
`hello` (with `mode`), `why` and `leave` (back to the prop at the next boot),
and Ctrl-C gives the REPL, which is what mpremote, `propctl deploy` and
`propctl repl` need.
"""
import sys
import time

import props
import safemode
from runtime import Runtime, watchdog
from version import VERSION

from link import stdio
from link.router import Link

STATE_DIR = ""
# Read only while booting: settings (config.json's checks and defaults) and boardprofiles
# (the boards' headers and limits), and of the prop that runs its settings section and its
# pins (PROP_BOOT_ONLY: props/PROP/settings_schema.py and pinout.py, each imported only for
# the prop that runs). Once the prop is built and its runtime made, nothing refers to them;
# forgotten, their tables (and, run from .mpy files, their code) go back to the heap for the
# game (docs/heap.md). A later import (the self-test's) loads them afresh.
BOOT_ONLY = ("settings", "boardprofiles")
PROP_BOOT_ONLY = ("settings_schema", "pinout")


def forget_boot_modules() -> None:
    """Drop the BOOT_ONLY modules from sys.modules (main.py holds no name of theirs), and each
    prop's PROP_BOOT_ONLY modules from sys.modules and from the prop's package, which names
    every submodule imported from it."""
    for name in BOOT_ONLY:
        if name in sys.modules:
            del sys.modules[name]
    for prop in props.NAMES:
        package = sys.modules.get("props." + prop)
        for part in PROP_BOOT_ONLY:
            name = "props.%s.%s" % (prop, part)
            if name in sys.modules:
                del sys.modules[name]
            if package is not None and hasattr(package, part):
                delattr(package, part)


def identity(settings, mode: str, errors=None) -> dict:
    """What `hello` reports besides the protocol fields (config errors too: boot lines may be missed)."""
    return {"firmware": VERSION, "prop": settings["prop"], "board": settings["board"],
            "mode": mode, "platform": sys.platform, "config_errors": list(errors or [])}


def idle_commands(link, mode: str, crashes: int, errors=(), refused: str = "") -> dict:
    """The commands of safe and maintenance mode (no prop runs): `leave` and `why`."""
    def leave():
        safemode.BootGuard().clear()
        safemode.end_maintenance()
        link.event("reset", {"why": "leaving %s mode" % mode})
        _reset()

    def advice():
        if mode != safemode.SAFE:
            return {"mode": mode}
        return safemode.advice(crashes, errors, safemode.last_fault(), refused)
    return {"leave": (leave, {}), "why": (advice, {})}


def heap() -> dict:
    """The heap after a collection (bytes free and used): a leak shows as `used` growing."""
    import gc
    gc.collect()
    return {"free": gc.mem_free(), "used": gc.mem_alloc()}  # type: ignore[attr-defined]


def run_commands(link, app=None, store=None) -> dict:
    """The commands every running prop has besides its own: `maintenance` (reboot for deploy), `mem`.

    Before the reset, maintenance turns the app's outputs off and writes what its store (a
    later store) still waits to write: the flash stalls are harmless now, a lost save is not.
    """
    def maintenance():
        link.event("resetting", {"why": "maintenance (deploy)"})
        if app is not None:
            app.shutdown()
        if store is not None:
            for _ in store.steps():
                pass
        safemode.request_maintenance()
        _reset()
    return {"maintenance": (maintenance, {}), "mem": (heap, {})}


def _reset() -> None:
    import machine
    machine.reset()


def missing_prop(settings) -> str:
    """Why the prop config.json names cannot run here ("" if it can): a frozen one-prop image
    (props.NAMES) holds another prop. Said, not tried: an import would crash every boot."""
    name = settings["prop"]
    if name in props.NAMES:
        return ""
    return ("%s: config.json names the prop %s, but this firmware image holds only %s"
            % (safemode.NOT_IN_IMAGE, name, ", ".join(props.NAMES)))


def serve_without_prop(mode: str, settings, errors, guard, refused: str = "") -> None:
    """Safe or maintenance mode: answer the link, start nothing; Ctrl-C gives the REPL.
    refused: why a safe mode did not start the prop (missing_prop), else crashes are why."""
    link = Link(stdio.write_line, identity(settings, mode, errors))
    crashes = guard.count()
    link.add_commands(idle_commands(link, mode, crashes, errors, refused))
    if mode == safemode.SAFE:
        link.event("safe_mode", safemode.advice(crashes, errors, safemode.last_fault(), refused))
    else:
        link.event("maintenance", {"why": "deploy asked for it; no prop runs"})
    for message in errors:
        link.event("config_error", {"msg": message})
    port = stdio.StdioPort(link)
    while True:
        port.pump(1000)


def run_prop(link, settings, errors, guard, stable_ms: int = safemode.STABLE_MS) -> None:
    """Build the prop, then run it and the link in the runtime forever. Exceptions propagate."""
    if settings["prop"] not in props.NAMES:
        link.event("fault", {"error": "this firmware has no %s prop yet" % settings["prop"]})
        serve_without_prop_loop(link)
        return
    rt, port = build_prop(link, settings, errors, guard, stable_ms)
    port.hold_repl()  # from here on a Ctrl-C on the line is data, always: no REPL while a prop runs
    try:
        rt.run()
    finally:
        port.release_repl()


def build_prop(link, settings, errors, guard, stable_ms: int = safemode.STABLE_MS) -> tuple:
    """(runtime, port): the prop built, wrapped and linked, its boot events sent, the boot-only
    modules forgotten; nothing runs yet."""
    name = settings["prop"]
    import gc

    from store import Store
    net = settings.get("net")
    venue = None
    if net and net["broker"]:
        # venue mode (docs/venue.md); a prop without a broker never imports the net layer.
        # Loaded first: its code needs blocks of a few KB, which a heap that holds the
        # prop's buffers (the fuse box's above all) may no longer have in one piece.
        from net import venue  # type: ignore[assignment]
    # The boot's garbage (config text, settings checks) goes first, so the prop's
    # long-lived buffers find whole free blocks instead of a fragmented heap.
    gc.collect()
    module = __import__("props." + name, None, None, ["build"])
    # the store writes when the runtime finds the prop clear of deadlines (flash stalls the chip)
    store = Store(STATE_DIR + module.STATE_FILE, later=True)
    app = module.build(settings, link.event, store)
    import selftest  # `propctl selftest`; loaded after the prop's own buffers, which need the room
    app = selftest.wrap(app, settings, link.event)
    link.add_commands(app.commands())

    link.add_commands(run_commands(link, app, store))
    link.event("boot", link.hello_info())
    for message in errors + app.config_errors:
        link.event("config_error", {"msg": message})
    port = stdio.StdioPort(link)
    if venue is not None:
        port = venue.start(port, link, app, settings, link.hello_info())  # type: ignore[assignment]
    rt = Runtime(app, port=port, wdt=watchdog(settings, name), guard=guard, stable_ms=stable_ms,
                 stores=(store,))
    forget_boot_modules()
    return rt, port


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
    refused = missing_prop(settings)
    if refused:
        serve_without_prop(safemode.SAFE, settings, errors, guard, refused)
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
