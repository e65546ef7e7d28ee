"""`propctl sim fusebox`: the fuse-box firmware on the virtual board, played from the keyboard.

The real firmware (props.fusebox and its drivers) runs inside the MicroPython
unix port on the fake `machine` (vboard/vprops/fusebox/run.py). Each key becomes one
runner command; the runner answers with events, the piezo's PWM changes and a
status line, drawn here as the box with its eight windows, lights and the event
log. At a terminal board time runs in real time between keys (a `wait` for the
time that passed), so lights, relay and sounds end on their own; a scripted
session (--script, or commands on stdin) moves board time only with its
commands and gives the same output every time. The words and the drawing are
propctl.props.fusebox.text, the terminal's screen and keys propctl.props.fusebox.terminal.
"""
import argparse
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

from propctl import props
from propctl.build import FIRMWARE_DIR
from propctl.cards import lang as langs
from propctl.inputfile import InputFileError, read_regular
from propctl.overrides import combine, parse_sets
from propctl.props.fusebox.deck import deck_of, pack_bytes
from propctl.props.fusebox.terminal import HELP, TIME_HELP, Sound, run_interactive
from propctl.props.fusebox.text import LOG_INDENT, describe, draw_box, to_link
from propctl.sim.outputs import check_outputs
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

SCRIPT_HELP = """script lines (--script FILE or '-', one command per line):
  open N, close N, toggle N   window N (1-8)
  next, prev, bolt            press the box's buttons
  select ID, game N           the card with that id; a new game for N players
  report P,P                  the players (counted from 1) who showed the bolt
  chatter N                   window N's sensor bounces for 1.5 s
  wait MS, state              let board time pass; print the box's state"""

EXAMPLES = """examples:
  propctl sim fusebox                       play it from the keyboard
  propctl sim fusebox --lang de             the German task cards
  propctl sim fusebox --family              only the family cards (age 10+)
  propctl sim fusebox --pack none           manual mode: no cards
  echo "open 3" | propctl sim fusebox --script -
  propctl sim fusebox --script game.txt     play a script (one line each)"""


# `propctl sim fusebox` in the sim's parser (propctl.sim.command)
SUMMARY = "the fuse box: keys 1-8 open windows, or a script"
DESCRIPTION = ("The fuse-box firmware on the virtual board, played from the keyboard (keys 1-8 open "
               "and close windows) or from a script.")
EPILOG = "\n\n".join((HELP + "\n" + TIME_HELP, SCRIPT_HELP, EXAMPLES))
COMMON: dict = {}


def add_arguments(parser) -> None:
    """The fuse box's own options of `propctl sim fusebox`."""
    parser.add_argument("--pack", metavar="FILE",
                        help="the card pack (.bin), or a deck (.csv/.json) packed on the fly; "
                             "'none' for manual mode (default: the task cards shipped in --lang)")
    langs.add_argument(parser, "the fusebox's shipped task cards")
    parser.add_argument("--script", metavar="FILE",
                        help="commands to play, one per line (open 3, next, select GEO-01, game 4, "
                             "report 1,2, bolt, wait 500, ...); '-' reads them from stdin")
    parser.add_argument("--mute", action="store_true",
                        help="no sound at the terminal (default: the piezo's tones are played through "
                             "aplay/paplay/afplay/ffplay, else the terminal bell; a script plays none)")
    parser.add_argument("--wav", metavar="FILE", help="write the piezo's tones of the run to a WAV file")
    parser.add_argument("--family", action="store_true",
                        help="only the family cards (age 10+: no specialist knowledge, no adult "
                             "topics); needs a deck file, a .bin pack keeps no family marks")
    parser.add_argument("--fresh", action="store_true",
                        help="forget which cards this household has played (at a terminal the deck "
                             "offers cards not played before first; a script plays the deck's order)")


def prepare_pack(choice, workdir: Path, lang=None, cards=None, family=False):
    """The pack file for the board: None for manual mode; decks are packed into workdir,
    in the order of `cards` if given (else as the file has them; `family`: only its family cards)."""
    path, deck_cards = deck_of(choice, lang, family)
    if path is None:
        return None
    if deck_cards is not None:
        path = workdir / "pack.bin"
        path.write_bytes(pack_bytes(cards if cards is not None else deck_cards))
    return str(path.resolve())


