"""The Pi mal Daumen game master, driven by scripted input like a table of players."""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from propctl.cli import main as propctl_main
from propctl.games.pimaldaumen import register, run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DECK = ROOT / "host_tools/propctl/data/decks/questions.en.json"
DINOSAURS = [12, 3, 120, 6, 175, 6, 240, 4, 330, 3, 520, 2, 600]
NAMES = "Peter,Wolfgang,Bärbel,Gaby,Annette"


def question(text="How long did the dinosaurs live on earth?", scale=DINOSAURS, answer=175):
    return {"text": text, "unit": "millions of years", "scale": scale, "answer": answer,
            "source": "Pi mal Daumen rulebook"}


def write_deck(folder, cards=2):
    """A deck whose every question is the dinosaur card, so the shuffle cannot matter."""
    side = {"yellow": question(), "green": question(), "salmon": question()}
    deck = {"kind": "questions",
            "cards": [{"id": "D%d" % i, "white": side, "violet": side} for i in range(cards)]}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck))
    return path


def write_board(folder, size=20, special=None):
    fields = [{"kind": "start"}]
    for i in range(1, size + 1):
        field = {"colour": "green"}
        field.update((special or {}).get(i, {}))
        fields.append(field)
    fields.append({"kind": "goal"})
    path = folder / "board.json"
    path.write_text(json.dumps({"fields": fields}))
    return path


class Table:
    """Answers prompts from a script; KeyboardInterrupt in the script is Ctrl-C; then EOF."""

    def __init__(self, lines) -> None:
        self.lines = list(lines)
        self.prompts = []
        self.said = []

    def ask(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if line is KeyboardInterrupt:
            raise KeyboardInterrupt
        return line

    def say(self, text=""):
        self.said.append(text)

    @property
    def text(self):
        return "\n".join(self.said)


def play(table, *argv):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["pimaldaumen"] + [str(a) for a in argv])
    return run(args, ask=table.ask, say=table.say)


def new_game(tmp_path, table, *extra):
    return play(table, "--players", NAMES, "--deck", write_deck(tmp_path),
                "--board", write_board(tmp_path), "--seed", 1,
                "--save", tmp_path / "save.json", *extra)


def saved(tmp_path):
    return json.loads((tmp_path / "save.json").read_text())


def test_a_pasted_page_of_digits_is_not_echoed_back_whole(tmp_path):
    table = Table(["9" * 5000, "12,345" * 1000, "x" * 5000, "100"])
    assert new_game(tmp_path, table) == 0
    refusals = [line for line in table.said if "please" in line or "not a number" in line]
    assert refusals == [
        "  '9999999999999999999... has too many digits: 5000, at most 30, please",
        "  '12,34512,34512,3451... has too many digits: 5000, at most 30, please",
        "  'xxxxxxxxxxxxxxxxxxx... (5000 characters) is not a number: answer with digits, e.g. 175 or 3.5"]
    assert "Wolfgang says 100" in table.text


def test_the_rulebook_example_round_at_the_table(tmp_path):
    table = Table(["10", "500", "zweihundert", "350", "240"])
    assert new_game(tmp_path, table) == 0
    text = table.text
    assert "Peter asks" in text and "the salmon question is read" in text
    assert "How long did the dinosaurs live on earth? (millions of years)" in text
    assert table.prompts[:4] == ["Wolfgang, your answer: ", "Bärbel, your answer: ",
                                 "Gaby, your answer (beat 3 points): ",
                                 "Gaby, your answer (beat 3 points): "]
    assert "Wolfgang says 10: outside the scale, 0 points." in text
    assert "außerhalb" not in text  # the English game master speaks English
    assert "Bärbel moves forward from field 0 to field 3" in text
    assert "'zweihundert' is not a number" in text
    assert "Gaby says 350: that would be 3 points, but it must beat 3: 0 points." in text
    assert "Annette says 240: 6 points!" in text
    assert "The exact answer: 175 millions of years" in text
    assert "Wolfgang asks" in text
    # Input ended while Bärbel had to answer: the game was saved, nothing lost.
    state = saved(tmp_path)
    assert state["game"]["positions"] == [0, 0, 3, 0, 6]
    assert state["game"]["questioner"] == 1 and state["game"]["phase"] == "guess"


