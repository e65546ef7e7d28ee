"""The docs hold together: every relative link in README.md, docs/ and hardware/ leads to a file
(and a `#anchor` to a heading of it), and every page under docs/ is reachable from the README."""
import re
from pathlib import Path

from propctl.build import REPO_ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")


def pages() -> list:
    return [REPO_ROOT / "README.md"] + sorted((REPO_ROOT / "docs").rglob("*.md")) + sorted(
        (REPO_ROOT / "hardware").rglob("*.md"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set:
    return {slug(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def links(path: Path) -> list:
    """(target file, anchor or "") for each relative link in the page."""
    found = []
    for markdown, html in LINK.findall(path.read_text(encoding="utf-8")):
        target = markdown or html
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        found.append(((path.parent / file).resolve() if file else path, anchor))
    return found


def test_every_relative_link_leads_to_a_file_and_heading():
    broken = []
    for page in pages():
        for target, anchor in links(page):
            if not target.exists():
                broken.append("%s -> %s" % (page.relative_to(REPO_ROOT), target))
            elif anchor and target.suffix == ".md" and anchor not in anchors(target):
                broken.append("%s -> %s#%s" % (page.relative_to(REPO_ROOT), target.name, anchor))
    assert broken == []


def test_every_docs_page_is_reachable_from_the_readme():
    seen, todo = set(), [REPO_ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".md" or not page.exists():
            continue
        seen.add(page)
        todo += [target for target, _ in links(page)]
    missing = sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docs").rglob("*.md")
                     if p not in seen)
    assert missing == []
