"""Hostile input to `propctl cards`: a clear answer, never a traceback."""
import json
import os
import signal
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from test_cards_cli import GOOD_ROW, HEADER, SAMPLE

from propctl import atomic
from propctl.cards import container, deckfile, load, questions, taskcards
from propctl.cards.container import build_pack
from propctl.cli import main
from propctl.shared.cardpack.question import Question, QuestionCard
from propctl.shared.cardpack.taskcard import TaskCard

ROOT = Path(__file__).resolve().parents[2]
PROPCTL = [str(Path(sys.executable).with_name("propctl"))]
SAMPLE_QUESTIONS = ROOT / "host_tools/propctl/data/decks/questions.en.json"
STATEMENTS = ["a", "b", "c", "d", "e", "f", "g", "h"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def task_json(text):
    """A task-card JSON deck whose second card's text is `text` (written as JSON escapes)."""
    cards = [{"id": "T-1", "category": "science", "text": "fine", "statements": STATEMENTS, "bolt": 1},
             {"id": "T-2", "category": "science", "text": text, "statements": STATEMENTS, "bolt": 2}]
    return json.dumps({"kind": "taskcards", "cards": cards}, indent=1)


def errors(out):
    """The errors of `cards check` output (house-rule warnings left out: these decks have no notes)."""
    return [line for line in out.strip().splitlines() if ": warning: " not in line]


def assert_one_problem_at_card_two(out, path, field):
    lines = errors(out)
    assert len(lines) == 1, lines
    line = _line_of_second_card(path)
    assert lines[0].startswith("%s:%d: card T-2, %s:" % (path, line, field)), lines[0]
    assert lines[0].isprintable()


def _line_of_second_card(path):
    text = Path(path).read_text(encoding="utf-8")
    return text[:text.index('"T-2"')].count("\n")  # the "{" of the card is on the line before


# -- 11: a lone surrogate escape ------------------------------------------------

def test_a_lone_surrogate_in_a_task_deck_is_a_file_line_problem(tmp_path, capsys):
    path = tmp_path / "surrogate.json"
    path.write_text(task_json("t\udc00"), encoding="utf-8")  # json.dumps writes the escape
    assert "\\udc00" in path.read_text(encoding="utf-8")
    for action in (["check"], ["pack", "-o", str(tmp_path / "out.bin")]):
        code, out, err = run(capsys, "cards", *action, str(path))
        assert code == 1 and "Traceback" not in err
        assert_one_problem_at_card_two(out, path, "text")
        assert "surrogate" in out
    assert not (tmp_path / "out.bin").exists()


def test_a_lone_surrogate_in_a_question_deck_is_a_file_line_problem(tmp_path, capsys):
    deck = json.loads(SAMPLE_QUESTIONS.read_text(encoding="utf-8"))
    deck["cards"][1]["violet"]["green"]["source"] = "Atlas \udc00"
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(deck, indent=1), encoding="utf-8")  # ensure_ascii writes the escape
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1
    card_id = deck["cards"][1]["id"]
    assert out.startswith("%s:" % path) and "card %s, violet.green.source:" % card_id in out
    assert len(out.strip().splitlines()) == 1


# -- 15: control characters -----------------------------------------------------

@pytest.mark.parametrize("text, name", [("t\x1b]0;owned\x07", "ESC"), ("t\x1b[2J", "ESC"),
                                        ("a\tb", "TAB"), ("ding\x07", "BEL"), ("x\x9bq", "U+009B"),
                                        ("del\x7f", "U+007F"),
                                        # a bidi override turns the rest of a shown line around
                                        # (accepted before)
                                        ("the \u202eevil\u202c one", "U+202E"),
                                        ("a\u2067b", "U+2067")])
