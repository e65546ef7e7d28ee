"""One place for the fuse box's card pack: deploy --cards puts a task-card pack where the box reads it."""
from pathlib import Path

from propctl.cards.container import build_pack
from propctl.cards.load import load_deck
from propctl.serial_link.cards import card_destination
from propctl.shared.cardpack import taskcard

DECK = (Path(__file__).resolve().parents[2] / "host_tools" / "propctl" / "data"
        / "decks" / "taskcards.en.csv")


def packed_sample_deck() -> bytes:
    deck = load_deck([str(DECK)])
    assert not deck.problems
    return build_pack(deck.kind.CODE, deck.kind.VERSION, [deck.kind.encode(c) for c in deck.cards])


def test_deploy_puts_a_task_card_pack_where_the_fuse_box_reads_it_whatever_its_name():
    data = packed_sample_deck()
    assert card_destination("taskcards.bin", data) == taskcard.PACK_PATH
    assert card_destination("my-deck.bin", data) == taskcard.PACK_PATH
    # anything else (not a pack, another kind) keeps its name under cards/
    assert card_destination("deck.bin", bytes(range(256)) * 8) == "cards/deck.bin"


def test_the_fuse_box_finds_the_deployed_pack_with_no_setting(vboard_process, tmp_path):
    # the board's flash after `propctl deploy --cards taskcards.bin` and a plain config
    data = packed_sample_deck()
    target = tmp_path / card_destination("taskcards.bin", data)
    target.parent.mkdir(parents=True)
    target.write_bytes(data)
    (tmp_path / "config.json").write_text('{"prop": "fusebox"}')
    result = vboard_process.call("scenario_settings_props:fusebox_in", str(tmp_path))
    assert result["errors"] == [] and result["pack"] is None
    assert result["path"] == taskcard.PACK_PATH and result["mode"] == "pack", result
