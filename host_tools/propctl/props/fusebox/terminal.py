"""`propctl sim fusebox` at a terminal: board time in real time between keys, the box redrawn to
fit the window, questions typed on the bottom line, the piezo played (see propctl.props.fusebox.sim)."""
import os
import select
import sys
import time
from typing import Optional

from propctl import sound
from propctl.keys import DONE, ESC_WAIT_S, KeyDecoder, LineEditor
from propctl.props.fusebox.text import LOG_INDENT, describe, draw_box
from propctl.sim.runner import Run
from propctl.termtext import cells, cut, tail, terminal_size, wrap

KEYS = {"n": "next", "p": "prev", "b": "bolt", "w": "wait 1000", "x": "state"}
HELP = ("keys: 1-8 open/close a window  n/p next/previous card  b bolt button  q quit\n"
        "g new game  r report discs  s card by id  c sensor chatter  w skip 1 s ahead")
TIME_HELP = ("Board time runs in real time; it stands still while g, r, s or c ask for text:\n"
             "Enter takes it; Esc, Ctrl-C or Enter on an empty line leave the question.")


# --- at a terminal ---------------------------------------------------------------

FRAME_S = 0.06          # the longest wait for a key before board time moves on
MIN_STEP_MS = 20        # a shorter step is left for the next one (four scans at the default scan_ms)
MIN_LOG_LINES = 4       # event lines the screen keeps room for when it can
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


class Sound(sound.Sound):
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


def _add_to_log(log: list, lines: list, reveal) -> None:
    """The runner's lines as log lines (with the solution notes), the latest 100 kept."""
    for record in lines:
        text = describe(record) if record.get("type") != "info" else ""
        if text:
            log.append(text)
        log.extend(reveal.lines(record) if reveal else ())
    del log[:-100]


def _let_time_pass(runner, clock_now, status) -> tuple:
    """No key: the board's time catches up with the real time passed, in steps of MIN_STEP_MS or
    more; (the runner's lines, its status)."""
    owed = clock_now.owed_ms()
    if owed < MIN_STEP_MS:
        return [], status
    before = status["t"]
    lines, status = runner.send("wait %d" % owed)
    if status is not None:
        clock_now.paid(status["t"] - before)
    return lines, status


def _command_of(key: str, question, clock_now) -> tuple:
    """(the command for one key or None, the question now open or None, whether the player quits)."""
    if question is not None:
        result = question.line.key(key)
        command = question.verb + question.line.text.strip() if result == DONE else None
        if result is None:
            return None, question, False  # still typing
        clock_now.restart()
        return command, None, False
    if key in ("q", "Q", "\x03", "\x04"):
        return None, None, True
    if key in "12345678" and len(key) == 1:
        return "toggle " + key, None, False
    if key in PROMPTS:
        return None, Question(*PROMPTS[key]), False
    return KEYS.get(key), None, False


def run_interactive(runner, out, sound: Sound, run: Run, reveal=None,
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
            _add_to_log(log, lines, reveal)
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
                lines, status = _let_time_pass(runner, clock_now, status)
                continue
            for key in keys:
                command, question, left = _command_of(key, question, clock_now)
                if left:
                    break
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
