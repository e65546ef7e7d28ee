"""Every tone each prop plays lies in a piezo's loud band, and the sound table in
hardware/README.md says each sound's frequencies as the firmware has them.

The band and the melodies are read from the firmware (tests/firmware_sounds.py):
drivers.chime.PIEZO_LOW_HZ..PIEZO_HIGH_HZ, each prop's SOUNDS table, and every
call that hands the piezo a melody must name one of its prop's sounds, so no tone
can bypass the table.
"""
import re
from pathlib import Path

import firmware_sounds as fs

ROOT = Path(__file__).resolve().parents[2]


def tones(melody):
    return [melody[i] for i in range(0, len(melody), 2) if melody[i]]


def test_the_band_is_the_piezo_datasheets_2_to_5_khz():
    assert fs.band() == (2000, 5000)


def test_every_sound_of_every_prop_lies_in_the_piezo_band():
    low, high = fs.band()
    sounds = fs.prop_sounds()
    assert set(sounds) == {"clock", "fusebox", "football"}
    for prop, table in sounds.items():
        assert table, prop
        for name, melody in table:
            assert len(melody) % 2 == 0 and all(ms > 0 for ms in melody[1::2]), (prop, name)
            for hz in tones(melody):
                assert low <= hz <= high, "%s's %s plays %d Hz, outside the piezo's %d-%d Hz" % (
                    prop, name, hz, low, high)


def test_every_melody_the_props_play_is_in_their_sound_table():
    sounds = fs.prop_sounds()
    chime = fs.tuples("drivers/chime.py")
    calls = fs.chime_calls()
    # a prop's default melody: what its piezo(...) is built with, else PiezoChime's default, BELL
    defaults = {prop: "BELL" for prop in sounds}
    for _, _, prop, arg, kind in calls:
        if kind == "piezo" and arg:
            defaults[prop] = arg
    played = 0
    for rel, line, prop, arg, kind in calls:
        if kind == "piezo" and not arg:
            continue  # built with the default melody: played only by a start() without one
        name = arg or defaults[prop]
        names = fs.tuples(TABLE_FILES[prop])
        names.update(chime)
        assert name in names, "%s:%d plays %s, which is no sound of the firmware's" % (rel, line, name)
        assert names[name] in [m for _, m in sounds[prop]], \
            "%s:%d plays %s, not in %s's SOUNDS" % (rel, line, name, prop)
        played += 1
    assert played >= 8, calls  # the clock's bell and alarm, the box's three, the football's four


TABLE_FILES = {prop: rel for prop, (rel, _) in fs.TABLES.items()}


def readme_sound_rows():
    """{(prop, sound): [Hz, ...]} from the sound table in hardware/README.md."""
    text = (ROOT / "hardware" / "README.md").read_text()
    section = text.split("## Sounds", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not re.fullmatch(r"[a-z]+", cells[1] or "-"):
            continue
        if cells[0] in ("clock", "fuse box", "football"):
            hz = cells[2].split("(")[0]  # the tones; what follows in brackets describes them
            prop = cells[0].replace("fuse box", "fusebox")
            rows[(prop, cells[1])] = [int(x) for x in re.findall(r"\d+", hz)]
    return rows


def test_the_sound_table_in_the_docs_has_each_sound_with_the_firmware_s_frequencies():
    rows = readme_sound_rows()
    want = {}
    for prop, table in fs.prop_sounds().items():
        for name, melody in table:
            seen = []
            for hz in tones(melody):
                if hz not in seen:
                    seen.append(hz)
            want[(prop, name)] = seen
    assert rows == want