def test_control_characters_in_a_json_deck_are_file_line_problems(tmp_path, capsys, text, name):
    path = tmp_path / "control.json"
    path.write_text(task_json(text), encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1
    assert_one_problem_at_card_two(out, path, "text")
    assert name in out and "control character" in out


def test_control_characters_in_a_csv_deck_are_file_line_problems(tmp_path, capsys):
    path = tmp_path / "control.csv"
    row = "T-2,science,Which\tones?,a,b,c,d,e,f,g,h\x1b[31m,1,\n"
    path.write_text(HEADER + GOOD_ROW + row, encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1
    assert errors(out)[0].startswith("%s:3: card T-2, text: contains the control character TAB (U+0009)"
                                     % path), out
    assert "\t" not in out and "\x1b" not in out


def test_show_never_prints_raw_control_characters(tmp_path, capsys):
    # A pack written by something else (or an older propctl) may hold them.
    card = TaskCard("C-1", "sci\x07ence", "clear\x1b[2J\x07?", ["s\t%d" % i for i in range(8)], 3)
    path = tmp_path / "control.bin"
    path.write_bytes(build_pack(taskcards.CODE, taskcards.VERSION, [taskcards.encode(card)]))
    for argv in ([], ["C-1"], ["--json"], ["C-1", "--json"]):
        code, out, _ = run(capsys, "cards", "show", str(path), *argv)
        assert code == 0
        assert not any(ch in out for ch in "\x1b\x07\t"), repr(out)
        assert "\\u001b" in out
        assert "\\u0009" in out or "\\t" in out or not argv  # a list shows no statements
    assert json.loads(run(capsys, "cards", "show", str(path), "C-1", "--json")[1])["text"] == card.text


# -- 12: every limit of a pack, and memory ------------------------------------

def test_check_reports_the_card_count_limit_that_pack_enforces(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(container, "MAX_RECORDS", 2)
    path = tmp_path / "three.csv"
    path.write_text(HEADER + "".join(GOOD_ROW.replace("T-1", "T-%d" % i) for i in range(3)), encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1 and "has 3 cards; allowed: at most 2 in one pack" in out
    code, out, err = run(capsys, "cards", "pack", str(path), "-o", str(tmp_path / "three.bin"))
    assert code == 1 and "at most 2" in out and "nothing written" in err
    assert not (tmp_path / "three.bin").exists()


def test_check_reports_a_card_too_large_for_a_pack_at_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(container, "MAX_RECORD_SIZE", 80)  # GOOD_ROW packs into 71 bytes
    path = tmp_path / "long.csv"
    long_row = "T-2,science,%s,a,b,c,d,e,f,g,h,1,\n" % ("Which one is the longest? " * 3)
    path.write_text(HEADER + GOOD_ROW + long_row, encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1
    assert errors(out)[0].startswith("%s:3: card T-2, packs into" % path)
    assert "at most 80 bytes per card" in out
    assert len(errors(out)) == 1


def test_cards_kept_as_records_keep_what_the_pack_leaves_out(tmp_path):
    # Sources and as-of dates are not packed, yet the content checks read them from deck.cards.
    path = tmp_path / "two.csv"
    undated = GOOD_ROW.replace("T-1", "T-2").replace(",arithmetic,2025", ",,")
    path.write_text(HEADER + GOOD_ROW + undated, encoding="utf-8")
    deck = load.load_deck([path])
    assert not deck.problems, deck.problems
    assert [(c.source, c.as_of) for c in deck.cards] == [("arithmetic", "2025"), ("", "")]
    assert deck.records == [taskcards.encode(c) for c in deck.cards]
    shipped = load.load_deck([SAMPLE_QUESTIONS])
    first = json.loads(SAMPLE_QUESTIONS.read_text(encoding="utf-8"))["cards"][0]
    assert shipped.cards[0].question("violet", "salmon").as_of == first["violet"]["salmon"]["as_of"]


def test_loading_a_deck_holds_a_few_times_its_size_not_one_dict_per_row(tmp_path):
    rows = "".join("B-%d,science,Which of these numbers are even?,2,4,6,8,10,12,14,15,8,a book\n" % i
                   for i in range(20000))
    path = tmp_path / "big.csv"
    path.write_text(HEADER + rows, encoding="utf-8")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        deck = load.load_deck([path])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not deck.problems and len(deck.records) == 20000
    # The file as bytes and as text, the parsed rows of one moment, one record per card.
    assert peak < 6 * size, "peak %.1f MB for a %.1f MB deck" % (peak / 1e6, size / 1e6)


# -- 13: pipes, devices, directories; the read itself is bounded -------------------

def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "deck.csv"
    os.mkfifo(fifo)
    result = subprocess.run(PROPCTL + ["cards", "check", str(fifo)], capture_output=True, text=True,
                            timeout=60, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.strip() == "%s: is a pipe (FIFO), not a regular file" % fifo


@pytest.mark.parametrize("special, what", [("/dev/zero", "a device"), ("/dev/null", "a device"),
                                           (".", "a directory")])
def test_devices_and_directories_are_refused(tmp_path, capsys, special, what):
    for action in (["check"], ["pack", "-o", str(tmp_path / "out.bin")]):
        code, out, err = run(capsys, "cards", *action, special)
        assert code == 1 and out.strip() == "%s: is %s, not a regular file" % (special, what)
    code, _, err = run(capsys, "cards", "show", special)
    assert code == 1 and err.strip() == "%s: is %s, not a regular file" % (special, what)
    assert not (tmp_path / "out.bin").exists()


@pytest.mark.parametrize("make, what", [(os.mkfifo, "a pipe (FIFO)"), (os.mkdir, "a directory")])
def test_a_pack_is_never_renamed_over_a_fifo_or_a_directory(tmp_path, capsys, make, what):
    # The rename of an atomic write replaces whatever the name holds: run as root,
    # `-o /dev/null` used to put a regular file in place of the device.
    target = tmp_path / "out.bin"
    make(target)
    code, out, err = run(capsys, "cards", "pack", str(SAMPLE), "-o", str(target))
    assert code == 1 and out == ""
    assert err.strip() == "cannot write %s: is %s, not a regular file; nothing written" % (target, what)
    assert not target.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_the_read_is_bounded_even_when_the_size_lies(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(deckfile, "MAX_FILE_BYTES", 100)  # where the reader looks it up
    monkeypatch.setattr(os.path, "getsize", lambda path: 0)  # what /dev/zero reports
    path = tmp_path / "deck.csv"
    path.write_text(HEADER + GOOD_ROW * 3, encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", str(path))
    assert code == 1
    assert out.strip() == "%s: is larger than 100 bytes; split the deck into several files" % path


# -- 14: kill -9 while writing ----------------------------------------------

WRITER = """
import sys, time
from propctl.atomic import write_atomic
def pieces():
    yield b"new content, part one"
    print("writing", flush=True)
    time.sleep(60)
    yield b"never"
write_atomic(sys.argv[1], pieces())
"""


def test_kill_9_while_writing_keeps_the_target_and_the_next_write_removes_the_temp_file(tmp_path, capsys):
    target = tmp_path / "deck.bin"
    target.write_bytes(b"old pack")
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
        child.stdout.close()
    assert target.read_bytes() == b"old pack"
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "deck.bin")
    assert len(left) == 1 and left[0].startswith("deck.bin.propctl-%d-" % child.pid)
    assert left[0].endswith(".tmp")
    code, _, _ = run(capsys, "cards", "pack", str(SAMPLE), "-o", str(target), "-q")
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.bin"]
    assert target.read_bytes()[:4] == b"CPAK"


def test_only_temp_files_of_dead_writers_are_removed(tmp_path):
    target = tmp_path / "game.json"
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    dead = int(finished.stdout)
    stale = Path(atomic.temp_name(target, dead, "ab12cd"))
    ours = Path(atomic.temp_name(target, os.getpid(), "ef34ab"))
    alive = Path(atomic.temp_name(target, os.getppid(), "0a0b0c"))
    other = tmp_path / ("other.json.propctl-%d-ab12cd.tmp" % dead)
    legacy_old, legacy_new = tmp_path / ".game.json.k3j9x_2a.tmp", tmp_path / ".game.json.zz9x8y7w.tmp"
    for path in (stale, ours, alive, other, legacy_old, legacy_new):
        path.write_bytes(b"half")
    os.utime(legacy_old, (1, 1))
    assert sorted(atomic.remove_stale_temps(target)) == sorted([stale.name, legacy_old.name])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [ours.name, alive.name, other.name, legacy_new.name])


# -- 16: the umask --------------------------------------------------------------

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_packs_and_saves_honour_the_umask(tmp_path, capsys, umask, mode):
    old = os.umask(umask)
    try:
        assert run(capsys, "cards", "pack", str(SAMPLE), "-o", str(tmp_path / "deck.bin"), "-q")[0] == 0
        atomic.write_atomic(tmp_path / "save.json", b"{}")  # what both game masters save with
    finally:
        os.umask(old)
    assert (tmp_path / "deck.bin").stat().st_mode & 0o777 == mode
    assert (tmp_path / "save.json").stat().st_mode & 0o777 == mode


# -- 19: valid checksums, unscoreable question --------------------------------------

def unscoreable_pack(tmp_path):
    good = questions.decode(questions.encode(_a_question_card()))
    bad_question = Question("How far?", "km", ["20", 6, "10"], "15", "Atlas")  # decreasing scale
    card = QuestionCard("PMD-BAD", (bad_question,) + good.questions[1:])
    path = tmp_path / "bad.bin"
    records = [questions.encode(good), questions.encode(card)]
    path.write_bytes(build_pack(questions.CODE, questions.VERSION, records))
    return path


def _a_question_card():
    deck = load.load_deck([SAMPLE_QUESTIONS])
    assert not deck.problems
    return deck.cards[0]


def test_show_refuses_a_pack_whose_question_cannot_be_scored(tmp_path, capsys):
    path = unscoreable_pack(tmp_path)
    code, out, err = run(capsys, "cards", "show", str(path))
    assert code == 1 and not out
    assert err.startswith("%s: question card record holds a question that cannot be scored" % path)


def test_play_refuses_a_pack_whose_question_cannot_be_scored(tmp_path):
    path = unscoreable_pack(tmp_path)
    result = subprocess.run(PROPCTL + ["play", "pimaldaumen", "--players", "Ann,Bo", "--deck", str(path),
                                       "--save", str(tmp_path / "game.json")],
                            input="", capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    # the game master wraps its messages at 80 columns (a long path too): compare without white space
    said = "".join((result.stdout + result.stderr).split())
    expected = "deck %s: question card record holds a question that cannot be scored" % path
    assert "".join(expected.split()) in said
    assert not (tmp_path / "game.json").exists()


# -- 20 (cards part): a reader that stops early ---------------------------------

def test_show_into_head_gives_no_broken_pipe_traceback(tmp_path, capsys):
    rows = "".join("B-%d,science,Which are even?,2,4,6,8,10,12,14,15,8,\n" % i for i in range(3000))
    deck = tmp_path / "big.csv"
    deck.write_text(HEADER + rows, encoding="utf-8")
    # 3000 alike cards are no deck to play (the content checks refuse them); here they are input.
    loaded = load.load_deck([deck])
    assert not loaded.problems
    (tmp_path / "big.bin").write_bytes(build_pack(taskcards.CODE, taskcards.VERSION, loaded.records))
    shown = subprocess.Popen(PROPCTL + ["cards", "show", str(tmp_path / "big.bin")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errors = []
    reader = threading.Thread(target=lambda: errors.append(shown.stderr.read()))
    reader.start()
    assert shown.stdout.readline().startswith(b"B-0")
    shown.stdout.close()  # what `head -1` does
    code = shown.wait(timeout=60)
    reader.join()
    assert errors == [b""] and code == 0
