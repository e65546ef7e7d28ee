"""One app per prop, built by `props.<name>.build(settings, on_event, store)` and run by runtime.Runtime.

    props.clock    the ghost clock (ClockApp; props.clock.game: its link commands and saved game)
    props.fusebox  the Finger weg! fuse box (FuseBoxApp)
    props.football the Finger Football box (FootballApp)

The contract: build() returns an app that keeps props/contract.pyi (PropApp:
tick(now_ms), tick_ms, wait_ms, flash_ok, shutdown(), fault(exc), commands()
(the link's table), config_errors, on_event, store, snapshot(); mypy checks
each build() against it); each module names its STATE_FILE for the store.
NAMES is the one list of props (settings, link.board, and on the desktop
deploy and sim read it).
"""
NAMES = ("clock", "fusebox", "football")
