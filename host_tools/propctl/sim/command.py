"""The `propctl sim` command line: one sub-command per prop with its own options, and `serve`."""
import sys

from propctl.argtypes import SEED, Whole
from propctl.build import PROPS
from propctl.serial_link import serve
from propctl.sim import clock, football, fusebox, fusebox_terminal
from propctl.sim.runner import interactive_default
from propctl.venue import netsim

SPEED = Whole(0, 1000)  # times real time; 0: as fast as the board runs


def _common(parser, seed_help=None, speed=False, config=True) -> None:
    """Options several props share; each sub-command takes only those that mean something to it."""
    if seed_help:
        parser.add_argument("--seed", type=SEED, help=seed_help)
    if speed:
        parser.add_argument("--speed", type=SPEED,
                            help="N times faster than real time, up to 1000; 0 = as fast as possible "
                                 "(default: 1 at a terminal, 0 in non-interactive mode)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--non-interactive", dest="non_interactive", action="store_true", default=None,
                      help="print the event log only (default when input is not a terminal, "
                           "TERM=dumb or CI is set)")
    mode.add_argument("--interactive", dest="non_interactive", action="store_false",
                      help="draw the screen even if not at a terminal")
    if config:
        parser.add_argument("--config", help="a config.json for the virtual board")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="one setting of config.json, e.g. board=esp32 or SECTION.KEY=VALUE; "
                             "VALUE is JSON or a bare word; an unknown key is an error")
    parser.add_argument("--firmware", help="firmware/lib folder (default: the one in this clone)")


def _runs(module, prop: str):
    """func for a prop's sub-command: settle interactive mode once, then run the prop
    (on a broker with --broker: propctl.venue.netsim)."""
    def run(args) -> int:
        if getattr(args, "broker", None):
            return netsim.run(args, prop)
        args.interactive = interactive_default() if args.non_interactive is None else not args.non_interactive
        return module.run(args)
    return run


def _serve_or_help(parser):
    def run(args) -> int:
        if args.serve:
            return serve.main(args)
        print("propctl sim: name a prop to simulate (%s), or `serve`" % ", ".join(PROPS),
              file=sys.stderr)
        parser.print_usage(sys.stderr)
        return 2
    return run


def register(subparsers) -> None:
    """Add `propctl sim` with its sub-commands."""
    parser = subparsers.add_parser(
        "sim", help="run a prop's firmware on the virtual board (no hardware needed)",
        description="Run the real prop firmware under the MicroPython unix port on a virtual board "
                    "(fake `machine`, motor and hand physics) and draw it in the terminal.",
        epilog="Examples:  propctl sim clock            watch one round in real time\n"
               "           propctl sim clock --speed 5  five times faster\n"
               "           propctl sim clock --seed 42 --non-interactive  the event log (CI)\n"
               "           propctl sim clock --set clock.motor=stepper      the stepper variant\n"
               "           propctl sim fusebox          open windows with keys 1-8\n"
               "           propctl sim football         play the football box from the keyboard\n"
               "           propctl sim serve            a virtual board on a serial port\n"
               "Run `propctl sim PROP --help` for the options of one prop.")
    parser.add_argument("--serve", action="store_true", help="the same as `propctl sim serve`")
    serve.add_arguments(parser)
    parser.set_defaults(func=_serve_or_help(parser))
    props = parser.add_subparsers(title="props", metavar="PROP")

    p = props.add_parser("clock", help="the ghost clock: one round, drawn as a clock face",
                         description="The ghost-clock firmware on the virtual board. The start button "
                                     "is pressed for you; the run ends after the chime.",
                         epilog="examples:\n"
                                "  propctl sim clock                  one round in real time\n"
                                "  propctl sim clock --speed 5        five times faster\n"
                                "  propctl sim clock --seed 42 --non-interactive   the event log only\n"
                                "  propctl sim clock --set clock.motor=stepper     the stepper variant\n"
                                "  propctl sim clock --picture round.svg   and an SVG plot of the round")
    _common(p, seed_help="seed for the round's motion plan (default: random)", speed=True)
    clock.add_arguments(p)
    netsim.add_arguments(p)
    p.set_defaults(func=_runs(clock, "clock"))

    p = props.add_parser("fusebox", help="the fuse box: keys 1-8 open windows, or a script",
                         description="The fuse-box firmware on the virtual board, played from the "
                                     "keyboard (keys 1-8 open and close windows) or from a script.")
    p.epilog = "\n\n".join((fusebox_terminal.HELP + "\n" + fusebox_terminal.TIME_HELP, fusebox.SCRIPT_HELP,
                            fusebox.EXAMPLES))
    _common(p)
    fusebox.add_arguments(p)
    netsim.add_arguments(p)
    p.set_defaults(func=_runs(fusebox, "fusebox"))

    p = props.add_parser("football", help="the Finger Football box: play it from the keyboard, or a demo",
                         description="The Finger Football box firmware on the virtual board. At a "
                                     "terminal you play it:\nits buttons and the referee's reports are "
                                     "keys. Without one, or with --demo, two simulated\nplayers play a "
                                     "demo game. The panel shows the box's display and the events.")
    p.epilog = football.HELP
    _common(p, seed_help="seed for the box's coin and dice (and the demo players; default: from the clock)",
            speed=True, config=False)
    football.add_arguments(p)
    netsim.add_arguments(p)
    p.set_defaults(func=_runs(football, "football"))

    p = props.add_parser("serve", help="the virtual board on a serial port, for deploy and monitor",
                         description=(serve.__doc__ or "").split("\n\n")[0])
    serve.add_arguments(p)
    p.set_defaults(func=serve.main)
