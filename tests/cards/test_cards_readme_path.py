"""The README's own-cards path ends by printing the family's own deck."""
import re
import shlex
import shutil
from pathlib import Path

import pytest

from propctl.cli import main

ROOT = Path(__file__).resolve().parents[2]
pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements-dev.txt) reads the printed PDF")


def own_cards_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use your own cards", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line.split("#", 1)[0]) for line in block.splitlines() if line.strip()]


def test_the_readme_path_prints_the_familys_deck(tmp_path, monkeypatch, capsys):
    commands = own_cards_commands()
    assert commands[0][0] == "cp" and commands[-1][:3] == ["propctl", "cards", "print"]
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / commands[0][1], tmp_path / commands[0][2])
    deck = tmp_path / commands[0][2]
    # The family edits its copy: a text of its own, which the shipped deck does not have.
    text = deck.read_text(encoding="utf-8")
    mark = "Keep your fingers off Grandma Rosi's favourite"
    deck.write_text(text.replace("Keep your fingers off", mark, 1), encoding="utf-8")
    for argv in commands[1:]:
        assert argv[0] == "propctl"
        assert main(argv[1:]) == 0, argv
    capsys.readouterr()
    pdf = tmp_path / commands[-1][commands[-1].index("-o") + 1]
    pages = pypdf.PdfReader(str(pdf)).pages
    words = " ".join(" ".join(page.extract_text().split()) for page in pages[:2])
    assert "Grandma Rosi" in words
