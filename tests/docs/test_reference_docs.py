"""docs/reference/ says what the code says: each page is regenerated from the code and compared.

settings.md from settings.specs(), link.md from the command tables the firmware
builds (on the virtual board under MicroPython), pins.md from the boards module's profiles.
The sentences (propctl/reference/texts.py) must cover every setting and
command, and name none that does not exist.
"""
import re
import sys

import pytest

from propctl.build import FIRMWARE_DIR, REPO_ROOT
from propctl.reference import generate
from propctl.reference.texts import all_commands

sys.path.insert(0, str(FIRMWARE_DIR / "lib"))
import boardprofiles  # noqa: E402  (the firmware's own modules, as on a board)
import settings  # noqa: E402


def schema_keys() -> set:
    keys = set()
    for name, spec in settings.specs().items():
        if isinstance(spec, dict):
            keys.update("%s.%s" % (name, sub) for sub in spec)
        else:
            keys.add(name)
    return keys


@pytest.fixture(scope="module")
def tables():
    return generate.link_tables()


def test_every_reference_page_is_what_the_code_gives_now(tables):
    fresh = {"settings.md": generate.settings_page(), "link.md": generate.link_page(tables),
             "pins.md": generate.pins_page()}
    for name, text in fresh.items():
        path = REPO_ROOT / "docs" / "reference" / name
        assert path.exists(), "%s is missing: run `make docs`" % path
        assert path.read_text(encoding="utf-8") == text, "%s is stale: run `make docs`" % path


def test_every_setting_has_a_sentence_and_no_sentence_names_a_setting_that_does_not_exist():
    sentences = generate.setting_descriptions()
    assert sorted(schema_keys() - set(sentences)) == [], "settings without a `#:` comment"
    assert sorted(set(sentences) - schema_keys()) == [], "sentences for settings that do not exist"


def test_a_sentence_is_the_comment_right_above_its_key_in_its_section(tmp_path):
    source = tmp_path / "specs.py"
    source.write_text('def f():\n    return {\n        #: one\n        #: two\n        "a": (1,),\n'
                      '        # not a sentence\n        "b": (2,),\n        "s": {\n'
                      '            #: inner\n            "c": (3,),\n        },\n'
                      '        #: after the section\n        "d": (4,),\n    }\n')
    assert generate.comment_descriptions(source, "p.") == {
        "p.a": "one two", "p.s.c": "inner", "p.d": "after the section"}


def test_every_link_command_has_a_sentence_and_none_names_a_missing_command(tables):
    COMMANDS = all_commands()  # the common groups' sentences and each prop's (its reference.py)
    assert set(tables) == set(COMMANDS), "command groups: %s" % sorted(tables)
    for group, commands in tables.items():
        assert sorted(set(commands) - set(COMMANDS[group])) == [], "%s: commands without a sentence" % group
        assert sorted(set(COMMANDS[group]) - set(commands)) == [], "%s: sentences for no command" % group


def test_the_pages_carry_the_codes_facts(tables):
    page = generate.settings_page()
    assert "| `clock.ramp_ms` | whole number | a whole number 1..5000 | `120` |" in page
    assert "| `net.password` | password |" in page
    link = generate.link_page(tables)
    assert "| `start_round` | `seed` (seed, optional) |" in link and "`report_choices`" in link
    assert "`selftest_done`" in link  # sent by the firmware, described by nobody: listed all the same
    pins = generate.pins_page()
    assert "| `button` | GP14 (pin 19) | GPIO 25 (pin J1-9) | GPIO 4 (pin J1-4) |" in pins


def test_check_mode_names_a_stale_page_and_fails(tmp_path, capsys):
    assert generate.main(["--out", str(tmp_path)]) == 0  # writes all three
    assert generate.main(["--check", "--out", str(tmp_path)]) == 0
    page = tmp_path / "pins.md"
    page.write_text(page.read_text().replace("GP14 (pin 19)", "GP13 (pin 17)"))
    capsys.readouterr()
    assert generate.main(["--check", "--out", str(tmp_path)]) == 1
    assert "pins.md" in capsys.readouterr().out


def test_the_build_guides_pico_tables_say_what_boards_py_says():
    seen = 0
    for prop in ("clock", "fusebox", "football"):
        text = (REPO_ROOT / "docs" / ("build-%s.md" % prop)).read_text(encoding="utf-8")
        for signal, cell in re.findall(r"^\| `(\w+)` \| (GP\d+(?: \(pin \d+\))?) \|", text, re.M):
            gpio = boardprofiles.board_profile("pico")[prop][signal]
            assert cell == generate.pin_cell(boardprofiles, "pico", gpio), (prop, signal)
            seen += 1
    assert seen >= 25
