"""What `propctl cards check|pack|print` tell people: every problem of a deck, and progress."""
import sys
from typing import List

from propctl.cards import quality
from propctl.cards.load import Problem
from propctl.cards.select import Selection


def report(problems: List[Problem]) -> int:
    for problem in problems:
        print(problem)
    if problems:
        print("%d problem%s found" % (len(problems), "" if len(problems) == 1 else "s"),
              file=sys.stderr)
        return 1
    return 0


def judged(selection: Selection) -> List[Problem]:
    """All problems of a selection: reading (every limit `pack` enforces included),
    language, then content (if it could be read)."""
    problems = list(selection.problems)
    for deck in selection.decks:
        problems.extend(deck.problems)
    if not problems:
        problems.extend(quality.check(selection.decks, selection.lang))
    return problems


class Progress:
    """Progress on stderr in 10 % steps (a line each, so logs stay readable)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.next = total // 10

    def __call__(self, done: int, what: str) -> None:
        if done >= self.next:
            print("  %s %d/%d cards (%d%%)" % (what, done, self.total, 100 * done // self.total),
                  file=sys.stderr)
            self.next = done + max(1, self.total // 10)

    def done(self) -> None:
        print("  written", file=sys.stderr)