class Reveal:
    """After each round, the card's solution note; with a memory (deal.Memory) the card is
    marked played and a new game says when it must repeat cards.

    A round ends when the bolt shows (fuse_blown) or the rules end it (scored, round_over).
    """

    def __init__(self, cards=None, memory=None) -> None:
        self.notes = dict((card.id, getattr(card, "note", "")) for card in cards or ())
        self.memory = memory
        self.card: Optional[str] = None
        self.spent = False
        self.said: list = []  # what the memory said, shown with the next lines

    def say(self, text: str) -> None:
        self.said.append(text)

    def lines(self, record: dict) -> list:
        """Lines for the log after `record` (a runner line)."""
        event = record.get("event")
        if event == "card":
            self.card, self.spent = record.get("id") or None, False
        elif record.get("type") == "reply" and record.get("cmd") == "new_game" and self.memory:
            self.memory.begin_game(int(record["ok"]["players"]))
        out = []
        if (event == "fuse_blown" or (event == "scored" and record.get("round_over") is True)) \
                and self.card and not self.spent:
            self.spent = True
            if self.memory:
                self.memory.played(self.card)
            if self.notes.get(self.card):
                out.append("%s solution %s: %s" % (" " * (LOG_INDENT - 1), self.card, self.notes[self.card]))
        out[:0] = ["%s%s" % (" " * LOG_INDENT, text) for text in self.said]
        del self.said[:]
        return out


def overrides_from(config: dict, sets: dict, pack) -> dict:
    """The board's config: the --config file's object, then every --set, then the pack."""
    data = combine(config, sets)
    data.setdefault("fusebox", {})["pack"] = pack or ""
    return data


class Runner:
    """The MicroPython side: send a command, collect lines up to its status."""

    def __init__(self, overrides: dict, micropython: str, firmware_lib: Path, folder: Path) -> None:
        command = [micropython, str(props.runner("fusebox"))] + overrides_args(overrides, folder)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
        self.last_status: Optional[dict] = None  # the box as last reported
        self.on_pwm: Callable[[dict], None] = lambda record: None  # the piezo's PWM changes go here

    def read_until_status(self) -> tuple:
        """(lines before the status, the status) or (lines, None) when the runner ended."""
        lines: list = []
        assert self.proc.stdout is not None
        for record in records(self.proc.stdout, lambda raw: lines.append({"type": "refused", "error": raw})):
            kind = record.get("type")
            if kind == "status":
                self.last_status = record
                return lines, record
            if kind == "pwm":
                self.on_pwm(record)
            else:
                lines.append(record)
        return lines, None

    def send(self, command: str) -> tuple:
        """Send one typed command; a command the host can tell is wrong comes back refused."""
        try:
            command = to_link(command)
        except ValueError as exc:
            return [{"type": "refused", "error": str(exc)}], self.last_status
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # the runner is gone
            return [], None
        return self.read_until_status()

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                if self.proc.stdin is not None:
                    self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def _print_lines(lines, out, reveal: Optional[Reveal] = None) -> None:
    for record in lines:
        if record.get("type") == "info":
            pack = "pack %s" % record["pack"] if record["pack"] else "no pack"
            out.write("fuse box on a virtual %s board, sensors on %s, %s\n" % (
                record["board"], record["inputs"], pack))
            for message in record.get("errors", []):
                out.write("config: %s\n" % message)
            continue
        text = describe(record)
        if text:
            out.write(text + "\n")
        for line in reveal.lines(record) if reveal else ():
            out.write(line + "\n")


def run_scripted(runner: Runner, commands, out, reveal: Optional[Reveal] = None) -> int:
    """Play commands, print the event log and the final box; 0 unless the runner failed."""
    lines, status = runner.read_until_status()
    _print_lines(lines, out, reveal)
    for command in commands:
        command = command.strip()
        if not command or command.startswith("#"):
            continue
        out.write("> %s\n" % printable(command, newlines=False))
        lines, status_now = runner.send(command)
        _print_lines(lines, out, reveal)
        if status_now is None:
            break
        status = status_now
    if status is not None:
        out.write("\n".join(draw_box(status)) + "\n")
    out.flush()
    return 0 if runner.close() == 0 and status is not None else 1