def test_a_saved_game_resumes_mid_question(tmp_path):
    new_game(tmp_path, Table(["10", "500", "350", "240", "300"]))
    table = Table(["200", "quit", "y"])
    assert play(table, "--resume", tmp_path / "save.json") == 0
    text = table.text
    assert "Resuming the game" in text
    assert "The open question was:" in text
    # Bärbel answered 300 before the save; Gaby is next and must beat 4.
    assert table.prompts[0] == "Gaby, your answer (beat 4 points): "
    assert "Gaby says 200: 6 points!" in text
    # Fields 6 (Annette) and 7 (Bärbel) are taken: Gaby goes on to 8.
    assert "Gaby moves forward from field 0 to field 8" in text
    assert saved(tmp_path)["game"]["positions"] == [0, 0, 7, 8, 6]


def test_ctrl_c_asks_to_save(tmp_path):
    table = Table(["10", KeyboardInterrupt, "y"])
    assert new_game(tmp_path, table) == 0
    assert table.prompts[-1] == "Save the game to %s before stopping? [Y/n]: " % (tmp_path / "save.json")
    state = saved(tmp_path)
    assert state["game"]["round"]["answers"] == ["10"]


def test_ctrl_c_without_saving_keeps_the_last_autosave(tmp_path):
    table = Table(["10", "500", KeyboardInterrupt, "n"])
    assert new_game(tmp_path, table) == 0
    assert "Not saved." in table.text
    # Only the autosave from the start of the question is there.
    assert saved(tmp_path)["game"]["round"] is None


def test_commands_at_any_prompt(tmp_path):
    table = Table(["help", "track", "save", "10"])
    new_game(tmp_path, table)
    text = table.text
    assert "commands: help, track" in text
    assert text.count("Track (> start") >= 2
    assert "Saved to" in text
    assert "Wolfgang says 10" in text


def test_a_whole_game_to_the_winner(tmp_path):
    # A short track; whoever answers first always says the exact answer.
    table = Table(["175"] * 10)
    assert play(table, "--players", "Ann,Bo,Cy", "--deck", write_deck(tmp_path),
                "--board", write_board(tmp_path, 10), "--seed", 3,
                "--save", tmp_path / "save.json") == 0
    text = table.text
    # Bo (left of Ann) moves 6, then Cy 6 -> 7 (6 is taken), then Ann 6 -> 8 ...
    assert "Bo moves forward from field 0 to field 6" in text
    assert "Cy moves forward from field 0 to field 7" in text
    assert "Bo reaches the goal!" in text and "Bo wins the game!" in text
    state = saved(tmp_path)
    assert state["game"]["phase"] == "over" and state["game"]["winner"] == 1


def test_bonus_question_and_stopping_on_a_bonus_field(tmp_path):
    board = write_board(tmp_path, 30, {2: {"bonus": True, "colour": "yellow"}})
    # Ann asks. Bo: 240 -> 6 points, crosses the free bonus field 2 and stops
    # there; his 6 still ends the round.
    table = Table(["240", "vielleicht", "y"])
    play(table, "--players", "Ann,Bo,Cy", "--deck", write_deck(tmp_path), "--board", board,
         "--seed", 1, "--save", tmp_path / "save.json")
    text = table.text
    assert "Bo may stop on the free bonus field 2" in text
    assert "please answer y or n" in text
    assert "Bo stops on the bonus field 2." in text
    # Ann and Cy are still on the start, so Bo is not last: no bonus yet.
    assert "Bonus question" not in text
    assert table.prompts[-1] == "Cy, your answer: "


