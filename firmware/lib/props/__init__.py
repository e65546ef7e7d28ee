"""One app per prop, built by `props.<name>.build(settings, on_event, store)` and run by runtime.Runtime.

    props.clock    the ghost clock (ClockApp; props.clock.commands: its link commands and saved game)
    props.fusebox  the Finger weg! fuse box (FuseBoxApp)
    props.football the Finger Football box (FootballApp)

The contract: build() returns an app that keeps props/contract.pyi (PropApp:
tick(now_ms), tick_ms, wait_ms, flash_ok, shutdown(), fault(exc), commands()
(the link's table), config_errors, on_event, store, snapshot(); mypy checks
each build() against it); each module names its STATE_FILE for the store.
NAMES is the one list of props (settings, link.startup, and on the desktop
deploy and sim read it).
"""
NAMES = ("clock", "fusebox", "football")
# Every prop this firmware's source has: what a config.json may name (settings checks it).
ALL = NAMES
# A frozen image made with FIRMWARE_PROPS (manifest.py) holds only those props; it freezes a
# module frozen_props whose NAMES lists them, and NAMES is then what this image can run:
# link.startup refuses a config naming another prop (safe mode, the reason named), never a
# crash loop. With the firmware copied as files there is no frozen_props.
try:
    from frozen_props import NAMES  # type: ignore[import-not-found,no-redef]  # noqa: F401
except ImportError:
    pass
