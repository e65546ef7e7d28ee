"""Card packs: a compact binary deck the board reads one card at a time by seeking.

Generic container (any kind of card), in cardpack.pack:

    from cardpack import Pack, PackError
    pack = Pack(open("/decks/taskcards.bin", "rb"), kind="TASK")  # checks the header
    len(pack)           # number of records
    pack.record(k)      # bytes of record k, bounds- and CRC-checked
    pack.verify()       # whole-file CRC, streamed in 256-byte chunks
    pack.kind, pack.kind_version, pack.count, pack.size

Streams are injected (anything with seek/read/readinto, e.g. io.BytesIO):
nothing here opens files. Truncation and corruption raise PackError (a
ValueError) with a clear message; an index out of range raises IndexError.

Per-kind record decoders live next to it, one module per kind:
    cardpack.taskcard   Finger weg! task cards (kind "TASK")
A new kind adds a module with decode(record_bytes) and a 4-letter KIND code,
and a desktop encoder in propctl.cards (see that package's docstring).

The desktop writer is propctl.cards.container.build_pack/write_atomic.
"""
from .pack import Pack, PackError

__all__ = ["Pack", "PackError"]
