"""What a household has played, across games, so the next game picks cards not played before.

One small JSON file in the user's data directory ($XDG_DATA_HOME/propctl/
history.json, else ~/.local/share/propctl/history.json). Per deck (a name the
caller chooses, e.g. "pimaldaumen/shipped") it keeps how many games were
begun and, per card key (any text: "PMD-07/white/yellow", "GEO-01"), the
number of the game that last played it.

The history is a convenience, never a reason to stop a game: a missing file
is an empty history; a damaged or unreadable one is reported (through `warn`)
and ignored; a failed save returns a message for the screen. Saves are atomic
(propctl.atomic) and merge with what is on disk, so two games in two
terminals both count.

Use:

    history = History.load(warn=say)          # or History.load(path)
    deck = history.deck("pimaldaumen/shipped")
    if fresh: deck.forget()                   # --fresh
    game = deck.begin_game()
    for key in deck.fresh_first(keys): ...    # never played first, then the longest ago
    deck.mark(key)                            # played in this game
    problem = history.save()                  # None, or why it could not be saved
"""
import json
import os
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional

from propctl.atomic import write_atomic

FORMAT = "propctl play history"
VERSION = 1
FILE_NAME = "history.json"


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

    @classmethod
    def load(cls, path=None, warn: Optional[Callable[[str], object]] = None) -> "History":
        """The history in `path` (default: default_path()); empty if missing.

        A damaged or unreadable file is reported through `warn` and ignored.
        """
        history = cls(path if path is not None else default_path())
        decks, problem = _read(history.path)
        history.decks = decks
        history.read_problem = problem
        if problem and warn is not None:
            warn("Note: the play history %s %s; this game starts without it." % (history.path, problem))
        return history

    def deck(self, name: str) -> DeckHistory:
        """The history of the deck called `name` (created empty if new)."""
        if name not in self.decks:
            self.decks[name] = DeckHistory(name)
        return self.decks[name]

    def save(self) -> Optional[str]:
        """Write the history atomically, merged with the file on disk; None, or why it failed."""
        disk, problem = _read(self.path)
        if problem and problem.startswith(_NEWER):
            return "the play history %s %s; it is left alone" % (self.path, problem)
        for name, theirs in disk.items():
            mine = self.decks.get(name)
            if mine is None:
                self.decks[name] = theirs
            else:
                mine._merge(theirs)
        data = {"format": FORMAT, "version": VERSION,
                "decks": dict((name, deck.to_json()) for name, deck in sorted(self.decks.items()))}
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if problem and self.path.is_file():  # keep the damaged file for whoever wants to look
                os.replace(self.path, self.path.with_name(self.path.name + ".damaged"))
            write_atomic(self.path, text.encode("utf-8"))
        except OSError as exc:
            return "the play history %s could not be saved: %s" % (self.path, exc.strerror or exc)
        return None


_NEWER = "was written by a newer propctl"


def _read(path: Path):
    """(decks by name, None) from the file, or ({}, why it is unusable); a missing file is empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        return {}, "cannot be read (%s)" % (getattr(exc, "strerror", None) or exc)
    try:
        data = json.loads(text)
    except ValueError:
        return {}, "is damaged (not JSON)"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, "is not a propctl play history"
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        return {}, "%s (version %d)" % (_NEWER, version)
    decks = data.get("decks")
    if version != VERSION or not isinstance(decks, dict):
        return {}, "is damaged (no version %d deck list)" % VERSION
    out = {}
    for name, entry in decks.items():
        deck = _deck(name, entry)
        if deck is None:
            return {}, "is damaged (deck %s)" % json.dumps(name)[:40]
        out[name] = deck
    return out, None


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
