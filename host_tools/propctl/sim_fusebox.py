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

from propctl.overrides import combine, parse_sets
from propctl.sim import REPO_FIRMWARE_LIB, VBOARD_DIR, find_micropython, interactive_default, runner_env

SAMPLE_DECK = Path(__file__).resolve().parent / "data" / "decks" / "taskcards.csv"
KEYS = {"n": "next", "p": "prev", "b": "bolt", "w": "wait 1000", "x": "state"}
HELP = ("keys: 1-8 open/close a window   n/p next/previous card   b bolt button   w wait 1 s\n"
        "      g new game   r report discs   s select a card by id   c sensor chatter   q quit")


def add_arguments(parser) -> None:
    """The fusebox options of `propctl sim`."""
    parser.add_argument("--pack", metavar="FILE",
                        help="fusebox: the card pack (.bin), or a deck (.csv/.json) packed on the fly; "
                             "'none' for manual mode (default: the sample deck)")
    parser.add_argument("--script", metavar="FILE",
                        help="fusebox: commands to play, one per line (open 3, next, select GEO-01, game 4, "
                             "report 1,2, bolt, wait 500, ...); '-' reads them from stdin")


def prepare_pack(choice, workdir: Path):
    """The pack file for the board: None for manual mode; decks are packed into workdir."""
    if choice == "none":
        return None
    path = Path(choice) if choice else SAMPLE_DECK
    if path.suffix.lower() in (".csv", ".json"):
        from propctl.cards.container import build_pack
        from propctl.cards.load import load_deck
        deck = load_deck([str(path)])
        if deck.problems:
            raise ValueError("%s has problems; run `propctl cards check %s`" % (path, path))
        data = build_pack(deck.kind.CODE, deck.kind.VERSION, [deck.kind.encode(c) for c in deck.cards])
        path = workdir / "pack.bin"
        path.write_bytes(data)
    return str(path.resolve())


def overrides_from(args, pack) -> dict:
    """The board's config: --config file, then every --set, then the pack."""
    data = {}
    if args.config:
        data = json.loads(Path(args.config).read_text(encoding="utf-8"))
    data = combine(data, parse_sets(args.set))
    data.setdefault("fusebox", {})["pack"] = pack or ""
    return data


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
            pts = ", ".join("seat %s +%d" % (s, p) for s, p in sorted(ok["points"].items())) or "no points"
            text = "result  window %d %s: %s; scores %s%s" % (
                ok["window"] + 1, "BOLT" if ok["bolt"] else "safe", pts, ok["scores"],
                ", round over" if ok["round_over"] else "")
        elif record["cmd"] == "new_game":
            text = "game    %d players, seat %d starts" % (ok["players"], ok["starter"])
        else:
            text = "%s ok" % record["cmd"]
        return "%7.2f s  %s" % (t, text)
    name = record.get("event", "?")
    if name == "window":
        text = "window %d %s" % (record["window"] + 1, "opened" if record["open"] else "closed")
    elif name == "card":
        text = "card    %s in the box%s" % (record["id"] or "(manual mode: unknown card)",
                                           ", an unfinished round dropped" if record["dropped_round"] else "")
    elif name == "safe":
        text = "safe    window %d: click, green light (%d open)" % (record["window"] + 1, record["opened"])
    elif name == "fuse_blown":
        text = "FUSE BLOWN at window %d: buzzer, red light" % (record["window"] + 1)
    elif name == "windows_not_closed":
        text = "close every window first: open %s" % ", ".join(str(w + 1) for w in record["windows"])
    elif name == "sensor_fault":
        text = "sensor fault: window %d %s" % (record["window"] + 1, record["fault"].replace("_", " "))
    elif name == "mode":
        text = "mode    %s%s" % (record["mode"], " (%d cards)" % record["cards"] if record["mode"] == "pack"
                                 else ": " + record["why"])
    elif name == "pack_error":
        text = "pack error: %s" % record["error"]
    elif name == "scored":
        return ""  # the reply line says it
    else:
        rest = {k: v for k, v in record.items() if k not in ("type", "event", "t")}
        text = "%s %s" % (name, json.dumps(rest, sort_keys=True))
    return "%7.2f s  %s" % (t, text)


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
    for w in range(8):
        if w in status["open"]:
            inside = statements[w] or "(open)"
            if status.get("bolt_seen") == w:
                inside = "/!\\ " + inside + " /!\\"
        else:
            inside = "#" * 32
        faulty = "  sensor fault" if w in status["faulty"] else ""
        lines.append("  %d [%-32s]%s" % (w + 1, inside[:32], faulty))
    lamps = "red %s  green %s  buzzer %s  relay %s" % (
        "ON " if status["red"] else "off", "ON " if status["green"] else "off",
        "ON " if status["sound"] else "off", "ON " if status["relay"] else "off")
    lines.append("  %s   state %s   board time %.2f s" % (lamps, status["state"], status["t"] / 1000))
    game = status.get("game")
    if game:
        lines.append("  game: scores %s   chooser seat %s   still in %s%s" % (
            game["scores"], game["chooser"], game["in_round"], "   GAME OVER" if game["over"] else ""))
    if status["to_report"] and status.get("game"):
        waiting = ", ".join(str(w + 1) for w in status["to_report"])
        lines.append("  waiting for the discs of window %s (r)" % waiting)
    return lines


class Runner:
    """The MicroPython side: send a command, collect lines up to its status."""

    def __init__(self, overrides: dict, firmware_lib: Path) -> None:
        command = [find_micropython(), str(VBOARD_DIR / "run_fusebox.py"), "--overrides",
                   json.dumps(overrides)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=runner_env(firmware_lib), text=True)

    def read_until_status(self) -> tuple:
        """(lines before the status, the status) or (lines, None) when the runner ended."""
        lines = []
        for raw in self.proc.stdout:
            try:
                record = json.loads(raw)
            except ValueError:
                lines.append({"type": "refused", "error": raw.rstrip()})
                continue
            if record.get("type") == "status":
                return lines, record
            lines.append(record)
        return lines, None

    def send(self, command: str) -> tuple:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.read_until_status()

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
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
                command = "report " + _ask("seats that showed the bolt, e.g. 1,3 (empty: none): ").strip()
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
    """`propctl sim fusebox`."""
    firmware_lib = Path(args.firmware) if args.firmware else REPO_FIRMWARE_LIB
    if not (firmware_lib / "props" / "fusebox.py").exists():
        print("propctl sim: no fuse-box firmware at %s" % firmware_lib, file=sys.stderr)
        return 1
    script = getattr(args, "script", None)
    interactive = interactive_default() if args.non_interactive is None else not args.non_interactive
    if script:
        interactive = False
    with tempfile.TemporaryDirectory() as tmp:
        try:
            pack = prepare_pack(getattr(args, "pack", None), Path(tmp))
            overrides = overrides_from(args, pack)
            runner = Runner(overrides, firmware_lib)
        except (ValueError, OSError, FileNotFoundError) as exc:
            print("propctl sim fusebox: %s" % exc, file=sys.stderr)
            return 1
        if interactive:
            return run_interactive(runner, sys.stdout)
        if script and script != "-":
            commands = Path(script).read_text(encoding="utf-8").splitlines()
        else:
            commands = sys.stdin.read().splitlines() if not sys.stdin.isatty() else []
        code = run_scripted(runner, commands, sys.stdout)
        if code:
            err = runner.proc.stderr.read() if runner.proc.stderr else ""
            if err:
                print(err.strip(), file=sys.stderr)
        return code
