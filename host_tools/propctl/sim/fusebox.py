"""`propctl sim fusebox`: the fuse-box firmware on the virtual board, played from the keyboard.

The real firmware (props.fusebox and its drivers) runs inside the MicroPython
unix port on the fake `machine` (vboard/run_fusebox.py). Each key becomes one
runner command; the runner answers with events, the piezo's PWM changes and a
status line, drawn here as the box with its eight windows, lights and the event
log. At a terminal board time runs in real time between keys (a `wait` for the
time that passed), so lights, relay and sounds end on their own; a scripted
session (--script, or commands on stdin) moves board time only with its
commands and gives the same output every time.
"""
import argparse
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from propctl.build import FIRMWARE_DIR
from propctl.cards import lang as langs
from propctl.describe import describe_event
from propctl.keys import DONE, ESC_WAIT_S, KeyDecoder, LineEditor
from propctl.overrides import combine, parse_sets
from propctl.sim import clock
from propctl.sim.runner import (
    VBOARD_DIR,
    Run,
    SimError,
    check_settings,
    load_config,
    overrides_args,
    records,
    runner_env,
    setup,
)
from propctl.termtext import cells, cut, tail, terminal_size, wrap

KEYS = {"n": "next", "p": "prev", "b": "bolt", "w": "wait 1000", "x": "state"}
HELP = ("keys: 1-8 open/close a window  n/p next/previous card  b bolt button  q quit\n"
        "g new game  r report discs  s card by id  c sensor chatter  w skip 1 s ahead")
