"""Every setting a board's config.json can hold is in the README table of its prop
(the venue mode's `net` section: in docs/venue.md, its own guide).

The keys come from the settings module's public data (settings.DEFAULTS), so a new
setting without a README row fails here.
"""
import re
import sys

from propctl.build import FIRMWARE_DIR, REPO_ROOT

sys.path.insert(0, str(FIRMWARE_DIR / "lib"))
import settings  # noqa: E402  (the firmware's own module, as on a board)

# README section that holds each prop's settings table; top-level keys live in the clock's.
SECTIONS = {"clock": "## The ghost clock", "fusebox": "## The fuse box",
            "football": "## The Finger Football box", "net": "## Settings"}
# sections documented outside the README
FILES = {"net": "docs/venue.md"}
TOP_LEVEL_SECTION = "clock"


def setting_keys() -> dict:
    """prop -> the dotted keys config.json may set for it (from settings.DEFAULTS)."""
    keys = {prop: set() for prop in SECTIONS}
    for name, value in settings.DEFAULTS.items():
        if isinstance(value, dict):
            keys[name].update("%s.%s" % (name, sub) for sub in value)
        else:
            keys[TOP_LEVEL_SECTION].add(name)
    return keys


def documented_keys(heading: str, file: str = "README.md") -> set:
    """Backticked keys in the first column of the tables under `heading` (up to the next ## heading)."""
    text = (REPO_ROOT / file).read_text()
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else len(text)]
    found = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            found.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return found


def test_every_settings_key_is_in_the_readme_table_of_its_prop():
    for prop, keys in setting_keys().items():
        file = FILES.get(prop, "README.md")
        missing = sorted(keys - documented_keys(SECTIONS[prop], file))
        assert not missing, "%s %r lacks rows for %s" % (file, SECTIONS[prop], missing)


def test_the_tables_name_no_setting_that_does_not_exist():
    for prop, keys in setting_keys().items():
        # a dotted name in the first column is a setting: it must exist
        file = FILES.get(prop, "README.md")
        unknown = sorted(key for key in documented_keys(SECTIONS[prop], file) - keys if "." in key)
        assert not unknown, "%s %r documents unknown settings %s" % (file, SECTIONS[prop], unknown)
