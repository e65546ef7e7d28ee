"""`python bench/run.py --only NAME`: the sections measured now replace their namesakes in
bench/REPORT.md, and every other section stays as it was last measured (before, a run with
--only wrote a report of those sections alone, dropping the rest).

A section is the text from one line starting with "## " to the next; the report's head
(everything before the first section) is the run's own.
"""
from typing import Dict, List


def sections(text: str) -> Dict[str, str]:
    """{heading line: the section's text} of a report, in the report's order."""
    out: Dict[str, str] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            current = line.rstrip("\n")
            out[current] = ""
        if current is not None:
            out[current] += line
    return {heading: body.strip("\n") for heading, body in out.items()}


def merged(old_report: str, head: str, parts: List[str]) -> str:
    """The report: `head`, then the old report's sections with those in `parts` (each one or
    more sections) put in place of their namesakes, sorted as run.py sorts its parts."""
    kept = sections(old_report)
    for part in parts:
        kept.update(sections(part))
    return head + "\n" + "\n\n".join(sorted(kept.values(), key=lambda p: p[:5])) + "\n"
