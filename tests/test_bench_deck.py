"""`make bench` is not part of `make test`, so what it feeds the tools is checked here: the
synthetic task-card decks it packs must pass `propctl cards check` as a real deck must (a rule
added to the checks once broke the bench: its decks had no family cards)."""
import sys
from pathlib import Path

from propctl.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import run  # noqa: E402  (bench/run.py: make_deck)


def test_the_benchs_synthetic_decks_pass_the_deck_checks(tmp_path, capsys):
    csv_path, json_path = run.make_deck(300, tmp_path)
    assert main(["cards", "check", str(csv_path)]) == 0, capsys.readouterr().out
    assert main(["cards", "check", str(json_path)]) == 0, capsys.readouterr().out
