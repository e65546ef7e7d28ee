"""Small things a newcomer reads as faults.

Before: a task deck given to `play pimaldaumen --deck` listed 14 unknown columns; the fuse
box's README said the box reports `mode pack (N cards)` (it says `card pack loaded: N cards`);
build-clock.md step 7's second `monitor` never ends and the guide did not say Ctrl-C.
"""
import os
import subprocess
import sys
from pathlib import Path

from propctl.describe import describe_event

ROOT = Path(__file__).resolve().parents[2]
PROPCTL = [sys.executable, "-m", "propctl.cli"]


def test_a_task_deck_given_to_pi_mal_daumen_is_named_as_one():
    deck = ROOT / "host_tools/propctl/data/decks/taskcards.en.csv"
    done = subprocess.run(PROPCTL + ["play", "pimaldaumen", "--players", "A,B", "--deck", str(deck)],
                          input="", capture_output=True, text=True, timeout=60, env=dict(os.environ, CI="1"))
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0
    assert "is a task deck (Finger weg! cards for the fuse box), not Pi mal Daumen question cards" in out, out
    assert "unknown column" not in out


def test_the_fuse_box_readme_quotes_what_the_box_says_at_boot():
    said = describe_event("fusebox", "mode", {"mode": "pack", "cards": 7})
    assert said == "card pack loaded: 7 cards"
    readme = " ".join((ROOT / "hardware/fusebox/README.md").read_text().split())
    assert "`card pack loaded: N cards`" in readme and "mode pack (N cards)" not in readme


def test_build_clock_says_how_the_second_monitor_ends():
    guide = " ".join((ROOT / "docs/build-clock.md").read_text().split())
    step7 = guide[guide.index("## 7. The first round"):guide.index("## When something is wrong")]
    assert "--until chime" in step7 and "Ctrl-C ends it" in step7
