"""The desktop's parts of each prop, found by the prop's name: one folder per prop.

The names are the firmware's own list (props.NAMES in firmware/lib/props/__init__.py,
read by propctl.build, never copied). What is about one prop lives in its folders:

    propctl/props/<name>/sim.py        `propctl sim <name>`: its screen (HELP, DESCRIPTION,
                                       EPILOG, COMMON, add_arguments(parser), run(args))
    propctl/props/<name>/describe.py   its events as sentences (EVENTS: {event: fn(fields)})
    propctl/props/<name>/reference.py  its title and link commands in words for docs/reference
                                       (TITLE, COMMANDS; propctl.reference.texts reads them)
    propctl/props/<name>/web.js        its part of `propctl web`'s page (a module the common page,
    propctl/props/<name>/web.html      web/static/web.js, imports; web.html: its markup there,
                                       web.css its look), served as /props/<name>/web.js ...
    propctl/props/<name>/web_box.py    `propctl web --box`: the page refereeing the real prop on a
                                       serial port (open_box(port), REFEREE; WEB_BOX below)
    propctl/props/<name>/...           the rest of its screen, its words (football: reports.py and
                                       box_referee.py, `play fingerfootball --port`; the clock:
                                       plan.py; the fuse box: its deck)
    propctl/vboard/vprops/<name>/      what MicroPython runs on the virtual board: bench.py
                                       (the prop with its parts modelled), run.py (its sim's runner)

A prop of the firmware with no sim.py here is run by propctl.sim.generic (its events and
state printed, its link's commands typed), one with no describe.py has its events shown
with their fields: a new prop is seen in the sim before it has a screen of its own. One with
no web.js is offered by `propctl web` with the words that it has no page there yet.

This module imports nothing at load time (the web page runs propctl.props.<name>.describe
under MicroPython, which loads this package first).
"""

SIM = "sim"            # the part kinds a prop may have
DESCRIBE = "describe"
WEB_BOX = "web_box"
# The files of a prop's part of the web page (propctl.web serves them from the prop's folder).
WEB_FILES = ("web.js", "web.html", "web.css")
# The parts the web page runs under MicroPython too (propctl.web.host_modules): the same
# sentences and words as the terminal. They import nothing but propctl.describe and each other.
ON_MICROPYTHON = ("__init__", "describe", "reports")


def names() -> tuple:
    """The firmware's props, in its order."""
    from propctl.build import PROPS
    return PROPS


def has(prop: str, kind: str) -> bool:
    """Whether `prop` has a desktop part `kind` (propctl/props/<prop>/<kind>.py)."""
    from pathlib import Path
    return prop in names() and (Path(__file__).resolve().parent / prop / (kind + ".py")).is_file()


def having(kind: str) -> tuple:
    """The props that have a desktop part `kind`, in the firmware's order."""
    return tuple(prop for prop in names() if has(prop, kind))


def web_file(prop: str, name: str):
    """The file `name` (one of WEB_FILES) of the prop's part of the web page, or None."""
    from pathlib import Path
    if prop not in names() or name not in WEB_FILES:
        return None
    path = Path(__file__).resolve().parent / prop / name
    return path if path.is_file() else None


def part(prop: str, kind: str):
    """The module propctl.props.<prop>.<kind>, or None when the prop has no such part."""
    if not has(prop, kind):
        return None
    import importlib
    return importlib.import_module("%s.%s.%s" % (__name__, prop, kind))


def vboard_folder(prop: str):
    """vboard/vprops/<prop>/ (bench.py, run.py), or None when the prop has none."""
    from propctl.launcher import VBOARD_DIR
    folder = VBOARD_DIR / "vprops" / prop
    return folder if prop in names() and (folder / "run.py").is_file() else None


def runner(prop: str):
    """The script `propctl sim <prop>` runs under MicroPython: the prop's own
    (vboard/vprops/<prop>/run.py), else the generic one."""
    folder = vboard_folder(prop)
    return folder / "run.py" if folder is not None else generic_runner()


def generic_runner():
    """vboard/vprops/generic.py: any prop built by its package's build(), driven by lines
    (propctl.sim.generic's screen)."""
    from propctl.launcher import VBOARD_DIR
    return VBOARD_DIR / "vprops" / "generic.py"
