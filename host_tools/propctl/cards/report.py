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


def report(problems: List[Problem], strict: bool = False, every: bool = False) -> int:
    """Print the problems; 1 if any is an error (or any at all with `strict`), else 0.

    Errors are listed one per line (file, line, card, field). A house rule broken on several
    cards is one line with the cards' count and lines (`grouped`), so a family's own deck fits
    a terminal; `every` (`--all`) or `strict` lists each warning on its own line too."""
    detailed = every or strict
    lines = [str(p) for p in problems] if detailed else grouped(problems)
    for line in lines:
        print(line)
    errors = sum(1 for p in problems if p.level != "warning")
    warnings = len(problems) - errors
    if problems:
        parts = []
        if errors:
            parts.append("%d error%s" % (errors, "" if errors == 1 else "s"))
        if warnings:
            notes = ["house rules of the shipped decks"]
            if not strict:
                notes.append("--strict fails on them")
            if not detailed and len(lines) < len(problems):
                notes.append("--all lists each")
            parts.append("%d warning%s (%s)" % (warnings, "" if warnings == 1 else "s",
                                                "; ".join(notes)))
        print(" and ".join(parts) + " found", file=sys.stderr)
    return 1 if errors or (strict and warnings) else 0


_PREFIX = re.compile(r"^(white|violet)_(salmon|yellow|green)_")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_OPENING = re.compile(r"does not start with ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
_STATEMENT = re.compile(r"^s[1-8]$")


def rule(problem: Problem) -> str:
    """The house rule a warning breaks, the same words for every card that breaks it
    (`no source`, `task not worded 'Keep your fingers off ...'`): what `grouped` counts."""
    field = _PREFIX.sub("", problem.field or "")
    field = "statements" if _STATEMENT.match(field) else field
    message = problem.message
    if message.startswith("is missing"):
        return "no %s" % field
    opening = _OPENING.search(message)
    if opening:
        quoted = opening.group(1)
        return "task not worded %s ...%s" % (quoted[:-1], quoted[-1])
    if "is not a date" in message:
        return "%s not a date" % field
    if "German" in message:  # propctl.cards.numbers_de
        return "numbers not written the German way"
    first = _QUOTED.sub("...", message.split("; ")[0])
    return "%s: %s" % (field, first) if field else first


def grouped(problems: List[Problem]) -> List[str]:
    """The lines `report` prints without --all: each error on its own line; each house rule
    broken on two or more cards of a file as one line at its first card's place, with how many
    cards and which lines (`warning: no source on 12 cards (lines 2-13)`); a warning about a
    whole deck or a single card as it is."""
    groups: Dict[tuple, List[Problem]] = {}
    for problem in problems:
        if problem.level == "warning" and problem.line is not None:
            groups.setdefault((problem.file, rule(problem)), []).append(problem)
    lines = []
    for problem in problems:
        members = groups.get((problem.file, rule(problem))) \
            if problem.level == "warning" and problem.line is not None else None
        if not members or len(members) == 1:
            lines.append(str(problem))
        elif members[0] is problem:
            lines.append(_group_line(problem.file, rule(problem), members))
    return lines


def _group_line(file: str, name: str, members: List[Problem]) -> str:
    questions = any(_PREFIX.match(p.field or "") for p in members)
    count = len(members) if questions else len(set((p.line, p.card) for p in members))
    where = file if file.isprintable() else repr(file)  # as Problem prints it
    return "%s: warning: %s on %d %s (%s)" % (
        where, name, count, "questions" if questions else "cards",
        spans(sorted(set(p.line for p in members if p.line is not None))))


def spans(lines: List[int], most: int = 4) -> str:
    """`lines 2-13`, `lines 2, 5, 7-9`, at most `most` runs then `...`: short enough for a line."""
    runs: List[List[int]] = []
    for n in lines:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    text = ", ".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in runs[:most])
    if len(runs) > most:
        text += ", ..."
    return ("line " if len(lines) == 1 else "lines ") + text


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


def add_strict(parser) -> None:
    """--strict: the house rules of the shipped decks fail too (the tests check those decks so)."""
    parser.add_argument("--strict", action="store_true",
                        help="fail on house-rule warnings too (sources, wording, spread, family "
                             "share), as the shipped decks are checked; lists each warning")
    parser.add_argument("--all", action="store_true",
                        help="list each house-rule warning on its own line (file, line, card, "
                             "field), not one line per rule with its cards' lines")
