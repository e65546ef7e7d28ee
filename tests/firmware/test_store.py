"""Atomic game-state persistence: power cuts at every point of a save, on both interpreters."""
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from micropython_harness import FIRMWARE_LIB, find_micropython, micropython_env

sys.path.insert(0, str(FIRMWARE_LIB))  # board-only modules, as the board imports them

from store import Store, decode, encode  # noqa: E402

game_state = st.fixed_dictionaries({
    "round": st.integers(0, 50),
    "banked": st.lists(st.integers(0, 3), min_size=2, max_size=4),
    "card": st.one_of(st.none(), st.integers(0, 200)),
    # ASCII: CPython's json escapes other text, MicroPython's writes UTF-8, so
    # the files (and where a torn write cuts them) would differ in length
    "names": st.lists(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=8),
                      max_size=3),
})


def test_save_then_load_round_trips(tmp_path):
    box = Store(str(tmp_path / "state.json"))
    assert box.load() is None
    assert box.load(default={"round": 0}) == {"round": 0}
    box.save({"round": 1, "banked": [0, 1]})
    box.save({"round": 2, "banked": [1, 1]})
    assert Store(str(tmp_path / "state.json")).load() == {"round": 2, "banked": [1, 1]}
    assert not (tmp_path / "state.json.tmp").exists()
    box.clear()
    assert box.load() is None


def test_damaged_files_are_never_loaded(tmp_path):
    data = encode({"round": 4})
    for broken in (data[:-3], data[:5], b"", data.replace(b"4", b"5"), b"\xff" * 20):
        assert decode(broken) is None
    assert decode(data) == {"round": 4}
    path = tmp_path / "state.json"
    path.write_bytes(data.replace(b"4", b"5"))
    assert Store(str(path)).load() is None


@pytest.mark.parametrize("fat", [False, True], ids=["littlefs", "fat"])
def test_a_power_cut_at_every_operation_leaves_old_or_new(differential, fat):
    states = [{"round": 1, "banked": [0, 0]}, {"round": 2, "banked": [1, 0], "card": 17},
              {"round": 3, "banked": [1, 1], "card": None}]
    report = differential.both("scenario_link_store:power_cuts", states, 5, fat)
    for outcomes in report:
        assert set(outcomes) <= {"old", "new"}, outcomes
        assert outcomes[-1] == "new"   # the power held: the save landed
        assert outcomes[0] == "old"    # cut before anything reached the flash
    assert len(report) == 3


@settings(max_examples=25)
@given(states=st.lists(game_state, min_size=1, max_size=3), seed=st.integers(1, 10**6), fat=st.booleans())
def test_power_cuts_with_any_states(differential, states, seed, fat):
    report = differential.both("scenario_link_store:power_cuts", states, seed, fat)
    for outcomes in report:
        assert set(outcomes) <= {"old", "new"}, outcomes


SAVE_LOOP = """
import sys
from store import Store
box = Store("state.json")
state = box.load()
print("loaded", -1 if state is None else state["n"])
n = 0 if state is None else state["n"]
pad = "x" * 3000
while True:
    n += 1
    print("saving", n)
    box.save({"n": n, "pad": pad})
    print("saved", n)
"""


def _last_numbers(lines):
    saving = saved = None
    for line in lines:
        word, _, number = line.strip().partition(" ")
        if not number.isdigit():
            continue  # the line the kill cut short
        if word == "saving":
            saving = int(number)
        elif word == "saved":
            saved = int(number)
    return saving, saved


def test_killing_the_board_process_during_saves(tmp_path):
    """SIGKILL the MicroPython process at random moments while it saves in a loop.

    After every restart the loaded state must be the last save the process
    reported finished, or the one it had started: never older, never broken.
    """
    (tmp_path / "loop.py").write_text(SAVE_LOOP)
    rng = random.Random(7)
    micropython = find_micropython()
    allowed = {-1}
    restarts = 0
    for _ in range(25):
        proc = subprocess.Popen([micropython, "loop.py"], cwd=str(tmp_path), env=micropython_env(),
                                stdout=subprocess.PIPE, text=True, start_new_session=True)
        try:
            seen = []
            first = proc.stdout.readline()
            assert first.startswith("loaded"), first
            value = int(first.split()[1])
            assert value in allowed, (value, allowed)
            restarts += 1
            # let it save a random number of times, then cut the power mid-loop
            for _ in range(rng.randint(1, 30)):
                seen.append(proc.stdout.readline())
            time.sleep(rng.random() * 0.003)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            rest = proc.stdout.read().splitlines()
            proc.wait()
        saving, saved = _last_numbers(seen + rest)
        assert saving is not None and saved is not None
        allowed = {saved, saving}
    final = Store(str(tmp_path / "state.json")).load()
    assert final["n"] in allowed
    assert final["pad"] == "x" * 3000
    assert restarts == 25


def test_the_checksum_is_fnv_1a_32():
    # published FNV-1a 32-bit values: the files saved before stay readable
    from store import checksum
    assert checksum(b"") == 0x811C9DC5
    assert checksum(b"a") == 0xE40C292C
    assert checksum(b"foobar") == 0xBF9CF968


def test_the_checksum_makes_no_garbage_per_byte_on_either_port(each_micropython_process):
    # On 31-bit small ints (wasm32, a board) a 32-bit value times the FNV prime was a big int
    # on every byte: about 11 KB of garbage for each save of the fuse box's game.
    value, spent = each_micropython_process.call("scenario_link_store:checksum_garbage", 2000)
    expected = 0x811C9DC5
    for byte in bytes(i * 7 & 0xFF for i in range(2000)):
        expected = ((expected ^ byte) * 0x01000193) & 0xFFFFFFFF
    assert value == expected
    assert spent <= 64, spent  # at most the final 32-bit value as one big int
