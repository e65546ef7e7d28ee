"""`make bench` is not part of `make test`, so what it feeds the tools is checked here: the
synthetic task-card decks it packs must pass `propctl cards check` as a real deck must (a rule
added to the checks once broke the bench: its decks had no family cards)."""
import importlib.util
import sys
from pathlib import Path

from propctl.cli import main

# bench/cards.py by its path (its folder is no package; it imports the bench's `common`)
BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
_SPEC = importlib.util.spec_from_file_location("bench_cards", BENCH / "cards.py")
bench_cards = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench_cards)


def test_the_benchs_synthetic_decks_pass_the_deck_checks(tmp_path, capsys):
    csv_path, json_path = bench_cards.make_deck(300, tmp_path)
    assert main(["cards", "check", str(csv_path)]) == 0, capsys.readouterr().out
    assert main(["cards", "check", str(json_path)]) == 0, capsys.readouterr().out
