"""`propctl image` as a newcomer meets it: every refusal one line on stderr that says what is
wrong, no warning about a file that is never written, nothing left behind."""
import pytest
from image_helpers import stock_uf2

from propctl.cli import main
from propctl.image import command, uf2
from propctl.image.geometry import BOARDS
from propctl.image.stock import StockError, read_stock

PICO = ("--prop", "clock", "--board", "pico", "-o", "x.uf2")


def run(capsys, *args):
    code = main(["image", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err.strip()


def test_a_refused_stock_file_gets_no_warning_about_an_image_never_written(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notuf2.uf2").write_bytes(b"hello")
    code, out, err = run(capsys, *PICO, "--micropython", "notuf2.uf2")
    assert code == 1 and "not a whole number of 512-byte UF2 blocks" in one_line(err)
    assert "replaces everything" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notuf2.uf2"]


def test_a_stock_uf2_cut_short_is_said_to_be_cut_short(tmp_path):
    whole = stock_uf2()
    cut = whole[:len(whole) // 2]  # whole 512-byte blocks: an interrupted download
    blocks = len(whole) // uf2.BLOCK_BYTES
    with pytest.raises(StockError) as refused:
        read_stock(cut, "RPI_PICO.uf2")
    assert str(refused.value).startswith("RPI_PICO.uf2 is cut short: it holds blocks 0 to %d of %d"
                                         % (blocks // 2 - 1, blocks)), refused.value
    assert read_stock(whole, "RPI_PICO.uf2").release == (1, 24, 1)
    assert read_stock(stock_uf2("pico2", abs_block=True), "RPI_PICO2.uf2").release == (1, 24, 1)


def test_the_board_line_names_the_board_once(capsys):
    from propctl.image import build_image
    lines = []

    def say(text):
        lines.append(text)
        raise KeyboardInterrupt  # the first line is enough
    with pytest.raises(KeyboardInterrupt):
        build_image("clock", "pico", {}, say=say)
    assert lines == ["board pico: 352 blocks of 4096 bytes (1408 KiB) at flash offset 0xA0000"]


def test_a_firmware_folder_that_is_none_says_nothing_written_once(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *PICO, "--firmware", str(tmp_path))
    line = one_line(err)
    assert code == 1 and "is not a firmware tree" in line
    assert "copied or removed" not in line and line.lower().count("nothing") == 1, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("output,words", [
    ("clocks/", "-o clocks/ names a folder: give a file in it, e.g. -o clocks/clock.uf2"),
    ("clocks.uf2/", "-o clocks.uf2/ names a folder: give a file in it, e.g. -o clocks.uf2/clock.uf2"),
])
def test_an_output_naming_a_folder_is_said_so(capsys, tmp_path, monkeypatch, output, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--prop", "clock", "--board", "pico", "-o", output)
    assert code == 2 and words in one_line(err)
    assert list(tmp_path.iterdir()) == []


def test_an_input_that_is_a_folder_is_called_a_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stock").mkdir()
    code, out, err = run(capsys, *PICO, "--micropython", "stock")
    assert code == 1 and "--micropython stock: a folder, not a file" in one_line(err)
    assert [p.name for p in tmp_path.iterdir()] == ["stock"]


def test_the_warning_for_an_esp32_says_writing_not_copying():
    assert command.warning(BOARDS["esp32"], "clock.bin").startswith(
        "Writing clock.bin to a board (esptool) replaces everything on its filesystem")
    assert command.warning(BOARDS["pico"], "clock.uf2").startswith(
        "Copying clock.uf2 onto a board replaces everything on its filesystem")


def test_deploys_words_become_nothing_written_once_and_ranges_stay_whole():
    said = command._nothing_written
    assert said("--set: clock.seed: 99 is not a whole number 0..4294967295. Nothing was copied or removed") \
        == "--set: clock.seed: 99 is not a whole number 0..4294967295. Nothing was written"
    assert said("/x is not a firmware tree: nothing was copied or removed. Pass --firmware DIR") \
        == "/x is not a firmware tree. Pass --firmware DIR. Nothing was written"
    assert said("refusing to deploy /x: no main.py. Nothing was copied or removed.") \
        == "refusing to use /x: no main.py. Nothing was written"


def test_a_bad_value_in_the_config_file_names_the_file_not_only_set(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.json").write_text('{"clock": {"seed": -3}}')
    code, out, err = run(capsys, *PICO, "--config", "old.json")
    line = one_line(err)
    assert code == 2, line
    assert line.startswith("propctl image: --config old.json with --set: clock.seed: -3 is not"), line
    assert "0..4294967295" in line and line.endswith("Nothing was written")
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]


@pytest.mark.parametrize("prop", ["clock", "football"])
def test_cards_for_a_prop_that_reads_none_is_a_usage_error(capsys, tmp_path, monkeypatch, prop):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.bin").write_bytes(b"x")
    code, out, err = run(capsys, "--prop", prop, "--board", "pico", "-o", "x.uf2", "--cards", "deck.bin")
    assert code == 2 and ("--cards: the %s reads no card deck" % prop) in one_line(err)
    assert [p.name for p in tmp_path.iterdir()] == ["deck.bin"]


def test_a_stock_file_for_the_other_rp2040_board_names_both_ways_out(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "RPI_PICO_W.uf2").write_bytes(stock_uf2("pico_w"))
    code, out, err = run(capsys, *PICO, "--micropython", "RPI_PICO_W.uf2")
    assert code == 1 and one_line(err) == (
        "propctl image: the stock image is MicroPython for the Raspberry Pi Pico W with RP2040, not for "
        "--board pico: download pico's firmware (RPI_PICO) from micropython.org/download, or make the "
        "image with --board pico_w. Nothing was written")
    assert [p.name for p in tmp_path.iterdir()] == ["RPI_PICO_W.uf2"]
