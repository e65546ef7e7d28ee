"""`propctl sim fusebox`: the fuse-box firmware on the virtual board, played from the keyboard.

The real firmware (props.fusebox and its drivers) runs inside the MicroPython
unix port on the fake `machine` (vboard/run_fusebox.py). Each key becomes one
runner command; the runner answers with events and a status line, drawn here
as the box with its eight windows, lights and the event log. Board time moves
only with commands, so a scripted session (--script, or commands on stdin)
gives the same output every time.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

from propctl.build import FIRMWARE_DIR
from propctl.cards import lang as langs
from propctl.overrides import combine, parse_sets
from propctl.sim.runner import (
    VBOARD_DIR,
    SimError,
    check_settings,
    fields_text,
    load_config,
    records,
    runner_env,
    setup,
)

KEYS = {"n": "next", "p": "prev", "b": "bolt", "w": "wait 1000", "x": "state"}
HELP = ("keys: 1-8 open/close a window   n/p next/previous card   b bolt button   w wait 1 s\n"
        "      g new game   r report discs   s select a card by id   c sensor chatter   q quit")

SCRIPT_HELP = ("open N, close N, toggle N (windows 1-8), next, prev, bolt, select ID, game N (players),\n"
               "  report P,P (the players, counted from 1, who showed the bolt), chatter N, wait MS, state")

# The link numbers windows and players from this (vboard/run_fusebox.py); people count from 1.
LINK_COUNTS_FROM = 0


def add_arguments(parser) -> None:
    """The fuse box's own options of `propctl sim fusebox`."""
    parser.add_argument("--pack", metavar="FILE",
                        help="the card pack (.bin), or a deck (.csv/.json) packed on the fly; "
                             "'none' for manual mode (default: the task cards shipped in --lang)")
    langs.add_argument(parser, "the fusebox's shipped task cards")
    parser.add_argument("--script", metavar="FILE",
                        help="commands to play, one per line (open 3, next, select GEO-01, game 4, "
                             "report 1,2, bolt, wait 500, ...); '-' reads them from stdin")


def prepare_pack(choice, workdir: Path, lang=None):
    """The pack file for the board: None for manual mode; decks are packed into workdir.

    No choice: the task cards shipped in `lang` (None: the locale's language).
    """
    if choice == "none":
        return None
    path = Path(choice) if choice else langs.shipped("taskcards", lang or langs.default_lang())
    if path.suffix.lower() in (".csv", ".json"):
        from propctl.cards.container import build_pack
        from propctl.cards.load import load_deck
        deck = load_deck([str(path)])
        if deck.problems or deck.kind is None:
            raise ValueError("%s has problems; run `propctl cards check %s`" % (path, path))
        data = build_pack(deck.kind.CODE, deck.kind.VERSION, [deck.kind.encode(c) for c in deck.cards])
        path = workdir / "pack.bin"
        path.write_bytes(data)
    return str(path.resolve())


def overrides_from(config: dict, sets: dict, pack) -> dict:
    """The board's config: the --config file's object, then every --set, then the pack."""
    data = combine(config, sets)
    data.setdefault("fusebox", {})["pack"] = pack or ""
    return data


# --- windows and players as people count them: from 1 ---------------------------

def person(link_number) -> int:
    """A window's or player's number as people count (1-8, 1-n), from the link's number."""
    return int(link_number) - LINK_COUNTS_FROM + 1


def on_link(number: int) -> int:
    """A window's or player's number on the link, from the one people use."""
    return number - 1 + LINK_COUNTS_FROM


def player_text(link_player) -> str:
    return "player %d" % person(link_player)


def players_text(link_players) -> str:
    """"nobody", "player 2", "players 1 and 3", "players 1, 2 and 4"."""
    numbers = [str(person(s)) for s in sorted(link_players, key=int)]
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
        if word in ("", "-"):
            continue
        if not word.isdigit() or int(word) < 1:
            raise ValueError("report lists the players who showed the bolt, counted from 1, e.g. report 1,3;"
                             " not %r" % word)
        players.append(str(on_link(int(word))))
    return "report " + ",".join(players)