def run(args) -> int:
    """`propctl sim fusebox`: scripted or from the keyboard; 0 unless the runner failed."""
    script = args.script
    interactive = args.interactive and not script
    if interactive and not sys.stdin.isatty():
        print("propctl sim fusebox: the keys need a terminal on stdin; without one, give the commands "
              "with --script FILE or --script - (see --help)", file=sys.stderr)
        return 2
    try:
        check_outputs(args, "wav")
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), "fusebox")
        config = load_config(args.config)
        sets = parse_sets(args.set)
        check_settings(sets, config, firmware_lib, args.config)
    except (SimError, ValueError) as exc:  # ValueError: a malformed --set
        print("propctl sim fusebox: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 2)
    with Run() as run:
        try:
            reveal, first = _memory(args, interactive)
            order = reveal.memory.order() if reveal and reveal.memory else None
            pack = prepare_pack(args.pack, run.folder, getattr(args, "lang", None), order,
                                getattr(args, "family", False))
            overrides = overrides_from(config, sets, pack)
            runner = Runner(overrides, micropython, firmware_lib, run.folder)
        except (SimError, ValueError, OSError) as exc:
            print("propctl sim fusebox: %s" % exc, file=sys.stderr)
            return getattr(exc, "code", 1)
        run.proc = runner.proc
        # a script runs faster than real time: its tones only go to --wav
        sound = run.sound = Sound(argparse.Namespace(mute=args.mute or not interactive, wav=args.wav),
                                  bell=lambda: (sys.stdout.write("\a"), sys.stdout.flush()))
        if interactive:
            code = run_interactive(runner, sys.stdout, sound, run, reveal, first)
        else:
            runner.on_pwm = sound.change
            code = play_script(runner, script, reveal)
        if code == 1:
            err = runner.proc.stderr.read() if runner.proc.stderr else ""
            if err:
                print(err.strip(), file=sys.stderr)
    if run.sound is not None and run.sound.wav_problem:
        print("propctl sim fusebox: %s" % run.sound.wav_problem, file=sys.stderr)
        return 1
    return code


def _memory(args, interactive: bool):
    """(Reveal or None, first log lines): the solution notes of a deck file, and at a terminal the
    household's memory of played cards (a script keeps the deck's order, the same every time)."""
    path, cards = deck_of(args.pack, getattr(args, "lang", None), getattr(args, "family", False))
    if cards is None:
        return None, []
    if not interactive:
        return Reveal(cards), []
    from propctl.cards.deal import Memory, deck_name
    first: list = []
    memory = Memory(cards, deck_name(path), first.append, fresh=getattr(args, "fresh", False))
    reveal = Reveal(cards, memory)
    memory.say = reveal.say  # from now on the memory speaks in the event log
    first.append("%d of %d cards not played before come first (n); --fresh forgets them"
                  % (memory.unplayed(), len(cards)))
    return reveal, first


SCRIPT_LIMIT = 4 * 1024 * 1024  # far more commands than any session types


def play_script(runner: Runner, script, reveal: Optional[Reveal] = None) -> int:
    """--script FILE, or the commands on stdin: the event log and the final box."""
    if script and script != "-":
        try:  # a regular file only: a FIFO would wait forever, /dev/zero never end
            commands = read_regular(script, SCRIPT_LIMIT).decode("utf-8").splitlines()
        except (InputFileError, UnicodeDecodeError) as exc:
            runner.close()
            print("propctl sim fusebox: --script %s %s"
                  % (printable(script), exc if isinstance(exc, InputFileError) else "is not UTF-8 text"),
                  file=sys.stderr)
            return 1
    else:
        commands = sys.stdin.read().splitlines() if not sys.stdin.isatty() else []
    return run_scripted(runner, commands, sys.stdout, reveal)
