"""What `propctl cards check|pack|print` tell people: every problem of a deck, and progress.

Two levels (load.Problem.level): errors are what the box or the game cannot play (a missing
bolt, a bad id, a duplicate, a card too large); warnings are the house rules the shipped decks
keep (sources, wording, spread, family share: propctl.cards.quality). `report` prints both,
sorted by file, line and field in the file's own column order, and fails on errors, or on
warnings too with `strict` (--strict).
"""
import re
import sys
from typing import Dict, List, Sequence

from propctl.cards import quality
from propctl.cards.load import Problem
from propctl.cards.select import Selection


def report(problems: List[Problem], strict: bool = False) -> int:
    """Print every problem; 1 if any is an error (or any at all with `strict`), else 0."""
    for problem in problems:
        print(problem)
    errors = sum(1 for p in problems if p.level != "warning")
    warnings = len(problems) - errors
    if problems:
        parts = []
        if errors:
            parts.append("%d error%s" % (errors, "" if errors == 1 else "s"))
        if warnings:
            parts.append("%d warning%s (house rules of the shipped decks%s)" % (
                warnings, "" if warnings == 1 else "s",
                "; --strict fails on them" if not strict else ""))
        print(" and ".join(parts) + " found", file=sys.stderr)
    return 1 if errors or (strict and warnings) else 0


def judged(selection: Selection, one=None) -> List[Problem]:
    """All problems of a selection, errors and warnings: reading (every limit `pack` enforces
    included), language and content, sorted by file, line (problems of a whole file last) and
    field in the file's own column order. `one`: the deck `select.one_deck` made of it (for
    `pack` and `print`), whose problem "several kinds" is added if it is not one of the decks."""
    problems = list(selection.problems)
    for deck in selection.decks:
        problems.extend(deck.problems)
    if one is not None and all(one is not deck for deck in selection.decks):
        problems.extend(one.problems)
    problems.extend(quality.check(selection.decks, selection.lang))
    return ordered(problems, selection.decks)


def ordered(problems: List[Problem], decks: Sequence) -> List[Problem]:
    """`problems` sorted by file (in the order given), line, then field by the file's columns."""
    files: Dict[str, int] = {}
    columns: Dict[str, List[str]] = {}
    for deck in decks:
        for path, names in getattr(deck, "columns", {}).items():
            columns[path] = names
    for problem in problems:
        files.setdefault(problem.file, len(files))

    def key(item):
        k, problem = item
        line = problem.line if problem.line is not None else float("inf")
        return (files[problem.file], line, _rank(problem.field, columns.get(problem.file, [])), k)

    return [p for _, p in sorted(enumerate(problems), key=key)]


_INDEX = re.compile(r"statements\[(\d)\]")


def _rank(field, names: List[str]) -> int:
    """Where a problem's field stands in the file's columns (a problem of no field first)."""
    if not field:
        return -1
    first = field.split(", ")[0]
    first = _INDEX.sub(lambda m: "s%d" % (int(m.group(1)) + 1), first)
    for candidate in (first, first.replace(".", "_"), first.split("[")[0], first.split(".")[0],
                      first.split("_")[0]):
        if candidate in names:
            return names.index(candidate)
    return len(names)


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
