"""The fuse box's card slot: the task-card pack, and choosing the card in the box.

open_pack() loads and verifies the pack; CardSlot is the part of FuseBoxApp
(props.fusebox.app) that finds, chooses and steps through cards, and falls
back to manual mode when the pack fails. It works on FuseBoxApp's attributes
(pack, mode, state, _open, _now, _card_index, ...) and calls its _end_round,
_accept, _signal_open, _emit and snapshot.
"""
from props.fusebox.parts import MANUAL, PACK

TYPE_CHECKING = False  # mypy reads the import below; the boards never run it
if TYPE_CHECKING:
    from cardpack import Pack


def open_pack(path: str, stream=None) -> tuple:
    """(pack, error): the verified task-card pack at `path` (or in `stream`).

    (None, None) when there is no pack; (None, message) when it is damaged
    or not a task-card pack. Never raises for a bad file.
    """
    from cardpack import Pack, PackError, taskcard
    if stream is None:
        if not path:
            return None, None
        try:
            stream = open(path, "rb")
        except OSError:
            return None, None
    try:
        pack = Pack(stream, kind=taskcard.KIND)
        taskcard.check_version(pack)
        pack.verify()
    except (PackError, OSError) as exc:
        return None, "card pack %s is unusable: %s" % (path or "stream", exc)
    return pack, None


class CardSlot:
    """Card choosing for FuseBoxApp (see the module docstring).

    The annotations and the methods that raise NotImplementedError are what
    FuseBoxApp provides (its __init__ sets the attributes).
    """

    pack: "Pack | None"
    pack_path: str
    pack_error: "str | None"
    mode: str
    state: str
    _open: int
    _now: int
    _card_index: int
    _card_id: "str | None"
    _bolt: int
    _pending: bool

    def _emit(self, name: str, fields: dict) -> None:
        raise NotImplementedError

    def _end_round(self) -> None:
        raise NotImplementedError

    def _accept(self, now: int) -> None:
        raise NotImplementedError

    def _signal_open(self) -> None:
        raise NotImplementedError

    def snapshot(self) -> dict:
        raise NotImplementedError

    def _find(self, card_id: str) -> int:
        from cardpack import taskcard
        assert self.pack is not None
        return taskcard.find(self.pack, card_id)

    def _choose(self, index: int) -> None:
        """Make card `index` the one in the box (not yet accepted)."""
        from cardpack import taskcard
        pack = self.pack
        assert pack is not None
        card = taskcard.decode(pack.record(index))
        self._card_index = index
        self._card_id = card.id
        self._bolt = card.bolt
        self._pending = True

    def _pack_failed(self, exc) -> None:
        self.pack = None
        self.pack_error = "card pack %s failed: %s" % (self.pack_path or "stream", exc)
        self.mode = MANUAL
        self._card_index = -1
        self._card_id = None
        self._bolt = -1
        self._pending = False
        self._emit("pack_error", {"error": self.pack_error, "path": self.pack_path})
        self._emit("mode", {"mode": MANUAL, "cards": 0, "why": self.pack_error})
        self._end_round()
        if self._open == 0:
            self._accept(self._now)

    def _select(self, index: int) -> dict:
        from cardpack import PackError
        if self.mode != PACK:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        try:
            self._choose(index)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(self.pack_error) from None
        self._end_round()
        if self._open == 0:
            self._accept(self._now)
        else:
            self._signal_open()
        return self.snapshot()

    def select_card(self, card: str) -> dict:
        """Put the card with id `card` into the box (accepted once every window is shut)."""
        if self.mode != PACK:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        from cardpack import PackError
        try:
            index = self._find(card)
        except PackError as exc:
            self._pack_failed(exc)
            raise ValueError(self.pack_error) from None
        if index < 0:
            cards = len(self.pack) if self.pack is not None else 0  # _find asserted it is there
            raise ValueError("there is no card %s in the pack (%d cards)" % (card, cards))
        return self._select(index)

    def next_card(self) -> dict:
        """The next card of the pack (the first after the last)."""
        return self._step(1)

    def prev_card(self) -> dict:
        """The previous card of the pack (the last before the first)."""
        return self._step(-1)

    def _step(self, delta: int) -> dict:
        if self.mode != PACK or self.pack is None:
            raise ValueError("no card pack loaded: the box runs in manual mode (use the bolt button)")
        count = len(self.pack)
        if self._card_index < 0:
            index = 0 if delta > 0 else count - 1
        else:
            index = (self._card_index + delta) % count
        return self._select(index)
