"""The fuse box's card slot: the task-card pack, and which card is in the box.

    pack, error = open_pack(path)            # verified, or (None, why)
    slot = CardSlot(pack, path, error)       # PACK mode with a pack, else MANUAL
    index = slot.find("GEO-01")              # -1: no such card (PackError: the flash failed)
    slot.choose(index)                       # the card in the box, pending until accepted
    slot.accepted()                          # the box accepted it (all windows shut)
    slot.fail(exc)                           # the pack failed while playing: MANUAL from now on

The slot knows nothing of windows, sounds or events: FuseBoxApp
(props.fusebox.app) asks it which card is in the box and where its bolt is,
tells it what happened, and does the reacting itself.
"""
from props.fusebox.constants import MANUAL, PACK

NO_PACK = "no card pack loaded: the box runs in manual mode (use the bolt button)"


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
    """The pack and the card in the box (see the module docstring).

    mode: PACK or MANUAL; index, card_id: the chosen card (-1 / None: none);
    bolt: its bolt window 0-7 (-1: unknown, as in manual mode); pending: chosen
    but not accepted yet; pack_error: why there is no pack (None: no error).
    """

    def __init__(self, pack=None, pack_path: str = "", pack_error=None) -> None:
        self.pack = pack
        self.pack_path = pack_path
        self.pack_error = pack_error
        self.mode = PACK if pack is not None else MANUAL
        self.index = -1
        self.card_id: "str | None" = None
        self.bolt = -1
        self.pending = False

    def count(self) -> int:
        return len(self.pack) if self.pack is not None else 0

    def require_pack(self) -> None:
        """ValueError in manual mode: a card cannot be chosen without a pack."""
        if self.mode != PACK or self.pack is None:
            raise ValueError(NO_PACK)

    def find(self, card_id: str) -> int:
        """The index of card `card_id` in the pack, -1 if none (PackError: the pack failed)."""
        from cardpack import taskcard
        self.require_pack()
        return taskcard.find(self.pack, card_id)

    def choose(self, index: int) -> None:
        """Make card `index` the one in the box, not yet accepted (PackError: the pack failed)."""
        from cardpack import taskcard
        self.require_pack()
        card = taskcard.decode(self.pack.record(index))  # type: ignore[union-attr]
        self.index = index
        self.card_id = card.id
        self.bolt = card.bolt
        self.pending = True

    def step(self, delta: int) -> int:
        """The index `delta` cards on from the chosen one, round the pack (from either end if none)."""
        self.require_pack()
        count = self.count()
        if self.index < 0:
            return 0 if delta > 0 else count - 1
        return (self.index + delta) % count

    def accepted(self) -> None:
        self.pending = False

    def fail(self, exc) -> str:
        """The pack failed while playing: forget it and the card, manual mode; the error text."""
        self.pack = None
        self.pack_error = "card pack %s failed: %s" % (self.pack_path or "stream", exc)
        self.mode = MANUAL
        self.index = -1
        self.card_id = None
        self.bolt = -1
        self.pending = False
        return self.pack_error
