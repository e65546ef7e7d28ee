"""A Pi mal Daumen save read back: every part of the file checked against the rules, the deck
and the board before a resumed game plays on (a damaged save is refused with its reason, never
half played). The writing side is Session.save_body and propctl.games.table.SaveFile."""
import json
from typing import List, Set, Tuple

from propctl.cards.history import History
from propctl.games.pimaldaumen_pile import AUTO, Pile, history_name
from propctl.games.pimaldaumen_setup import SetupError, check_names, load_cards
from propctl.games.table import SaveFile, Unusable
from propctl.shared.cardpack.question import FRAMES
from propctl.shared.rules.pimaldaumen import BONUS_GUESS, COLOURS, GUESS, Board, Game

SAVE_FILE = SaveFile("propctl pimaldaumen save", 1, "Pi mal Daumen")


def restore(data: dict, say) -> tuple:
    """(game, names, pile, board data, deck files, history) from a save's data; Unusable says
    what is wrong. Every part is checked before play."""
    def item(key, kinds, what):
        value = data.get(key)
        if key not in data or isinstance(value, bool) or not isinstance(value, kinds):
            raise Unusable("its %s is missing or damaged" % what)
        return value

    names = item("names", list, "list of players")
    try:
        check_names(names)
    except SetupError as exc:
        raise Unusable("its players: %s" % str(exc).replace("--players: ", "")) from None
    frame = data.get("frame")
    if frame not in FRAMES + (AUTO,):
        raise Unusable("its frame is %s, not one of %s"
                       % (json.dumps(frame), ", ".join(FRAMES + (AUTO,))))
    try:
        board = Board(data.get("board"))
    except ValueError as exc:
        raise Unusable("its board: %s" % exc) from None
    try:
        game = Game.from_state(board, item("game", dict, "game"))
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise Unusable("its game: %s" % (exc if isinstance(exc, ValueError) else "damaged")) from None
    if len(names) != game.players:
        raise Unusable("%d names for %d players" % (len(names), game.players))
    deck = item("deck", list, "list of deck files")
    if not deck or not all(isinstance(p, str) for p in deck):
        raise Unusable("its list of deck files is damaged")
    try:
        cards = load_cards(deck)
    except SetupError as exc:
        raise Unusable(str(exc)) from None
    known = set(card.id for card in cards)
    order = item("order", list, "card order")
    if not order or not all(isinstance(i, str) for i in order) or len(set(order)) != len(order):
        raise Unusable("its card order is damaged")
    missing = [i for i in order if i not in known]
    if missing:
        raise Unusable("the deck no longer has the cards %s" % ", ".join(missing[:5]))
    if "drawn" in data:  # saves from before the play history counted the cards drawn
        drawn = item("drawn", int, "count of cards drawn")
        if not 0 <= drawn <= len(order):
            raise Unusable("it has drawn %d of %d cards" % (drawn, len(order)))
    seed = item("seed", int, "seed")
    current, colour = data.get("current"), data.get("current_colour")
    current_frame = data.get("current_frame", frame if frame in FRAMES else None)
    if current is not None and current_frame not in FRAMES:
        raise Unusable("the card in play has no frame")
    read = checked_read(data.get("read", []), order, frame)  # saves from before "read" remember none
    history = History.load(warn=say)
    pile = Pile({card.id: card for card in cards}, frame, order, seed, current, colour, current_frame,
                read, history.deck(history_name(deck)))
    check_card_in_play(game, pile)
    return game, names, pile, data["board"], deck, history


def check_card_in_play(game: Game, pile: Pile) -> None:
    """Unusable unless the card being read exists and fits the question the game waits for."""
    if pile.current is None:  # the colour of the last card may stay: it is not used
        if game.phase in (GUESS, BONUS_GUESS):
            raise Unusable("it waits for an answer but has no card in play")
        return
    if not isinstance(pile.current, str) or pile.current not in pile.cards:
        raise Unusable("the card in play is not in the deck")
    if pile.colour not in COLOURS:
        raise Unusable("the card in play has no question colour")
    try:
        scale = pile.question().scale
    except (KeyError, ValueError) as exc:
        raise Unusable("the card in play: %s" % exc) from None
    waiting = {GUESS: game.round.scale if game.round is not None else None,
               BONUS_GUESS: game.bonus_scale}.get(game.phase, scale)
    if list(waiting or []) != list(scale):
        raise Unusable("the open question's scale is not the one of the card in play")


def checked_read(read, order: List[str], frame: str) -> Set[Tuple[str, str, str]]:
    """A save's questions read, [[card id, frame, colour], ...], as a set; Unusable if damaged.

    Saves from before the frame was kept per question list [card id, colour]: their frame.
    """
    if not isinstance(read, list):
        raise Unusable("its list of questions read is damaged")
    known = set(order)
    items = set()
    for item in read:
        if isinstance(item, list) and len(item) == 2 and frame in FRAMES:
            item = [item[0], frame, item[1]]
        if (not isinstance(item, list) or len(item) != 3 or not isinstance(item[0], str)
                or item[0] not in known or item[1] not in FRAMES or item[2] not in COLOURS):
            raise Unusable("its list of questions read is damaged (%s)" % json.dumps(item)[:60])
        items.add((item[0], item[1], item[2]))
    return items
