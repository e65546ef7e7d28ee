"""What every terminal game master shares: the table's own commands, saving, stopping, resuming.

A game master (pimaldaumen, fingerfootball) subclasses Table: it names its
game, its help text, its extra commands (track, board, undo) and what a save
holds. Table reads the table's lines and answers help, save and quit itself,
asks whether to save on Ctrl-C or quit, saves atomically, and SaveFile loads a
save with the checks every save needs (readable, JSON, this game's format and
version) before the game checks its own part.
"""
import json
import os
import unicodedata
from typing import Callable, Dict, Optional

from propctl.argtypes import SEED
from propctl.atomic import output_problem, write_atomic
from propctl.inputfile import InputFileError, read_regular
from propctl.termsafe import has_control, printable
from propctl.termtext import cells, cut

YES = ("", "y", "yes", "j", "ja")  # Enter means yes
# A save is a few KB; a deck of a million cards makes its draw pile a few MB.
MAX_SAVE_BYTES = 64 * 1024 * 1024


class Quit(Exception):
    """The table asked to stop."""


class Unusable(ValueError):
    """Why a save file cannot be resumed (the message completes "FILE cannot be resumed: ...")."""


def add_common_options(parser, default_save: str, seed_help: str) -> None:
    """--seed, --save and --resume, the same for every game master."""
    parser.add_argument("--seed", type=SEED, help=seed_help)
    parser.add_argument("--save", metavar="FILE",
                        help="where to save (default: the --resume file, else %s, or %s, "
                             "-3 ... when that holds an earlier game)"
                             % (default_save, default_save.replace(".json", "-2.json")))
    parser.add_argument("--resume", metavar="FILE", help="continue a saved game")


def random_seed(seed: Optional[int]) -> int:
    """The seed given, or a fresh one from the system."""
    if seed is not None:
        return seed
    return int.from_bytes(os.urandom(4), "little")