def test_last_player_on_a_bonus_field_gets_the_bonus_question(tmp_path):
    board = write_board(tmp_path, 30, {2: {"bonus": True, "colour": "yellow"}})
    lines = ["12", "y",          # Ann asks. Bo 3 points: crosses field 2, stops there
             "175",              # Cy 6 points -> field 6; round over, Ann is last
             "13", "175",        # Bo asks. Cy 3 points -> 9; Ann 6 points -> 6
             ]                   # now Bo is last, on the bonus field
    table = Table(lines)
    play(table, "--players", "Ann,Bo,Cy", "--deck", write_deck(tmp_path), "--board", board,
         "--seed", 1, "--save", tmp_path / "save.json")
    text = table.text
    assert "Bo stops on the bonus field 2." in text
    assert "Bonus question: Bo is last on the track" in text
    assert "Cy reads a new card, yellow question" in text
    assert table.prompts[-1] == "Bo, your one bonus answer: "


def test_minus_field_is_shown(tmp_path):
    board = write_board(tmp_path, 20, {6: {"minus": -2}})
    # Ann asks: Bo 6 -> field 6 (-2). Bo asks: Cy 3 points, Ann outside.
    table = Table(["175", "12", "10"])
    play(table, "--players", "Ann,Bo,Cy", "--deck", write_deck(tmp_path), "--board", board,
         "--seed", 1, "--save", tmp_path / "save.json")
    text = table.text
    assert "Bo moves forward from field 0 to field 6 (green, minus field -2)" in text
    # Bo, the questioner, gets 6 - 3 = 3 but leads on the -2 field.
    assert "Bo leads on a minus field (-2): 3 - 2 = 1." in text
    assert "Bo moves forward from field 6 to field 7" in text


def test_bad_setups_are_explained(tmp_path):
    table = Table([])
    assert play(table, "--players", "Solo", "--deck", write_deck(tmp_path)) == 2
    assert "2 to 6 players" in table.text
    table = Table([])
    assert play(table, "--players", "Ann,ann", "--deck", write_deck(tmp_path)) == 2
    assert "appears twice" in table.text
    table = Table([])
    assert play(table, "--deck", write_deck(tmp_path)) == 2
    assert "needs --players" in table.text
    broken = tmp_path / "broken.csv"
    broken.write_text("id,white_salmon_scale\nX,1 | 6\n")
    table = Table([])
    assert play(table, "--players", "Ann,Bo", "--deck", broken) == 1
    assert "the deck has" in table.text and "broken.csv:1" in table.text
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{\"format\": \"something else\"}")
    table = Table([])
    assert play(table, "--resume", garbage) == 1
    assert "not a saved Pi mal Daumen game" in table.text


def test_a_packed_deck_plays_the_same(tmp_path):
    pack = tmp_path / "deck.bin"
    # Packed directly: this deck repeats one question on purpose, which `cards pack` refuses.
    from propctl.cards import questions
    from propctl.cards.container import build_pack
    from propctl.cards.load import load_deck
    cards = load_deck([write_deck(tmp_path)]).cards
    pack.write_bytes(build_pack(questions.CODE, questions.VERSION, [questions.encode(c) for c in cards]))
    table = Table(["10", "500"])
    assert play(table, "--players", NAMES, "--deck", pack, "--board", write_board(tmp_path),
                "--seed", 1, "--save", tmp_path / "save.json") == 0
    assert "Bärbel moves forward from field 0 to field 3" in table.text


def test_saving_is_atomic_and_a_failed_save_keeps_the_game(tmp_path, monkeypatch):
    table = Table(["10"])
    new_game(tmp_path, table)
    before = (tmp_path / "save.json").read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    table = Table(["save", "500"])
    play(table, "--resume", tmp_path / "save.json")
    assert "could not save" in table.text and "the game goes on" in table.text
    assert "Bärbel says 500" in table.text
    assert (tmp_path / "save.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.json", "deck.json", "save.json"]