TIME_HELP = ("Board time runs in real time; it stands still while g, r, s or c ask for text:\n"
             "Enter takes it; Esc, Ctrl-C or Enter on an empty line leave the question.")

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
  propctl sim fusebox --pack none           manual mode: no cards
  echo "open 3" | propctl sim fusebox --script -
  propctl sim fusebox --script game.txt     play a script (one line each)"""



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
    parser.add_argument("--fresh", action="store_true",
                        help="forget which cards this household has played (at a terminal the deck "
                             "offers cards not played before first; a script plays the deck's order)")


def deck_of(choice, lang=None):
    """(path, cards) of the deck to play: cards None for a ready pack (.bin) or manual mode.

    No choice: the task cards shipped in `lang` (None: the locale's language).
    """
    if choice == "none":
        return None, None
    path = Path(choice) if choice else langs.shipped("taskcards", lang or langs.default_lang())
    if path.suffix.lower() not in (".csv", ".json"):
        return path, None
    from propctl.cards.load import load_deck
    deck = load_deck([str(path)])
    if deck.problems or deck.kind is None or deck.kind.NAME != "taskcards":
        raise ValueError("%s has problems; run `propctl cards check %s`" % (path, path))
    return path, deck.cards


def prepare_pack(choice, workdir: Path, lang=None, cards=None):
    """The pack file for the board: None for manual mode; decks are packed into workdir,
    in the order of `cards` if given (else as the file has them)."""
    path, deck_cards = deck_of(choice, lang)
    if path is None:
        return None
    if deck_cards is not None:
        from propctl.cards import taskcards
        from propctl.cards.container import build_pack
        data = build_pack(taskcards.CODE, taskcards.VERSION,
                          [taskcards.encode(c) for c in (cards if cards is not None else deck_cards)])
        path = workdir / "pack.bin"
        path.write_bytes(data)
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


# --- windows and players: the link counts them from 1, as people do -------------------

def player_text(link_player) -> str:
    return "player %d" % int(link_player)


def players_text(link_players) -> str:
    """"nobody", "player 2", "players 1 and 3", "players 1, 2 and 4"."""
    numbers = [str(int(s)) for s in sorted(link_players, key=int)]
    if not numbers:
        return "nobody"
    if len(numbers) == 1:
        return "player " + numbers[0]
    return "players %s and %s" % (", ".join(numbers[:-1]), numbers[-1])


def scores_text(scores) -> str:
    """The game's scores as "player 1: 0, player 2: 3 points" (the link lists them in player order)."""
    return ", ".join("player %d: %d" % (i + 1, points) for i, points in enumerate(scores)) + " points"


def to_link(command: str) -> str:
    """A typed command with its players (report 1,3) numbered for the link; ValueError if not players."""
    words = command.split()
    if not words or words[0] != "report" or len(words) < 2:
        return command
    players = []
    for word in words[1].split(","):
        if word in ("", "-", "0"):  # 0: nobody showed the bolt
            continue
        if not word.isdigit() or int(word) < 1:
            raise ValueError("report lists the players who showed the bolt, counted from 1, e.g. report 1,3;"
                             " not %r" % word)
        players.append(str(int(word)))
    return "report " + ",".join(players)


# --- drawing ----------------------------------------------------------------

def describe(record: dict) -> str:
    """One runner line (event, reply, refusal) as a log line; windows counted 1-8 as on the box.
    Events read by propctl.describe, as `propctl monitor` prints them."""
    kind = record.get("type")
    t = record.get("t", 0) / 1000
    if kind == "refused":
        return "%7.2f s  refused: %s" % (t, record["error"])
    if kind == "reply":
        ok = record["ok"]
        if record["cmd"] == "report_choices":
            pts = ", ".join("%s +%d" % (player_text(s), p) for s, p in sorted(ok["points"].items(),
                                                                               key=lambda i: int(i[0])))
            text = "result  window %d %s: %s; scores %s%s" % (
                int(ok["window"]), "BOLT" if ok["bolt"] else "safe", pts or "no points",
                scores_text(ok["scores"]), "; the round is over" if ok["round_over"] else "")
        elif record["cmd"] == "new_game":
            text = "game    %d players, %s starts" % (ok["players"], player_text(ok["starter"]))
        elif record["cmd"] in ("select_card", "state"):
            return ""  # the card event says it; the screen shows the state
        else:
            text = "%s done" % record["cmd"].replace("_", " ")
        return "%7.2f s  %s" % (t, text)
    name = str(record.get("event", "?"))
    if name == "scored":
        return ""  # the reply line says it
    fields = {key: value for key, value in record.items() if key not in ("type", "event", "t")}
    return "%7.2f s  %-7s %s" % (t, name.replace("_", " "), describe_event("fusebox", name, fields))


def game_text(game: dict) -> str:
    """The game line under the box: scores, who chooses, who is still in the round."""
    parts = [scores_text(game["scores"])]
    if game["over"]:
        parts.append("GAME OVER, won by %s" % players_text(game.get("winners") or []))
    elif game["chooser"] is None:
        parts.append("no round going: put a card in")
    else:
        parts.append("%s chooses the next window" % player_text(game["chooser"]))
        parts.append("still in the round: %s" % players_text(game["in_round"]))
    return "; ".join(parts)


def draw_box(status: dict, whole_seconds: bool = False) -> list:
    """The fuse box as text lines: card, eight windows, lights, game.

    Every window shows its statement, as the printed card does through the closed slider; a
    window shows whether the bolt is behind it only once it is open.
    whole_seconds: the board time without its hundredths (at a terminal the screen then
    changes only when the box does, or once a second)."""
    lines = []
    if status["mode"] == "pack":
        head = "card %s" % status["card"] if status["card"] else "no card chosen (n/p or s)"
        if status.get("text"):
            head += " [%s]: %s" % (status.get("category", ""), status["text"])
        if status["pending"]:
            head += "  (waiting: close every window)"
    else:
        head = "manual mode: the box does not know the card (b = bolt in the window just opened)"
    lines.append(head)
    statements = status.get("statements") or [""] * 8
    for window in range(1, 9):  # as printed on the box
        if window in status["open"]:
            shown = "BOLT" if status.get("bolt_seen") == window else "open"
        else:
            shown = "closed"
        faulty = "  (sensor fault)" if window in status["faulty"] else ""
        lines.append("  %d %-6s %s%s" % (window, shown, statements[window - 1] or "", faulty))
    lamps = "red %s  green %s  buzzer %s  relay %s" % (
        "ON " if status["red"] else "off", "ON " if status["green"] else "off",
        "ON " if status["sound"] else "off", "ON " if status["relay"] else "off")
    clock_text = "%d s" % (status["t"] // 1000) if whole_seconds else "%.2f s" % (status["t"] / 1000)
    lines.append("  %s   state %s   board time %s" % (lamps, status["state"], clock_text))
    game = status.get("game")
    if game:
        lines.append("  game: " + game_text(game))
    if status["to_report"] and status.get("game"):
        waiting = ", ".join(str(w) for w in status["to_report"])
        lines.append("  waiting for the discs of window %s (r)" % waiting)
    return lines


class Runner:
    """The MicroPython side: send a command, collect lines up to its status."""

    def __init__(self, overrides: dict, micropython: str, firmware_lib: Path, folder: Path) -> None:
        command = [micropython, str(VBOARD_DIR / "run_fusebox.py")] + overrides_args(overrides, folder)
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
        out.write("> %s\n" % command)
        lines, status_now = runner.send(command)
        _print_lines(lines, out, reveal)
        if status_now is None:
            break
        status = status_now
    if status is not None:
        out.write("\n".join(draw_box(status)) + "\n")
    out.flush()
    return 0 if runner.close() == 0 and status is not None else 1


# --- at a terminal ---------------------------------------------------------------

FRAME_S = 0.06          # the longest wait for a key before board time moves on
MIN_STEP_MS = 20        # a shorter step is left for the next one (four scans at the default scan_ms)
MIN_LOG_LINES = 4       # event lines the screen keeps room for when it can
LOG_INDENT = len("%7.2f s  " % 0)  # a wrapped event goes on after the time column (describe)
MAX_STEP_MS = 2000      # after a stall (Ctrl-Z, a loaded host) the board skips ahead no further
PROMPTS = {"g": ("game ", "players (2-8)"),
           "r": ("report ", "who showed the bolt? e.g. 1,3 (0: nobody)"),
           "s": ("select ", "card id"),
           "c": ("chatter ", "window (1-8)")}
PROMPT_HINT = "   Enter: take it, Esc: back"


class RealTime:
    """The board time the real time since the last step owes the board."""

    def __init__(self) -> None:
        self.since = time.monotonic()

    def owed_ms(self) -> int:
        return min(MAX_STEP_MS, int((time.monotonic() - self.since) * 1000))

    def paid(self, ms: int) -> None:
        """The board moved ms on (a step may overshoot by a tick: the next one is shorter)."""
        self.since = max(self.since + ms / 1000, time.monotonic() - MAX_STEP_MS / 1000)

    def restart(self) -> None:
        """From now on: a command's own board time (a window's move, a press) stands for the real
        time it took, and the board stood still while a prompt waited for text."""
        self.since = time.monotonic()


def screen_lines(heading: str, status: dict, log: list, cols: int, rows: int) -> list:
    """What the terminal shows, top down: at most rows - 2 lines of at most cols - 1 cells
    (the row below them takes the prompts; the last row stays empty, writing there could scroll)."""
    width = max(1, cols - 1)

    def wrapped(line, more):
        """The line in pieces of at most width, the later ones indented by `more` spaces."""
        return wrap(line, width, " " * more)

    box: list = []
    for line in draw_box(status, whole_seconds=True):
        box += wrapped(line, len(line) - len(line.lstrip()) + 4)
    keys = HELP.splitlines()
    # the event log goes below the keys; on a short screen the spacing, then the keys, then the
    # heading make room
    for lines in ([heading] + box + [""] + keys, [heading] + box + keys, [heading] + box, box):
        room = rows - 2 - len(lines)
        if room >= MIN_LOG_LINES:
            break
    events: list = []  # the latest whole events that fit, a long one wrapped under its text
    for entry in reversed(log):
        pieces = wrapped(entry, LOG_INDENT)
        if len(events) + len(pieces) > room:
            if not events:
                events = pieces[:max(0, room)]
            break
        events[:0] = pieces
    lines += events
    return [cut(line, width) for line in lines[:max(0, rows - 2)]]


class Screen:
    """The terminal, redrawn in place: only lines that changed are written, every row above the
    prompt row is written or cleared, nothing goes past the right edge or the bottom."""

    def __init__(self, out, size=terminal_size) -> None:
        self.out = out
        self.size = size
        self.shown: Optional[list] = None   # the rows as on the terminal; None: unknown
        self.cols, self.rows = 80, 24
        out.write("\x1b[2J\x1b[?25l")  # clear once; no cursor jumping about while lines are rewritten

    def measure(self) -> tuple:
        size = self.size()
        if (size.columns, size.lines) != (self.cols, self.rows):
            self.cols, self.rows = size.columns, size.lines
            self.forget()
        return self.cols, self.rows

    def forget(self) -> None:
        """The terminal shows something else (a new size): the next draw writes everything."""
        if self.shown is not None:
            self.out.write("\x1b[2J")
        self.shown = None

    def draw(self, lines: list, prompt: str = "") -> None:
        """`lines` from the top, `prompt` on the row below them (the last row stays empty)."""
        rows = [""] * max(0, self.rows - 1)
        body = max(0, self.rows - 2)
        rows[:min(len(lines), body)] = lines[:body]
        if rows:
            rows[-1] = tail(prompt, max(0, self.cols - 1)) if prompt else ""
        writes = []
        for i, line in enumerate(rows):
            if self.shown is None or self.shown[i] != line:
                writes.append("\x1b[%d;1H%s\x1b[K" % (i + 1, line))
        if writes:
            self.out.write("".join(writes))
            self.out.flush()
        self.shown = rows

    def close(self) -> None:
        """Cursor back, on the last row, below the box."""
        self.out.write("\x1b[%d;1H\x1b[K\x1b[?25h" % self.rows)
        self.out.flush()


class Question:
    """A prompt's question open on the prompt row (g, r, s, c): the verb its answer completes."""

    def __init__(self, verb: str, question: str) -> None:
        self.verb = verb
        self.question = question
        self.line = LineEditor()

    def shown(self, width: int) -> str:
        """The prompt row: the question, the text typed so far and the hint, as far as they fit
        (the hint goes first, then the question's start: the typing stays in view)."""
        asked = "%s: %s_" % (self.question, self.line.text)
        if cells(asked + PROMPT_HINT) <= width:
            return asked + PROMPT_HINT
        return tail(asked, width)


class Sound(clock.Sound):
    """The piezo's tones at the terminal, as the clock sim plays them (each melody from its first
    note, unless --mute; all of them to --wav FILE at the end). Inside the fuse box's melodies no
    rest is longer than 80 ms, so 200 ms of silence ends one; board time moves on every FRAME_S
    or so, plus the runner's answer: a stream starts with 100 ms of silence."""

    PAUSE_MS = 200

    def __init__(self, args, bell) -> None:
        super().__init__(args, bell, lead_ms=100)


def heading_of(lines: list) -> str:
    for record in lines:
        if record.get("type") == "info":
            return "Finger weg! fuse box on a virtual %s board, sensors on %s" % (
                record["board"], record["inputs"])
    return "Finger weg! fuse box on the virtual board"


def run_interactive(runner: Runner, out, sound: Sound, run: Run, reveal: Optional[Reveal] = None,
                    first: Optional[list] = None) -> int:
    """Keys to commands, board time in real time between them; 0 when the player quits."""
    log: list = list(first or [])
    runner.on_pwm = sound.change
    lines, status = runner.read_until_status()
    heading = heading_of(lines)
    log += ["config: %s" % message for record in lines if record.get("type") == "info"
            for message in record.get("errors", [])]
    screen = run.screen = Screen(out)
    clock_now = RealTime()
    decoder = KeyDecoder()
    question: Optional[Question] = None
    left = False  # the player quit (else the runner ended)
    fd = sys.stdin.fileno()
    try:
        run.cbreak()
        while status is not None:
            for record in lines:
                text = describe(record) if record.get("type") != "info" else ""
                if text:
                    log.append(text)
                log.extend(reveal.lines(record) if reveal else ())
            del log[:-100]
            lines = []
            sound.at(status["t"])
            cols, rows = screen.measure()
            screen.draw(screen_lines(heading, status, log, cols, rows),
                        question.shown(cols - 1) if question else "")
            ready, _, _ = select.select([fd], [], [], ESC_WAIT_S if decoder.waiting() else FRAME_S)
            now = time.monotonic()
            if ready:
                data = os.read(fd, 64)
                if not data:  # the terminal is gone
                    left = True
                    break
                keys = decoder.feed(data, now)
            else:
                keys = decoder.flush(now)
            if not keys and question is None:
                owed = clock_now.owed_ms()
                if owed >= MIN_STEP_MS:
                    before = status["t"]
                    lines, status = runner.send("wait %d" % owed)
                    if status is not None:
                        clock_now.paid(status["t"] - before)
                continue
            for key in keys:
                command = None
                if question is not None:
                    result = question.line.key(key)
                    if result == DONE:
                        command = question.verb + question.line.text.strip()
                    if result is not None:
                        question = None
                        clock_now.restart()
                elif key in ("q", "Q", "\x03", "\x04"):
                    left = True
                    break
                elif key in "12345678" and len(key) == 1:
                    command = "toggle " + key
                elif key in PROMPTS:
                    question = Question(*PROMPTS[key])
                elif key in KEYS:
                    command = KEYS[key]
                if command is not None:
                    more, status = runner.send(command)
                    lines += more
                    clock_now.restart()
                    if status is None:
                        break
            if left:
                break
    finally:
        run.restore_terminal()
    runner.close()
    if not left:
        print("propctl sim fusebox: the virtual board stopped", file=sys.stderr)
        return 1
    return 0


def run(args) -> int:
    """`propctl sim fusebox`: scripted or from the keyboard; 0 unless the runner failed."""
    script = args.script
    interactive = args.interactive and not script
    if interactive and not sys.stdin.isatty():
        print("propctl sim fusebox: the keys need a terminal on stdin; without one, give the commands "
              "with --script FILE or --script - (see --help)", file=sys.stderr)
        return 2
    try:
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
            pack = prepare_pack(args.pack, run.folder, getattr(args, "lang", None), order)
            overrides = overrides_from(config, sets, pack)
            runner = Runner(overrides, micropython, firmware_lib, run.folder)
        except (ValueError, OSError) as exc:
            print("propctl sim fusebox: %s" % exc, file=sys.stderr)
            return 1
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
        return code


def _memory(args, interactive: bool):
    """(Reveal or None, first log lines): the solution notes of a deck file, and at a terminal the
    household's memory of played cards (a script keeps the deck's order, the same every time)."""
    path, cards = deck_of(args.pack, getattr(args, "lang", None))
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


def play_script(runner: Runner, script, reveal: Optional[Reveal] = None) -> int:
    """--script FILE, or the commands on stdin: the event log and the final box."""
    if script and script != "-":
        try:
            commands = Path(script).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            runner.close()
            print("propctl sim fusebox: --script %s cannot be read: %s"
                  % (script, getattr(exc, "strerror", None) or exc), file=sys.stderr)
            return 1
    else:
        commands = sys.stdin.read().splitlines() if not sys.stdin.isatty() else []
    return run_scripted(runner, commands, sys.stdout, reveal)
