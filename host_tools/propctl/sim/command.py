"""The `propctl sim` command line: one sub-command per prop of the firmware, and `serve`.

The props come from the registry (propctl.props): each prop's screen is its
propctl/props/<name>/sim.py (SUMMARY, DESCRIPTION, EPILOG, COMMON: which shared options
it takes, add_arguments, run), or the generic one (propctl.sim.generic) for a prop with none.
"""
import sys

from propctl import props as registry
from propctl.argtypes import SEED, Whole
from propctl.serial_link import serve
from propctl.sim import generic
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
        print("propctl sim: name a prop to simulate (%s), or `serve`" % ", ".join(registry.names()),
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
    for name in registry.names():  # the firmware's props; a prop with no screen of its own: generic
        screen = registry.part(name, registry.SIM) or generic.screen_for(name)
        p = props.add_parser(name, help=screen.SUMMARY, description=screen.DESCRIPTION)
        p.epilog = screen.EPILOG
        _common(p, **screen.COMMON)
        screen.add_arguments(p)
        netsim.add_arguments(p)
        p.set_defaults(func=_runs(screen, name))

    p = props.add_parser("serve", help="the virtual board on a serial port, for deploy and monitor",
                         description=(serve.__doc__ or "").split("\n\n")[0])
    serve.add_arguments(p)
    p.set_defaults(func=serve.main)