def test_a_failed_last_save_says_the_game_is_not_saved_and_exits_1(tmp_path, monkeypatch):
    table = Table(["10"])
    new_game(tmp_path, table)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    table = Table(["500"])  # then the input ends: the save of the end of input fails
    assert play(table, "--resume", tmp_path / "save.json") == 1
    assert table.said[-1].endswith("No space left on device - the game is NOT saved"), table.said[-1]


def test_a_save_file_in_a_missing_folder_is_refused_before_the_game(tmp_path):
    table = Table(["10"])
    target = tmp_path / "nowhere" / "save.json"
    assert play(table, "--players", NAMES, "--save", target) == 2
    assert table.said == ["error: the game could not be saved to %s: the folder %s does not exist; "
                          "name another file with --save" % (target, tmp_path / "nowhere")]


def test_help_teaches(capsys):
    with pytest.raises(SystemExit):
        propctl_main(["play", "pimaldaumen", "--help"])
    text = capsys.readouterr().out
    for words in ("--players", "clockwise", "--resume", "Ctrl-C", "how a game goes", "stand-in"):
        assert words in text


def test_real_stdin_session(tmp_path):
    deck, board = write_deck(tmp_path), write_board(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "propctl.cli", "play", "pimaldaumen", "--players", "Ann,Bo",
         "--deck", str(deck), "--board", str(board), "--seed", "1"],
        input="oops\n240\n", capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "'oops' is not a number" in result.stdout
    assert "Bo says 240: 6 points!" in result.stdout
    assert json.loads((tmp_path / "pimaldaumen-save.json").read_text())["game"]["positions"] == [0, 6]


def test_sample_deck_plays(tmp_path):
    table = Table(["1"] * 6)
    assert play(table, "--players", "Ann,Bo,Cy", "--deck", SAMPLE_DECK, "--seed", 7,
                "--save", tmp_path / "save.json") == 0
    assert "The exact answer:" in table.text and "source:" in table.text


def propctl_bytes(*argv, stdin=b"", cwd=None, io_errors=None):
    env = dict(os.environ)
    if io_errors:
        env["PYTHONIOENCODING"] = "utf-8:" + io_errors
    return subprocess.run([sys.executable, "-m", "propctl.cli", *argv], input=stdin, capture_output=True,
                          cwd=cwd, timeout=60, env=env)


def test_a_name_that_is_not_utf8_is_refused_and_nothing_crashes(tmp_path):
    deck, board = write_deck(tmp_path), write_board(tmp_path)
    result = propctl_bytes(b"play", b"pimaldaumen", b"--players", b"A\xff,Bo", b"--deck", bytes(deck),
                           b"--board", bytes(board), b"--seed", b"1", stdin=b"240\n", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert b"--players: 'A\xef\xbf\xbd' is not UTF-8 text" in result.stdout
    assert result.stderr == b""
    result = propctl_bytes(b"play", b"fingerfootball", b"--names", b"R\xffd,Blue", b"--seed", b"1",
                           stdin=b"toss\n", cwd=tmp_path)
    assert result.returncode == 2 and b"--names: 'R\xef\xbf\xbdd' is not UTF-8 text" in result.stdout
    assert result.stderr == b"" and not list(tmp_path.glob("*save*"))


@pytest.mark.parametrize("io_errors", ["strict", "surrogateescape"])
def test_a_typed_line_that_is_not_utf8_is_asked_again(tmp_path, io_errors):
    deck, board = write_deck(tmp_path), write_board(tmp_path)
    result = propctl_bytes(b"play", b"pimaldaumen", b"--players", b"Ann,Bo", b"--deck", bytes(deck),
                           b"--board", bytes(board), b"--seed", b"1", stdin=b"\xff\xfe\n240\n", cwd=tmp_path,
                           io_errors=io_errors)
    assert result.returncode == 0, result.stderr
    assert b"not UTF-8 text; please type it again" in result.stdout and result.stderr == b""
    if io_errors == "surrogateescape":
        assert b"Bo says 240" in result.stdout
    # (A strict stdin drops the rest of the buffer it failed to decode: from a pipe, the next line
    # goes with it; at a terminal each line is its own read.)


@pytest.mark.parametrize("game", [["pimaldaumen", "--players", "Ann,Bo"], ["fingerfootball"]])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path, game):
    argv = ["play", *game, "--seed", "1", "--save", str(tmp_path / "s.json")]
    if game[0] == "pimaldaumen":
        argv += ["--deck", str(write_deck(tmp_path)), "--board", str(write_board(tmp_path))]
    proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.readline()
    proc.stdout.close()  # `| head -1`
    _, err = proc.communicate(("track\nboard\nhelp\n" * 3000).encode(), timeout=60)
    assert proc.returncode == 1
    assert err == b"", err.decode()[-400:]


