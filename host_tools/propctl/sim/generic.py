"""`propctl sim PROP` for a prop with no screen of its own: its events, replies and state as lines.

A prop of the firmware (props.NAMES) with no propctl/props/<name>/sim.py gets this screen
(propctl.sim.command asks the registry, propctl.props): the prop's firmware runs on the
virtual board through vboard/vprops/generic.py, which builds it with its package's build()
as a board does. Lines typed (or given with --script FILE, or piped) go to it: a link
command with its JSON arguments, `press ROLE [MS]`, `wait MS`, `quit`. Each event is printed
as a sentence (propctl.describe: the prop's describer, else its fields), each reply and the
prop's state (app.snapshot()) when it changed.
"""
import json
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Optional

from propctl import props
from propctl.build import FIRMWARE_DIR
from propctl.describe import describe_event
from propctl.inputfile import InputFileError, read_regular
from propctl.overrides import combine, parse_sets
from propctl.sim.runner import (
    Run,
    SimError,
    check_settings,
    load_config,
    overrides_args,
    records,
    runner_env,
    setup,
)
from propctl.termsafe import printable
from propctl.termtext import wrap

SCRIPT_LIMIT = 1024 * 1024
PROMPT = "> "
WIDTH = 79     # a line of the log fits an 80-column terminal
INDENT = " " * 11  # under the time stamp
LINE_WORDS = ("COMMAND [JSON] (a link command: new_game {\"players\": 3}), press ROLE [MS], "
              "wait MS, quit")


class GenericScreen:
    """What propctl.sim.command asks of a prop's screen, for a prop with none of its own."""

    COMMON: dict = {}

    def __init__(self, prop: str) -> None:
        self.prop = prop
        self.SUMMARY = "the %s prop (no screen of its own: its events and state as lines)" % prop
        self.DESCRIPTION = ("The %s firmware on the virtual board, built by its package's build() as "
                            "on a board. Type its link's commands; its events, replies and state are "
                            "printed." % prop)
        self.EPILOG = ("lines (typed, piped, or --script FILE):\n  %s\n\nexample:\n"
                       "  printf 'state\\nwait 1000\\n' | propctl sim %s" % (LINE_WORDS, prop))

    @staticmethod
    def add_arguments(parser) -> None:
        parser.add_argument("--script", metavar="FILE",
                            help="the lines from FILE ('-': stdin) instead of typed ones")

    def run(self, args) -> int:
        return run(args, self.prop)


def screen_for(prop: str) -> GenericScreen:
    return GenericScreen(prop)


def _lines(args, name: str) -> Optional[Iterable[str]]:
    """The script's lines, stdin's when piped, or None at a terminal (typed one by one)."""
    script = getattr(args, "script", None)
    if script and script != "-":
        try:
            return read_regular(script, SCRIPT_LIMIT).decode("utf-8").splitlines()
        except (InputFileError, UnicodeDecodeError) as exc:
            raise SimError("--script %s %s" % (printable(script), exc if isinstance(exc, InputFileError)
                                                 else "is not UTF-8 text")) from None
    if script == "-" or not sys.stdin.isatty():
        return sys.stdin.read().splitlines()
    return None


def _typed() -> Iterable[str]:
    """Lines typed at the prompt, up to Ctrl-D or Ctrl-C (the end, as `quit`)."""
    while True:
        try:
            yield input(PROMPT)
        except (EOFError, KeyboardInterrupt):
            print()
            return


def say(prop: str, record: dict, last_state: list) -> Optional[str]:
    """One runner record as a line for a person (None: nothing new to say)."""
    kind = record.get("type")
    t = record.get("t", 0)
    stamp = "%7.2f s  " % (t / 1000) if isinstance(t, int) else ""
    if kind == "event":
        fields = {k: v for k, v in record.items() if k not in ("type", "event", "t")}
        return stamp + printable(describe_event(prop, record.get("event", "?"), fields), newlines=False)
    if kind == "reply":
        if "error" in record:
            return stamp + printable("%s refused: %s" % (record.get("command"), record["error"]), False)
        return stamp + printable("%s -> %s" % (record.get("command"), json.dumps(record.get("ok"))), False)
    if kind == "state":
        state = json.dumps(record.get("state"), sort_keys=True)
        if last_state and last_state[0] == state:
            return None
        last_state[:] = [state]
        return stamp + printable("state: " + state, False)
    if kind == "refused":
        return stamp + printable("refused: %s" % record.get("error"), False)
    if kind == "info":
        return printable("%s on %s; commands: %s; pins: %s%s" % (
            record.get("prop"), record.get("board"), ", ".join(map(str, record.get("commands", []))),
            ", ".join(map(str, record.get("pins", []))),
            "".join("\n  config problem: %s" % e for e in record.get("errors", []))))
    return None


def run(args, prop: str) -> int:
    """`propctl sim PROP` on the generic screen; 0 unless the runner failed."""
    try:
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), prop)
        config = load_config(args.config)
        sets = parse_sets(args.set)
        check_settings(sets, config, firmware_lib, args.config)
        lines = _lines(args, prop)
    except (SimError, ValueError) as exc:
        print("propctl sim %s: %s" % (prop, exc), file=sys.stderr)
        return getattr(exc, "code", 2)
    with Run() as run:
        command = [micropython, str(props.generic_runner()), prop] + overrides_args(combine(config, sets),
                                                                               Path(run.folder))
        # a session of its own: Ctrl-C at the prompt is ours (the end), not a traceback of the runner's
        proc = run.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True,
                                           start_new_session=True)
        return _talk(proc, prop, lines)


def show(text: Optional[str]) -> None:
    """A line of the log, wrapped to WIDTH (later lines under the time stamp's end)."""
    if text is not None:
        for line in text.split("\n"):
            print("\n".join(wrap(line, WIDTH, INDENT)), flush=True)


def _talk(proc, prop: str, lines: Optional[Iterable[str]]) -> int:
    """Send the lines one at a time, print what each brought, up to its state line."""
    assert proc.stdin is not None and proc.stdout is not None
    last_state: list = []
    out = records(proc.stdout, lambda raw: print(printable(raw, newlines=False)))

    def until_state() -> bool:
        for record in out:
            show(say(prop, record, last_state))
            if record.get("type") in ("state", "end"):
                return record.get("type") == "state"
        return False

    first = next(out, None)  # the info line
    if first is not None:
        show(say(prop, first, last_state))
    for line in (_typed() if lines is None else lines):
        if "\n" in line or len(line) > 4000:
            show("refused: one line of at most 4000 characters")
            continue
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # bytes that are not UTF-8, read from a pipe or a terminal
            show("refused: a line that is not UTF-8 text")
            continue
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            break
        if line.strip() == "quit" or not until_state():
            break
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    for record in out:  # whatever came after the last line (the end)
        show(say(prop, record, last_state))
    code = proc.wait()
    if code != 0:
        err = proc.stderr.read() if proc.stderr else ""
        print(printable(err.strip()), file=sys.stderr)
        return 1
    return 0
