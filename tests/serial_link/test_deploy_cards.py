"""deploy --cards: the pack is checked with the firmware's own reader before the board is touched."""
import os
import random
from pathlib import Path

import pytest

from propctl.build import REPO_ROOT
from propctl.cards.load import load_deck
from propctl.cli import main as propctl_main
from propctl.serial_link import BoardError
from propctl.serial_link.cards import check_pack, read_cards

DECK = REPO_ROOT / "host_tools" / "propctl" / "data" / "decks" / "taskcards.en.csv"


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    target = tmp_path_factory.mktemp("pack") / "taskcards.bin"
    assert propctl_main(["cards", "pack", str(DECK), "-o", str(target)]) == 0
    return target.read_bytes()


def test_a_sound_pack_is_named_with_its_kind_and_size(pack):
    cards = len(load_deck([str(DECK)]).cards)
    assert cards > 1 and check_pack(pack, "taskcards.bin") == "TASK, %d records" % cards


@pytest.mark.parametrize("damage, reason", [
    (lambda good: random.Random(2).randbytes(4096), "not a card pack"),
    (lambda good: good[:-1] + bytes([good[-1] ^ 1]), "checksum"),
    (lambda good: good[:100], "truncated"),
    (lambda good: b"", "truncated"),
])
def test_random_damaged_or_cut_packs_are_refused(pack, damage, reason):
    with pytest.raises(BoardError, match=reason):
        check_pack(damage(pack), "deck.bin")


def test_a_folder_a_fifo_or_an_unreadable_file_is_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(BoardError, match="is a folder"):
        read_cards(str(tmp_path))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(BoardError, match="not a regular file"):
        read_cards(str(fifo))  # never opened: a FIFO would block the read
    locked = tmp_path / "locked.bin"
    locked.write_bytes(b"CPAK")

    def refuse(self):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(BoardError, match="cannot read --cards .*Permission denied"):
        read_cards(str(locked))