def test_without_deck_the_shipped_questions_of_lang_are_read_and_the_stand_in_is_announced(tmp_path):
    from propctl.cards.load import load_deck
    for lang in ("de", "en"):
        table = Table(["1"])
        assert play(table, "--players", "Ann,Bo", "--lang", lang, "--seed", 5,
                    "--save", tmp_path / ("%s.json" % lang)) == 0
        deck = ROOT / ("host_tools/propctl/data/decks/questions.%s.json" % lang)
        salmon = [c.question("white", "salmon").text for c in load_deck([deck]).cards]
        assert any(text in table.text for text in salmon)
        assert "the board is a STAND-IN" in table.said[1]  # said when the game starts


def test_a_board_that_is_no_stand_in_is_not_announced_as_one(tmp_path):
    table = Table(["1"])
    new_game(tmp_path, table)
    assert "STAND-IN" not in table.text


def simulated_table(seed):
    """Players who guess around the exact answer: right, a bit off, or far off, at random."""
    from propctl.shared.rules.rng import Rng
    rng = Rng(seed)
    factors = ["0.2", "0.5", "0.7", "0.8", "0.9", "1", "1.1", "1.3", "1.6", "2.5", "4"]
    holder = {}

    def ask(prompt):
        if "answer" not in prompt:
            return ""  # a bonus field offer: move on
        question = holder["session"].pile.question()
        # float only to make up a guess; the game scores the text exactly
        guess = round(float(question.answer) * float(factors[rng.below(len(factors))]))
        return str(guess)
    return holder, ask


def test_a_whole_seeded_game_reads_no_question_twice(tmp_path):
    from propctl.games.pimaldaumen_session import Session
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    # These games take 26 and 33 questions, more than the 20 cards: before draw() kept track of
    # the questions read, they read 2 and 8 questions twice.
    for lang, players, seed in (("en", "Ann,Bo,Cy", 1), ("de", "Ann,Bo,Cy,Di,Ed,Flo", 1)):
        args = parser.parse_args(["pimaldaumen", "--players", players, "--lang", lang, "--seed", str(seed),
                                  "--save", str(tmp_path / "save.json")])
        said = []
        holder, ask = simulated_table(seed)
        session = Session.new(args, ask, said.append)
        holder["session"] = session
        reads = []
        draw = session.draw

        def counting_draw(draw=draw, session=session, reads=reads):
            question = draw()
            reads.append((session.pile.current, session.pile.current_frame, session.pile.colour))
            return question
        session.draw = counting_draw
        assert session.play() == 0
        assert session.game.phase == "over" and "wins the game!" in said[-2]
        assert len(reads) > 20
        assert len(set(reads)) == len(reads), "a question was read twice"
        assert not any("repeat from now on" in line for line in said)


def test_the_questions_read_survive_saving_and_resuming(tmp_path):
    from propctl.games.pimaldaumen_session import Session
    table = Table(["240"])  # the first round ends at once; the next question is drawn, then EOF
    new_game(tmp_path, table)
    read = saved(tmp_path)["read"]
    assert len(read) == 2 and all(frame == "white" and colour in ("yellow", "green", "salmon")
                                  for _, frame, colour in read)
    session = Session.resume(str(tmp_path / "save.json"), None, Table([]).ask, Table([]).say)
    assert session.pile.read == set(tuple(item) for item in read)
