"""What a household has played, across games, so the next game picks cards not played before.

One small JSON file in the user's data directory ($XDG_DATA_HOME/propctl/
history.json, else ~/.local/share/propctl/history.json). Per deck (a name the
caller chooses, e.g. "pimaldaumen/shipped") it keeps how many games were
begun and, per card key (any text: "PMD-07/white/yellow", "GEO-01"), the
number of the game that last played it.

The history is a convenience, never a reason to stop a game: a missing file
is an empty history; a damaged or unreadable one is reported (through `warn`)
and ignored; a failed save returns a message for the screen. The file is
opened like every other input (propctl.inputfile): a FIFO, a device, a file
larger than MAX_BYTES or nested too deeply is reported and, at the next save,
set aside as history.json.damaged. Saves are atomic (propctl.atomic) and
merge with what is on disk under an exclusive lock (fcntl.flock on the
file's folder, so no lock file is left behind), so any number of games in any
number of terminals all count; without fcntl (Windows) the merge is unlocked.

The file also keeps the household's shuffle seed (`household_seed()`), made
once from the machine's name and the file's path, so each household gets its
own order of never-played cards and keeps it from game to game.

Use:

    history = History.load(warn=say)          # or History.load(path)
    deck = history.deck("pimaldaumen/shipped")
    if fresh: deck.forget()                   # --fresh
    game = deck.begin_game()
    for key in deck.fresh_first(keys): ...    # never played first, then the longest ago
    deck.mark(key)                            # played in this game
    problem = history.save()                  # None, or why it could not be saved
"""
import hashlib
import json
import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional

from propctl.atomic import write_atomic
from propctl.inputfile import InputFileError, read_regular
from propctl.termtext import shortened

FORMAT = "propctl play history"
VERSION = 1
FILE_NAME = "history.json"
# 10,000 decks of 1,000 cards each write about 20 MB; a household's file is a few KB.
MAX_BYTES = 8 * 1024 * 1024
LOCK_WAIT = 10.0      # seconds a save waits for another propctl's save to finish
SEED_LIMIT = 1 << 30  # a household seed is below this (an int the board could hold too)


def default_path() -> Path:
    """$XDG_DATA_HOME/propctl/history.json, else ~/.local/share/propctl/history.json."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "propctl" / FILE_NAME


class DeckHistory:
    """One deck's history: games begun, and per card key the game that last played it."""

    def __init__(self, name: str, games: int = 0, played: Optional[Dict[str, int]] = None) -> None:
        self.name = name
        self.games = games
        self.played: Dict[str, int] = dict(played or {})
        self.forgotten = False

    def begin_game(self) -> int:
        """Count a new game; its number (1 for the first)."""
        self.games += 1
        return self.games

    def mark(self, key: str) -> None:
        """`key` was played in the current game (the first game, if none was begun)."""
        self.games = max(self.games, 1)
        self.played[key] = self.games

    def last_played(self, key: str) -> Optional[int]:
        """The number of the game that last played `key`, or None if never."""
        return self.played.get(key)

    def unplayed(self, keys: Iterable[str]) -> List[str]:
        """The keys never played, in the given order."""
        return [k for k in keys if k not in self.played]

    def fresh_first(self, keys: Iterable[str]) -> List[str]:
        """`keys` with the never-played first (in the given order), then the played ones,
        longest ago first (ties in the given order)."""
        keys = list(keys)
        return sorted(keys, key=lambda k: (k in self.played, self.played.get(k, 0)))

    def forget(self) -> None:
        """Forget this deck's games (`--fresh`): everything counts as not played."""
        self.games = 0
        self.played.clear()
        self.forgotten = True

    def _merge(self, disk: "DeckHistory") -> None:
        """Take in what another process saved meanwhile (unless this deck was forgotten here)."""
        if self.forgotten:
            return
        self.games = max(self.games, disk.games)
        for key, game in disk.played.items():
            if game > self.played.get(key, 0):
                self.played[key] = game

    def to_json(self) -> dict:
        return {"games": self.games, "played": dict(sorted(self.played.items()))}


