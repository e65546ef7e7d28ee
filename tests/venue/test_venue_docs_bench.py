"""The venue docs' figures equal the bench's (bench/REPORT.md, `make bench`'s venue
sections). Before, docs/venue.md quoted runs the report did not hold (2.84 s and 3.86 s for
50 props, 2.3 ms per payload) while the report had no venue section at all.

After `python bench/run.py --only venue`, put the new figures into docs/venue.md's "Measured"
(and the TLS figure into docs/heap.md): this test names each one that differs.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORT = (ROOT / "bench" / "REPORT.md").read_text(encoding="utf-8")
VENUE = (ROOT / "docs" / "venue.md").read_text(encoding="utf-8")
MEASURED = VENUE[VENUE.index("\n## Measured"):]
HEAP = (ROOT / "docs" / "heap.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    start = REPORT.index("\n## %s\n" % heading)
    end = REPORT.find("\n## ", start + 1)
    return REPORT[start:end if end > 0 else None]


def one(pattern: str, text: str) -> tuple:
    found = re.search(pattern, text)
    assert found, "bench/REPORT.md has no %r: run `python bench/run.py --only venue`" % pattern
    return found.groups()


def figures() -> list:
    """(what, the words docs/venue.md must hold) for each venue figure of the report."""
    first, second = section("Venue mode (MQTT)"), section("Venue mode, round two")
    out = []
    warm, cold = one(r"listed all 20 online in \*\*([\d.]+) s\*\*.*? listed all online ([\d.]+) s after",
                     first)
    out += [("20 props listed", "online %s s after it starts" % warm),
            ("20 props from launch", "listed online %s s after the first launch" % cold)]
    for prop, words in (("clock", "clock"), ("fusebox", "fuse box"), ("football", "football box")):
        net, board = one(r"\| %s \| \.mpy \| \d+ \| \d+ \| \*\*(\d+)\*\* \| (\d+) \|" % prop, first)
        out.append(("%s net layer" % prop, "%s %.1f KB" % (words, int(net) / 1024)))
        out.append(("%s on a 32-bit board" % prop, "%.1f" % (int(board) / 1024)))
    per_payload, = one(r"([\d.]+) ms per payload", first)
    out.append(("hostile payloads", "about %s ms per payload" % per_payload))
    listed, outage, median, worst = one(r"listed all online in \*\*([\d.]+) s\*\*.*?down (\d+) s.*?"
                                        r"median \*\*([\d.]+) s\*\*, max \*\*([\d.]+) s\*\*", second)
    out += [("50 props listed", "listed all 50 online in %s s" % listed),
            ("comeback", "down %s s, started again: all 50 back online, median %s s, max %s s"
             % (outage, median, worst))]
    tls, = one(r"TLS costs \*\*([\d.]+) KB\*\*", second)
    out.append(("TLS heap", "used %s KB more heap than over plain MQTT" % tls))
    start_cpu, up = one(r"used a median \*\*([\d.]+) s\*\* of CPU.*? were up ([\d.]+) s after", second)
    out += [("start CPU", "%s s of CPU to start" % start_cpu),
            ("all up", "up %s s after the first launch" % up)]
    for kind, words in (("clock", "clock"), ("fusebox", "fuse box"), ("football", "football box")):
        pct, = one(r"%s ([\d.]+) %%" % kind, second)
        out.append(("idle %s" % kind, "%s %% (%s)" % (pct, words)))
    runs = [float(x) for x in re.findall(r"([\d.]+) s \(view CPU", second)]
    assert len(runs) == 6, runs
    out.append(("view, props running", "in %.2f-%.2f s in" % (min(runs[:3]), max(runs[:3]))))
    out.append(("view, props paused", "(SIGSTOP) %.2f-%.2f s" % (min(runs[3:]), max(runs[3:]))))
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_venue_docs_quote_the_bench_report():
    wrong = [(what, words) for what, words in figures() if flat(words) not in flat(MEASURED)]
    assert wrong == [], "docs/venue.md's Measured does not say: %s" % wrong


def test_the_heap_docs_quote_the_bench_reports_tls_figure():
    tls, = one(r"TLS costs \*\*([\d.]+) KB\*\*", section("Venue mode, round two"))
    assert "used %s KB more than over plain MQTT" % tls in flat(HEAP)
