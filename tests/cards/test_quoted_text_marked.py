"""A quoted text cut short in a card problem says so ("..."), so nobody takes the cut for the card."""
import csv

from propctl.cli import main

LONG = "Hands off the sentence that tells how many rivers cross the whole of Europe today"


def test_a_task_quoted_in_a_warning_ends_in_an_ellipsis_when_cut(tmp_path, capsys):
    deck = tmp_path / "one.en.csv"
    with open(deck, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "category", "text", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "bolt"])
        w.writerow(["GEO-01", "geography", LONG] + ["statement %d" % n for n in range(1, 9)] + ["3"])
    main(["cards", "check", "--all", str(deck)])
    out = capsys.readouterr()
    text = out.out + out.err
    quoted = [line for line in text.splitlines() if "does not start with" in line]
    assert quoted, text
    assert LONG[:37] + "..." in quoted[0] and LONG not in quoted[0], quoted[0]
