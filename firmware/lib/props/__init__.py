"""One app per prop. Each module props.<prop> offers `main(settings)` for the board's main.py.

    props.clock   the ghost clock (ClockApp, build, run, main)
    props.fusebox the Finger weg! fuse box (FuseBoxApp, build, main)
"""