class SaveClaim:
    """This process's hold on a save file, from the game's start to its end: an exclusive
    lock (flock) on a hidden `.NAME.lock` beside it, holding our pid. The system drops the lock
    when the process ends, however it ends, so a game that was killed leaves no claim behind;
    a second game on the same save is told and refused (Table.run_to_end)."""

    def __init__(self, path: str, lock_path: str, fd: int) -> None:
        self.path = path
        self.lock_path = lock_path
        self.fd = fd

    def release(self) -> None:
        if self.fd < 0:
            return
        try:
            if os.path.samestat(os.stat(self.lock_path), os.fstat(self.fd)):
                os.remove(self.lock_path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = -1


_CLAIMS: Dict[str, SaveClaim] = {}  # save path -> this process's claim on it


def lock_path(path: str) -> str:
    folder, name = os.path.split(path)
    return os.path.join(folder, ".%s.lock" % name)


def claim_save(path: str):
    """(claim, "") when this process now holds `path`; (None, who) when another game does
    (who: "process N"); (None, "") when no lock can be taken here (no flock on this system, or
    the folder refuses the lock file: the game goes on unguarded, as before)."""
    held = _CLAIMS.get(path)
    if held is not None and held.fd >= 0:
        return held, ""
    try:
        import fcntl
    except ImportError:  # Windows
        return None, ""
    lock = lock_path(path)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return None, ""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            pid = os.read(fd, 32).decode("ascii", "replace").strip()
        except OSError:
            pid = ""
        os.close(fd)
        return None, "process %s" % pid if pid.isdigit() else "another process"
    try:
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
    except OSError:
        pass
    claim = SaveClaim(path, lock, fd)
    _CLAIMS[path] = claim
    return claim, ""


def in_use_text(path: str, who: str) -> str:
    return ("%s is in use by another game right now (%s): two games on one save would overwrite "
            "each other. Finish or stop that one first, or play this one with --save ANOTHER.json"
            % (path, who))


def new_game_save_path(save: Optional[str], default: str, say) -> str:
    """Where a new game saves: --save as given, else `default`, or when that file exists (an
    earlier game, perhaps unfinished) or another game running now has claimed it, the first
    free default-2.json, -3 ...: a new game never overwrites another's save without being told
    to. The path is claimed as it is chosen (claim_save). Says so when it moves aside."""
    if save:
        return save
    stem, ext = os.path.splitext(default)
    n = 1
    while True:
        path = default if n == 1 else "%s-%d%s" % (stem, n, ext)
        n += 1
        if os.path.lexists(path):
            continue
        claim, who = claim_save(path)
        if claim is None and who:
            continue
        break
    if path != default:
        if _held_elsewhere(default):
            why = "is the save of a game being played now"
        elif finished_save(default):
            why = "holds a finished game (kept for the record)"
        else:
            why = "holds an earlier game (continue it with --resume %s)" % default
        say("%s %s; this one saves to %s." % (default, why, path))
    return path


def finished_save(path: str) -> bool:
    """Whether `path` is the save of a game that has ended (both game masters keep the game's
    phase under "game"; "over" when it ended): nothing to continue there."""
    try:
        with open(path, encoding="utf-8") as source:
            data = json.loads(source.read(MAX_SAVE_BYTES))
        return data["game"]["phase"] == "over"
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return False


def _held_elsewhere(path: str) -> bool:
    """Whether another process holds `path` now (claim_save, let go at once if it was free)."""
    claim, who = claim_save(path)
    if claim is not None:
        claim.release()
        _CLAIMS.pop(path, None)
    return bool(who)


def refuse_unsavable(save_path, say) -> bool:
    """Say so and return True when the game could not be saved to `save_path` (exit code 2),
    known before it starts: a save is write_atomic's temp file renamed over it, checked by
    propctl.atomic.check_output as every output file a person names."""
    problem = output_problem(save_path)
    if problem is None:
        return False
    say("error: the game could not be saved to %s: %s; name another file with --save" % (save_path, problem))
    return True


def checked_text(text: str, what: str) -> str:
    """`text` if it can be shown and saved; ValueError for bytes that were not UTF-8 (a wrong terminal)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise ValueError("%s: %r is not UTF-8 text; set the terminal to UTF-8 or type the name "
                         "without the special letters" % (what, shown)) from None
    return text


NAME_COLUMNS = 40  # a name is shown whole on an 80-column board line with room to spare


def invisible(ch: str) -> bool:
    """Whether `ch` is a format character that takes no cell (zero-width space, bidi marks, soft
    hyphen...): 'Ann' and 'Ann' + U+200B would be two teams that look alike. The zero-width
    joiner stays: it glues an emoji family together."""
    return unicodedata.category(ch) == "Cf" and ch != "\u200d"


def checked_name(text: str, what: str) -> str:
    """`text` if it is a name the table can show: UTF-8 text (checked_text), no control
    characters (ESC would let a name set the terminal's title, colour it or clear it), no
    invisible ones (see invisible) and at most NAME_COLUMNS columns wide; ValueError saying
    which, the name shown escaped."""
    checked_text(text, what)
    if any(invisible(ch) for ch in text):
        raise ValueError("%s: '%s' holds an invisible character (shown as \\u....); two names "
                         "that look the same must be the same name"
                         % (what, printable("".join("\\u%04x" % ord(ch) if invisible(ch) else ch
                                                    for ch in text[:60]), newlines=False)))
    if has_control(text):
        raise ValueError("%s: '%s' holds a control character (shown as \\u....); a name is plain "
                         "text" % (what, printable(text[:60], newlines=False)))
    if cells(text) > NAME_COLUMNS:
        raise ValueError("%s: '%s...' is %d columns wide; a name may take at most %d"
                         % (what, cut(text, 20), cells(text), NAME_COLUMNS))
    return text


def shown(ask: Callable[[str], str], say: Callable[[str], object]) -> tuple:
    """(ask, say) that show every text escaped by propctl.termsafe.printable: whatever a name,
    a typed line or a save file holds, printing it cannot change the terminal."""
    return (lambda prompt: ask(printable(prompt)), lambda text: say(printable(text)))


class SaveFile:
    """A game's save format: {"format": ..., "version": ..., ...the game's own keys}."""

    def __init__(self, format_name: str, version: int, title: str) -> None:
        self.format = format_name
        self.version = version
        self.title = title  # "a saved <title> game"

    def write(self, path, body: dict) -> None:
        """Save atomically (old file or new file, never half); raises OSError."""
        data = {"format": self.format, "version": self.version}
        data.update(body)
        # ASCII with escapes: any name or path survives the round trip
        write_atomic(path, json.dumps(data, indent=1).encode("ascii"))

    def read(self, path) -> dict:
        """The saved object, checked for format and version; Unusable says why not."""
        try:
            # a regular file only, read to a limit: a FIFO or /dev/zero would never end
            text = read_regular(path, MAX_SAVE_BYTES).decode("utf-8")
        except InputFileError as exc:
            raise Unusable(str(exc)) from None
        except UnicodeDecodeError:
            raise Unusable("not a saved %s game (not text)" % self.title) from None
        try:
            data = json.loads(text)
        except RecursionError:
            raise Unusable("not a saved %s game (JSON nested too deeply)" % self.title) from None
        except ValueError as exc:
            raise Unusable("not a saved %s game (not JSON: %s)" % (self.title, exc)) from None
        if not isinstance(data, dict) or data.get("format") != self.format:
            raise Unusable("not a saved %s game" % self.title)
        if data.get("version") != self.version:
            raise Unusable("saved in format version %s; this propctl reads version %d"
                           % (json.dumps(data.get("version")), self.version))
        return data


class Table:
    """The terminal loop around one game: reading lines, the table's commands, saving, stopping."""

    game_name = ""       # the name after `propctl play`
    help_text = ""
    keep_when_unsure = True  # Ctrl-C at the "save?" question: True saves, False does not

    def __init__(self, ask: Callable[[str], str], say: Callable[..., None], save_path,
                 save_file: SaveFile) -> None:
        self.ask_raw = ask
        self.say = say
        self.save_path = save_path
        self.save_file = save_file

    # -- what a game master provides ---------------------------------------------

    def commands(self) -> Dict[str, Callable[[], bool]]:
        """Extra words the table may type at any prompt; a command returning True ends the prompt
        with "" (the question changed, e.g. after undo)."""
        return {}

    def show_help(self) -> None:
        self.say(self.help_text)

    def save_body(self) -> dict:
        raise NotImplementedError

    def over(self) -> bool:
        raise NotImplementedError

    def step(self) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        """Said once the game has ended."""

    def repeat_question(self) -> None:
        """Said after a table command (help, save, board...) before the prompt comes again."""

    # -- the loop ---------------------------------------------------------------

    def in_use(self) -> bool:
        """Claim the save for this game (claim_save); True, said why, when another game running
        now holds it. Called before anything of the game is shown; run_to_end keeps the claim."""
        claim, who = claim_save(str(self.save_path))
        if claim is None and who:
            self.say("error: " + in_use_text(str(self.save_path), who))
            return True
        return False

    def run_to_end(self) -> int:
        """Step until the game is over or the table stops; the exit code (1, said why, when
        another game running now holds the save)."""
        if self.in_use():
            return 1
        claim = _CLAIMS.get(str(self.save_path))
        try:
            return self._run_to_end()
        finally:
            if claim is not None:
                claim.release()
                _CLAIMS.pop(claim.path, None)

    def _run_to_end(self) -> int:
        try:
            while not self.over():
                self.step()
        except (KeyboardInterrupt, Quit):
            return self.stop()
        except EOFError:
            self.say("")
            self.say("Input ended.")
            return 0 if self.save(last=True) else 1
        self.finish()
        return 0 if self.save(last=True, finished=True) else 1

    def ask(self, prompt: str) -> str:
        """One line from the table; answers help, save, quit and the game's own commands."""
        extra = self.commands()
        while True:
            try:
                text = checked_text(self.ask_raw(prompt).strip(), "typed")
            except (UnicodeDecodeError, ValueError):  # strict or surrogate-escaping stdin
                self.say("  That was not UTF-8 text; please type it again.")
                continue
            command = text.lower()
            if command in ("help", "?"):
                self.show_help()
            elif command == "save":
                self.save()
            elif command in ("quit", "exit"):
                raise Quit()
            elif command in extra:
                if extra[command]():
                    return ""
            else:
                return text
            self.repeat_question()  # the question again, not a bare prompt under the board

    def stop(self) -> int:
        """Ctrl-C or quit: ask whether to save, then stop (exit code 0)."""
        self.say("")
        try:
            answer = self.ask_raw("Save the game to %s before stopping? [Y/n]: " % self.save_path)
        except (KeyboardInterrupt, EOFError, UnicodeDecodeError):
            self.say("")  # the answer's line ends here (the terminal shows ^C on it)
            answer = "" if self.keep_when_unsure else "n"
        if answer.strip().lower() in YES:
            return 0 if self.save(last=True) else 1
        self.say("Not saved.")
        return 0

    def save(self, quiet: bool = False, last: bool = False, finished: bool = False) -> bool:
        """Save now; a failed save is said (and, unless it is the `last`, the game goes on).
        A `finished` game is kept for the record: there is nothing to continue."""
        try:
            self.save_file.write(self.save_path, self.save_body())
        except OSError as exc:
            self.say("  could not save to %s: %s %s" % (
                self.save_path, exc.strerror or exc,
                "- the game is NOT saved" if last else "(the game goes on)"))
            return False
        if finished:
            self.say("The finished game is saved in %s." % self.save_path)
        elif not quiet:
            self.say("Saved to %s; continue with: propctl play %s --resume %s"
                     % (self.save_path, self.game_name, self.save_path))
        return True
