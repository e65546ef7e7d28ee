"""What a Pi mal Daumen game starts from: the players' names, the question cards' files and the
board's file, each checked, with SetupError saying what is wrong (used by the session and the
save's checks alike, so a resumed game is held to the same rules as a new one)."""
import io
import json
from pathlib import Path

from propctl.cards.load import MAX_FILE_BYTES, load_deck
from propctl.games.table import checked_name
from propctl.inputfile import InputFileError, open_regular, read_regular
from propctl.shared.cardpack import Pack, PackError
from propctl.shared.cardpack.question import check_version as check_pack_version
from propctl.shared.cardpack.question import decode as decode_card
from propctl.shared.rules.pimaldaumen import MAX_PLAYERS, MIN_PLAYERS, Board


class SetupError(Exception):
    """A game cannot start: bad names, deck, board or save file."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def parse_names(text: str) -> list:
    """Player names from "A, B, C": 2-6, unique, non-empty."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise SetupError("--players: an empty name in %r; separate names with commas" % text, 2)
    return check_names(names)


def check_names(names: list) -> list:
    """`names` if they are 2-6 different, non-empty, showable texts; SetupError (exit 2) if not."""
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise SetupError("--players: every player needs a name", 2)
        try:
            checked_name(n, "--players")
        except ValueError as exc:
            raise SetupError(str(exc), 2) from None
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError("--players: Pi mal Daumen is for %d to %d players, got %d"
                         % (MIN_PLAYERS, MAX_PLAYERS, len(names)), 2)
    lower = [n.lower() for n in names]
    for n in names:
        if lower.count(n.lower()) > 1:
            raise SetupError("--players: %r appears twice; every player needs a different name" % n, 2)
    return names


def load_cards(paths, family=False) -> list:
    """Question cards from CSV/JSON files or one .bin pack; SetupError listing every problem.

    `family`: only the cards marked family (a pack does not keep the mark).
    """
    paths = [str(p) for p in paths]
    if len(paths) == 1 and _is_pack(paths[0]):
        if family:
            raise SetupError("--family needs the deck as CSV or JSON: a pack (%s) does not keep which "
                             "cards are family cards" % paths[0], 2)
        try:
            pack = Pack(io.BytesIO(read_regular(paths[0], MAX_FILE_BYTES)), kind="QUES")
            check_pack_version(pack)
            pack.verify()
            return [decode_card(pack.record(k)) for k in range(len(pack))]
        except (InputFileError, OSError, PackError) as exc:
            raise SetupError("deck %s: %s" % (paths[0], exc)) from None
    deck = load_deck(paths, "questions")
    if deck.problems:
        for path in paths:  # a whole other kind of deck: say so, not its columns one by one
            kind = getattr(load_deck([path]).kind, "NAME", None)
            if kind == "taskcards":
                raise SetupError("%s is a task deck (Finger weg! cards for the fuse box), not Pi mal "
                                 "Daumen question cards; try it in `propctl sim fusebox --pack %s`"
                                 % (path, path))
        lines = [str(p) for p in deck.problems]
        raise SetupError("the deck has %d problem%s (see `propctl cards check`):\n  %s"
                         % (len(lines), "" if len(lines) == 1 else "s", "\n  ".join(lines)))
    if not family:
        return deck.cards
    cards = [card for card in deck.cards if getattr(card, "family", False)]
    if not cards:
        raise SetupError("--family: the deck has no family cards (\"family\": true)")
    return cards


def _is_pack(path: str) -> bool:
    # opened without blocking (a FIFO waited here for a writer forever); anything but a regular
    # file is left to load_deck, which says what it is
    try:
        with open_regular(path) as stream:
            return stream.read(4) == b"CPAK"
    except (InputFileError, OSError):
        return False


def stand_in(board_data) -> bool:
    """True for a board file that says it is a stand-in for the printed board."""
    words = "%s %s" % (board_data.get("name", ""), board_data.get("note", ""))
    return "stand-in" in words.lower()


def load_board(path) -> dict:
    """Board data from a JSON file, validated by the rules core."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        Board(data)
    except OSError as exc:
        raise SetupError("board %s: cannot be read: %s" % (path, exc.strerror or exc)) from None
    except ValueError as exc:
        raise SetupError("board %s: %s" % (path, exc)) from None
    return data
