"""`bench/run.py --only NAME` replaces its sections in bench/REPORT.md and keeps the others.

Before, a run with --only wrote a report of its own sections alone: bench/REPORT.md on main
held the CLI section and nothing else after one `--only cli`.
"""
import importlib.util
from pathlib import Path

MODULE = Path(__file__).resolve().parents[2] / "bench" / "report_merge.py"


def load():
    spec = importlib.util.spec_from_file_location("report_merge", MODULE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OLD = """# Benchmark report

Machine: old.

## 1. Card fetch

fetch 1.0 ms

## CLI start-up

--help 79 ms

## Venue mode (MQTT)

listed in 3.86 s

### a subsection

kept with its section
"""


def test_the_sections_measured_replace_their_namesakes_and_the_others_stay():
    merged = load().merged(OLD, "# Benchmark report\n\nMachine: new.\n",
                           ["## Venue mode (MQTT)\n\nlisted in 0.6 s\n\n### Where\n\nphases",
                            "## Venue mode, round two\n\n50 props"])
    assert merged.startswith("# Benchmark report\n\nMachine: new.\n\n## 1. Card fetch\n\nfetch 1.0 ms")
    assert "--help 79 ms" in merged
    assert "listed in 0.6 s" in merged and "3.86" not in merged and "a subsection" not in merged
    assert "### Where\n\nphases" in merged and "## Venue mode, round two\n\n50 props" in merged
    assert merged.count("## Venue mode (MQTT)") == 1
    assert "Machine: old" not in merged
    order = [line for line in merged.splitlines() if line.startswith("## ")]
    assert order == ["## 1. Card fetch", "## CLI start-up", "## Venue mode (MQTT)",
                     "## Venue mode, round two"]