# --- drawing ----------------------------------------------------------------

def describe(record: dict) -> str:
    """One runner line (event, reply, refusal) as a log line; windows counted 1-8 as on the box."""
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
                person(ok["window"]), "BOLT" if ok["bolt"] else "safe", pts or "no points",
                scores_text(ok["scores"]), "; the round is over" if ok["round_over"] else "")
        elif record["cmd"] == "new_game":
            text = "game    %d players, %s starts" % (ok["players"], player_text(ok["starter"]))
        else:
            text = "%s done" % record["cmd"].replace("_", " ")
        return "%7.2f s  %s" % (t, text)
    name = record.get("event", "?")
    if name == "window":
        text = "window %d %s" % (person(record["window"]), "opened" if record["open"] else "closed")
    elif name == "card":
        text = "card    %s in the box%s" % (record["id"] or "(manual mode: unknown card)",
                                           ", an unfinished round dropped" if record["dropped_round"] else "")
    elif name == "safe":
        text = "safe    window %d: click, green light (%d open)" % (
            person(record["window"]), record["opened"])
    elif name == "fuse_blown":
        text = "FUSE BLOWN at window %d: buzzer, red light" % person(record["window"])
    elif name == "windows_not_closed":
        text = "close every window first: open %s" % ", ".join(str(person(w)) for w in record["windows"])
    elif name == "sensor_fault":
        text = "sensor fault: window %d %s" % (person(record["window"]), record["fault"].replace("_", " "))
    elif name == "mode":
        text = "mode    %s%s" % (record["mode"], " (%d cards)" % record["cards"] if record["mode"] == "pack"
                                 else ": " + record["why"])
    elif name == "pack_error":
        text = "pack error: %s" % record["error"]
    elif name == "scored":
        return ""  # the reply line says it
    else:
        text = "%s: %s" % (name.replace("_", " "), fields_text(record))
    return "%7.2f s  %s" % (t, text)


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


def draw_box(status: dict) -> list:
    """The fuse box as text lines: card, eight windows, lights, game."""
    lines = []
    if status["mode"] == "pack":
        head = "card %s" % status["card"] if status["card"] else "no card chosen (n/p or s)"
        if status["pending"]:
            head += "  (waiting: close every window)"
    else:
        head = "manual mode: the box does not know the card (b = bolt in the window just opened)"
    lines.append(head)
    if status.get("text"):
        lines.append("  %s [%s]" % (status["text"], status.get("category", "")))
    statements = status.get("statements") or [""] * 8
    for window in range(1, 9):  # as printed on the box
        w = on_link(window)
        if w in status["open"]:
            inside = statements[window - 1] or "(open)"
            if status.get("bolt_seen") == w:
                inside = "/!\\ " + inside + " /!\\"
        else:
            inside = "#" * 32
        faulty = "  sensor fault" if w in status["faulty"] else ""
        lines.append("  %d [%-32s]%s" % (window, inside[:32], faulty))
    lamps = "red %s  green %s  buzzer %s  relay %s" % (
        "ON " if status["red"] else "off", "ON " if status["green"] else "off",
        "ON " if status["sound"] else "off", "ON " if status["relay"] else "off")
    lines.append("  %s   state %s   board time %.2f s" % (lamps, status["state"], status["t"] / 1000))
    game = status.get("game")
    if game:
        lines.append("  game: " + game_text(game))
    if status["to_report"] and status.get("game"):
        waiting = ", ".join(str(person(w)) for w in status["to_report"])
        lines.append("  waiting for the discs of window %s (r)" % waiting)
    return lines


