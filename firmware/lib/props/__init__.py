"""One app per prop, built by `props.<name>.build(settings, on_event, store)` and run by runtime.Runtime.

    props.clock    the ghost clock (ClockApp; props.clock.game: its link commands and saved game)
    props.fusebox  the Finger weg! fuse box (FuseBoxApp)
    props.football the Finger Football box (FootballApp)

The contract: build() returns an app with tick(now_ms), tick_ms, shutdown()
and commands() (the link's table); each module names its STATE_FILE for the
store. NAMES is the one list of props (settings, link.board, and on the
desktop deploy and sim read it).
"""
NAMES = ("clock", "fusebox", "football")