class History:
    """The play history file: per deck name a DeckHistory."""

    def __init__(self, path, decks: Optional[Dict[str, DeckHistory]] = None) -> None:
        self.path = Path(path)
        self.decks: Dict[str, DeckHistory] = dict(decks or {})
        self.read_problem: Optional[str] = None  # why the file on disk was ignored, if it was
        self.seed: Optional[int] = None          # the household's shuffle seed, once there is one
        self._seed_is_new = False
        self.dropped: set = set()                # deck names merged into others (not written back)

    def household_seed(self) -> int:
        """This household's shuffle seed: the one in the file, else one made from this machine's
        name and the file's path (so dealing twice before anything is saved deals alike, and
        reading never writes), kept in the file from the next save on."""
        if self.seed is None:
            where = "%s\n%s" % (socket.gethostname(), os.path.abspath(str(self.path)))
            digest = hashlib.sha256(where.encode("utf-8", "surrogatepass")).digest()
            self.seed = int.from_bytes(digest[:4], "big") % SEED_LIMIT
            self._seed_is_new = True
        return self.seed

    def merge_into(self, name: str, old_names: Iterable[str]) -> DeckHistory:
        """The deck `name`, with the decks called `old_names` merged into it and dropped (a deck
        whose history was kept under other names before, e.g. one per language)."""
        deck = self.deck(name)
        for old in old_names:
            if old in self.decks and old != name:
                deck._merge(self.decks.pop(old))
                self.dropped.add(old)
        return deck

    @classmethod
    def load(cls, path=None, warn: Optional[Callable[[str], object]] = None) -> "History":
        """The history in `path` (default: default_path()); empty if missing.

        A damaged or unreadable file is reported through `warn` and ignored.
        """
        history = cls(path if path is not None else default_path())
        decks, problem, seed = _read(history.path)
        history.decks = decks
        history.read_problem = problem
        history.seed = seed
        if problem and warn is not None:
            warn("Note: the play history %s %s; this game starts without it." % (history.path, problem))
        return history

    def deck(self, name: str) -> DeckHistory:
        """The history of the deck called `name` (created empty if new)."""
        if name not in self.decks:
            self.decks[name] = DeckHistory(name)
        return self.decks[name]

    def save(self) -> Optional[str]:
        """Write the history atomically, merged with the file on disk; None, or why it failed.

        Read, merge and write happen under an exclusive lock, so games saving at the same
        moment all count."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path.parent) as waited:
                if waited:
                    return "the play history %s could not be saved: %s" % (self.path, waited)
                return self._merge_and_write()
        except OSError as exc:
            return "the play history %s could not be saved: %s" % (self.path, exc.strerror or exc)

    def _merge_and_write(self) -> Optional[str]:
        disk, problem, seed = _read(self.path)
        if problem and problem.startswith(_NEWER):
            return "the play history %s %s; it is left alone" % (self.path, problem)
        if seed is not None and (self.seed is None or self._seed_is_new):
            self.seed, self._seed_is_new = seed, False  # the first household seed saved stays
        for name, theirs in disk.items():
            if name in self.dropped:
                continue
            mine = self.decks.get(name)
            if mine is None:
                self.decks[name] = theirs
            else:
                mine._merge(theirs)
        data: dict = {"format": FORMAT, "version": VERSION}
        if self.seed is not None:
            data["household"] = {"seed": self.seed}
        data["decks"] = dict((name, deck.to_json()) for name, deck in sorted(self.decks.items()))
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        if problem and os.path.lexists(self.path) and not self.path.is_dir():
            # Keep the damaged file (or the FIFO, device or link found there) for whoever
            # wants to look, and write a fresh one in its place.
            os.replace(self.path, self.path.with_name(self.path.name + ".damaged"))
        write_atomic(self.path, text.encode("utf-8"))
        self._seed_is_new = False
        return None


@contextmanager
def _locked(folder: Path) -> Iterator[Optional[str]]:
    """An exclusive flock on `folder` while the block runs; yields None, or why it could not be
    had within LOCK_WAIT seconds. Without fcntl (Windows) it yields None unlocked."""
    try:
        import fcntl
    except ImportError:
        yield None
        return
    fd = os.open(str(folder), os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    yield "another propctl has held it for %g s" % LOCK_WAIT
                    return
                time.sleep(0.005)
        try:
            yield None
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


_NEWER = "was written by a newer propctl"


def _read(path: Path):
    """(decks by name, None, household seed) from the file, or ({}, why it is unusable, None);
    a missing file is empty. Opened like every input: a FIFO or device is refused, not read."""
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8")
    except InputFileError as exc:
        if not os.path.lexists(path):
            return {}, None, None
        return {}, "cannot be read (%s)" % exc, None
    except UnicodeDecodeError:
        return {}, "is damaged (not UTF-8 text)", None
    try:
        data = json.loads(text)
    except ValueError:
        return {}, "is damaged (not JSON)", None
    except RecursionError:
        return {}, "is damaged (nested too deeply)", None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, "is not a propctl play history", None
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        return {}, "%s (version %d)" % (_NEWER, version), None
    decks = data.get("decks")
    if version != VERSION or not isinstance(decks, dict):
        return {}, "is damaged (no version %d deck list)" % VERSION, None
    out = {}
    for name, entry in decks.items():
        deck = _deck(name, entry)
        if deck is None:
            return {}, "is damaged (deck %s)" % shortened(json.dumps(name), 40), None
        out[name] = deck
    household = data.get("household")
    seed = household.get("seed") if isinstance(household, dict) else None
    if not (_count(seed) and seed < SEED_LIMIT):
        seed = None  # a missing or odd seed: a new one is made, the decks are still good
    return out, None, seed


def _deck(name, entry) -> Optional[DeckHistory]:
    if not isinstance(entry, dict):
        return None
    games, played = entry.get("games"), entry.get("played")
    if not _count(games) or not isinstance(played, dict):
        return None
    if not all(isinstance(k, str) and _count(v) and v <= games for k, v in played.items()):
        return None
    return DeckHistory(name, games, played)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
