"""One app per prop, built by `props.<prop>.build(settings, on_event)` and run by runtime.Runtime.

    props.clock    the ghost clock (ClockApp, build)
    props.fusebox  the Finger weg! fuse box (FuseBoxApp, build)
    props.football the Finger Football box (FootballApp, build)

An app has tick(now_ms), tick_ms, shutdown() and commands() (the link's
table); link.board wires it to the serial link.
"""
