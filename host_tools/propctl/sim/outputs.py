"""The files a sim writes when the run is over (--wav, --picture), checked before it starts:
a round played for a file that then cannot be written would be lost."""
from propctl.atomic import output_problem
from propctl.sim.runner import SimError
from propctl.termsafe import printable


def check_outputs(args, *options: str) -> None:
    """SimError (exit 2) unless every output file named by `options` of args ("wav",
    "picture") can be written (propctl.atomic.check_output says what can)."""
    for option in options:
        path = getattr(args, option, None)
        if path is None:
            continue
        flag = "--" + option.replace("_", "-")
        if path == "-":
            raise SimError("%s -: standard output carries the run's log; name a file" % flag, 2)
        problem = output_problem(path)
        if problem:
            raise SimError("%s %s: %s; nothing was run" % (flag, printable(path), problem), 2)