class Runner:
    """The MicroPython side: send a command, collect lines up to its status."""

    def __init__(self, overrides: dict, micropython: str, firmware_lib: Path) -> None:
        command = [micropython, str(VBOARD_DIR / "run_fusebox.py"), "--overrides", json.dumps(overrides)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)
        self.last_status: Optional[dict] = None  # the box as last reported

    def read_until_status(self) -> tuple:
        """(lines before the status, the status) or (lines, None) when the runner ended."""
        lines: list = []
        assert self.proc.stdout is not None
        for record in records(self.proc.stdout, lambda raw: lines.append({"type": "refused", "error": raw})):
            if record.get("type") == "status":
                self.last_status = record
                return lines, record
            lines.append(record)
        return lines, None

    def send(self, command: str) -> tuple:
        """Send one typed command; a command the host can tell is wrong comes back refused."""
        try:
            command = to_link(command)
        except ValueError as exc:
            return [{"type": "refused", "error": str(exc)}], self.last_status
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
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


def _print_lines(lines, out) -> None:
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


def run_scripted(runner: Runner, commands, out) -> int:
    """Play commands, print the event log and the final box; 0 unless the runner failed."""
    lines, status = runner.read_until_status()
    _print_lines(lines, out)
    for command in commands:
        command = command.strip()
        if not command or command.startswith("#"):
            continue
        out.write("> %s\n" % command)
        lines, status_now = runner.send(command)
        _print_lines(lines, out)
        if status_now is None:
            break
        status = status_now
    if status is not None:
        out.write("\n".join(draw_box(status)) + "\n")
    out.flush()
    return 0 if runner.close() == 0 and status is not None else 1


def _ask(prompt: str) -> str:
    import termios
    fd = sys.stdin.fileno()
    # cooked mode for a line of text, raw again afterwards (done by the caller's loop)
    attrs = termios.tcgetattr(fd)
    attrs[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, attrs)
    try:
        return input(prompt)
    finally:
        import tty
        tty.setcbreak(fd)


def run_interactive(runner: Runner, out) -> int:
    import termios
    import tty
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    log: list = []
    lines, status = runner.read_until_status()
    try:
        tty.setcbreak(fd)
        while status is not None:
            for record in lines:
                text = describe(record) if record.get("type") != "info" else ""
                if text:
                    log.append(text)
            out.write("\x1b[2J\x1b[H")
            out.write("Finger weg! fuse box on the virtual board\n\n")
            out.write("\n".join(draw_box(status)) + "\n\n")
            out.write("\n".join(log[-10:]) + "\n\n" + HELP + "\n")
            out.flush()
            key = sys.stdin.read(1)
            if key in ("q", "\x04", ""):
                break
            if key and key in "12345678":
                command = "toggle " + key
            elif key == "g":
                command = "game " + _ask("players (2-8): ").strip()
            elif key == "r":
                command = "report " + _ask("players who showed the bolt, e.g. 1,3 (empty: none): ").strip()
            elif key == "s":
                command = "select " + _ask("card id: ").strip()
            elif key == "c":
                command = "chatter " + _ask("window (1-8): ").strip()
            elif key in KEYS:
                command = KEYS[key]
            else:
                continue
            lines, status = runner.send(command)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    runner.close()
    return 0


def run(args) -> int:
    """`propctl sim fusebox`: scripted or from the keyboard; 0 unless the runner failed."""
    script = args.script
    interactive = args.interactive and not script
    try:
        micropython, firmware_lib = setup(args.firmware or str(FIRMWARE_DIR / "lib"), "fusebox")
        config = load_config(args.config)
        sets = parse_sets(args.set)
        check_settings(sets, config, micropython, firmware_lib)
    except (SimError, ValueError) as exc:  # ValueError: a malformed --set
        print("propctl sim fusebox: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 2)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            pack = prepare_pack(args.pack, Path(tmp), getattr(args, "lang", None))
            overrides = overrides_from(config, sets, pack)
            runner = Runner(overrides, micropython, firmware_lib)
        except (ValueError, OSError) as exc:
            print("propctl sim fusebox: %s" % exc, file=sys.stderr)
            return 1
        if interactive:
            return run_interactive(runner, sys.stdout)
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
        code = run_scripted(runner, commands, sys.stdout)
        if code:
            err = runner.proc.stderr.read() if runner.proc.stderr else ""
            if err:
                print(err.strip(), file=sys.stderr)
        return code
