"""End to end, no board attached: the virtual board on a pseudo-terminal, driven by the real
`propctl deploy`, `propctl monitor` and plain `mpremote`, exactly as a board on USB would be.
"""
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from served_board import hello_until, wait_stable
from waits import WAIT_S, WORK_S, wait_until

from propctl.build import FIRMWARE_DIR, REPO_ROOT
from propctl.serial_link.linkclient import LinkClient, LinkFailure
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow

# Short rounds so a whole round takes about two seconds.
SHORT_ROUND = ('clock.limits={"round_min_ms": 1500, "round_max_ms": 2500, "segment_min_ms": 300, '
               '"segment_max_ms": 800, "pause_min_ms": 100, "pause_max_ms": 200}')
MPREMOTE = str(Path(sys.executable).with_name("mpremote"))
NO_REPL_S = 10


_SNAPSHOT = []


def propctl(*args, timeout=WORK_S):
    """Run the real command line; (exit code, stdout + stderr).

    Firmware deploys use a snapshot of firmware/ taken once, so the "copies
    nothing" checks hold even while the tree is being edited.
    """
    if args[:1] == ("deploy",) and "--cards" not in args and _SNAPSHOT:
        args = args + ("--firmware", _SNAPSHOT[0])
    result = subprocess.run([sys.executable, "-m", "propctl.cli", *args], capture_output=True,
                            text=True, timeout=timeout)
    return result.returncode, result.stdout + result.stderr



@pytest.fixture(scope="module")
def vboard(tmp_path_factory):
    snapshot = tmp_path_factory.mktemp("firmware")
    shutil.copytree(FIRMWARE_DIR, snapshot, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    _SNAPSHOT[:] = [str(snapshot)]
    board = VirtualBoard(tmp_path_factory.mktemp("flash")).start()
    try:
        yield board
    finally:
        board.stop()


@pytest.fixture(scope="module")
def deployed(vboard):
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0, out
    return out


def test_first_deploy_copies_the_compiled_firmware_and_the_prop_says_hello(vboard, deployed):
    assert "board mode before deploy: repl" in deployed  # a blank board: only a REPL
    assert "board up: clock prop on pico" in deployed and "mode run" in deployed
    flash = vboard.flash
    assert (flash / "main.py").exists()
    assert (flash / "lib" / "link" / "router.mpy").exists()
    assert not (flash / "lib" / "link" / "router.py").exists()
    assert not (flash / "manifest.py").exists()
    config = json.loads((flash / "config.json").read_text())
    assert config["prop"] == "clock" and config["board"] == "pico"
    assert config["clock"]["limits"]["round_max_ms"] == 2500
    record = json.loads((flash / ".deploy.json").read_text())["files"]
    assert "main.py" in record and record["lib/link/router.mpy"]["size"] > 0


def test_second_deploy_copies_nothing(vboard, deployed):
    before = {p: p.stat().st_mtime_ns for p in vboard.flash.rglob("*.mpy")}
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0, out
    assert "the clock prop is running: asking it to reboot into maintenance" in out
    assert "0 to copy" in out, out
    assert "board up: clock prop on pico" in out
    assert {p: p.stat().st_mtime_ns for p in vboard.flash.rglob("*.mpy")} == before


def test_a_damaged_or_missing_file_is_copied_again_and_dry_run_changes_nothing(vboard, deployed):
    # files the clock never imports, changed by hand behind the record's back
    short = vboard.flash / "lib" / "rules" / "pimaldaumen.mpy"
    gone = vboard.flash / "lib" / "rules" / "fingerweg.mpy"
    good_short, good_gone = short.read_bytes(), gone.read_bytes()
    short.write_bytes(good_short[:10])
    gone.unlink()
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND, "--dry-run")
    assert code == 0, out
    assert "would copy lib/rules/pimaldaumen.mpy" in out and "would copy lib/rules/fingerweg.mpy" in out
    assert "2 to copy" in out
    assert short.read_bytes() == good_short[:10] and not gone.exists()
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0, out
    assert "2 to copy" in out
    assert short.read_bytes() == good_short and gone.read_bytes() == good_gone


def test_monitor_starts_a_round_and_shows_the_hand_and_the_chime(vboard, deployed):
    hello_until(vboard.port, lambda info: info.get("mode") == "run")
    code, out = propctl("monitor", "--port", vboard.port, "--send", 'new_game={"players": 2}',
                        "--send", 'start_round={"seed": 11}', "--until", "chime", "--timeout", "30")
    assert code == 0, out
    lines = out.splitlines()
    starts = [i for i, line in enumerate(lines) if "hand starts: round 1, seed 11" in line]
    stops = [i for i, line in enumerate(lines) if "hand stops at" in line]
    chimes = [i for i, line in enumerate(lines) if "CHIME" in line]
    assert starts and stops and chimes, out
    assert starts[0] < stops[0] < chimes[0]
    assert '"state": "running"' in out  # the reply to start_round: the hand turns
    # the players count; the monitor reads the score with the rules core
    code, out = propctl("monitor", "--port", vboard.port, "--send",
                        'report={"on_clock": [2, 1], "unused": [0, 4]}', "--timeout", "0.5")
    assert code == 0, out
    assert "score: round won by player 1; ghost spaces 1-0 (player 1 +1)" in out


# no newline (splits lines) or CR (ignored, could leave a line empty); Ctrl-C is data to a running prop
GARBAGE = [b for b in range(256) if b not in (10, 13)]


def test_garbage_on_the_serial_line_gets_error_replies_and_the_board_runs_on(vboard, deployed):
    """Random bytes (Ctrl-C among them) and broken requests sent to the running firmware over the pty."""
    rng = random.Random(5)
    hello_until(vboard.port, lambda info: info.get("mode") == "run")
    boots = vboard.boots
    lines = []
    for i in range(300):
        kind = i % 3
        if kind == 0:
            line = bytes(rng.choice(GARBAGE) for _ in range(rng.randint(1, 60)))
        elif kind == 1:
            line = b'{"cmd": "start_round", "args": {"seed": "%d"}}' % i
        else:
            line = b"x" * rng.randint(513, 900)
        lines.append(line)
    with LinkClient.open(vboard.port) as client:
        client.stream.write(b"\n".join(lines) + b"\n")
        errors = 0
        deadline = time.monotonic() + WAIT_S
        while errors < 300 and time.monotonic() < deadline:
            line = client.read_line(1.0)
            if line is not None and line.message is not None and "err" in line.message:
                errors += 1
        info = client.hello(timeout=WAIT_S)
    assert errors == 300  # one error reply per bad line: none lost, none crashed the link
    assert info["mode"] == "run" and vboard.boots == boots and client.lost_total == 0


def to_the_repl(vboard):
    """`propctl repl --print`: the running prop reboots into maintenance; the mpremote command."""
    code, out = propctl("repl", "--port", vboard.port, "--print")
    assert code == 0, out
    assert "asking it to reboot into maintenance" in out and "board mode: maintenance" in out, out
    assert out.strip().splitlines()[-1].endswith("mpremote connect %s resume repl" % vboard.port), out


def back_to_the_prop(vboard):
    """What `propctl repl` tells a person to do at the REPL: end maintenance, reset; the prop runs."""
    boots = vboard.boots
    subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "exec",
                    "import safemode; safemode.end_maintenance()", "reset"],
                   capture_output=True, timeout=WAIT_S)
    info = hello_until(vboard.port, lambda info: info.get("mode") == "run")
    assert vboard.boots > boots and info["prop"] == "clock"


def test_plain_mpremote_works_against_the_virtual_board(vboard, deployed):
    hello_until(vboard.port, lambda info: info.get("mode") == "run")
    boots = vboard.boots
    # a running prop takes mpremote's interrupt as data: no REPL, and the prop runs on. mpremote
    # waits for the raw REPL as long as the prop talks, so the wait is bounded here: at the REPL
    # the same command answers in a fraction of a second (below), NO_REPL_S is many times that
    try:
        result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "exec", "print(6 * 7)"],
                                capture_output=True, text=True, timeout=NO_REPL_S)
        assert result.returncode != 0 and "42" not in result.stdout, result
    except subprocess.TimeoutExpired:
        pass  # mpremote still waiting for a raw REPL that never came: no REPL either
    with LinkClient.open(vboard.port) as client:
        assert client.request("ping") == {"pong": True}
        assert client.request("hello")["mode"] == "run"
    assert vboard.boots == boots
    # after the maintenance step plain mpremote works
    to_the_repl(vboard)
    result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "exec", "print(6 * 7)"],
                            capture_output=True, text=True, timeout=WAIT_S)
    assert result.returncode == 0 and result.stdout.strip() == "42", result
    result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "fs", "cat", ":config.json"],
                            capture_output=True, text=True, timeout=WAIT_S)
    assert json.loads(result.stdout)["prop"] == "clock"
    # a plain reset keeps maintenance (the flag outlives resets, as a cut deploy needs) ...
    boots = vboard.boots
    subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "reset"], capture_output=True, timeout=WAIT_S)
    hello_until(vboard.port, lambda info: info.get("mode") == "maintenance")
    assert vboard.boots > boots
    # ... until it is ended as `propctl repl` says
    back_to_the_prop(vboard)


def test_a_config_that_does_not_parse_gives_defaults_and_a_clear_error(vboard, deployed):
    (vboard.flash / "config.json").write_text('{"prop": "clock", "clock": {')
    boots = vboard.boots
    vboard.reset()
    info = hello_until(vboard.port, lambda info: info.get("mode") == "run" and info.get("config_errors"))
    assert vboard.boots == boots + 1  # booted once, no boot loop
    assert "not valid JSON" in info["config_errors"][0]
    assert info["prop"] == "clock" and info["board"] == "pico"  # the defaults
    code, out = propctl("monitor", "--port", vboard.port, "--timeout", "0.3")
    assert code == 0 and "config problem: config is not valid JSON" in out, out
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0 and "not valid JSON: replaced" in out, out
    info = hello_until(vboard.port, lambda info: info.get("mode") == "run")
    assert info["config_errors"] == []


def test_three_crashed_boots_start_safe_mode_with_the_repl_free_and_deploy_recovers(vboard, deployed):
    # a stray source file shadows the compiled prop and crashes every boot
    stray = vboard.flash / "lib" / "props" / "clock" / "__init__.py"
    stray.write_text("raise RuntimeError('a broken prop')\n")
    wait_stable(vboard.flash)  # only the crashes below count
    boots = vboard.boots
    vboard.reset()
    info = hello_until(vboard.port, lambda info: info.get("mode") == "safe")
    assert vboard.boots - boots >= 4  # three crashed boots, then the safe one
    assert info["caps"] == ["leave", "why"]
    with LinkClient.open(vboard.port) as client:
        why = client.request("why")
    assert why["crashes"] == 3 and "deploy" in why["fix"]
    assert "RuntimeError: a broken prop" in why["why"]  # the crash itself is named
    # the safe mode stays put: no more resets
    time.sleep(1.0)
    settled = vboard.boots
    result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "exec", "print('repl ok')"],
                            capture_output=True, text=True, timeout=WAIT_S)
    assert result.stdout.strip() == "repl ok", result
    assert vboard.boots == settled
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0, out
    assert "0 to copy" in out and "removed lib/props/clock/__init__.py" in out and "mode run" in out
    assert not stray.exists()
    counter = vboard.flash / "boot_count"
    assert not counter.exists() or counter.read_text().strip() in ("0", "1")


def saved_rounds(flash):
    """Rounds of the clock's game in its save on the flash (store.encode: the JSON's line first);
    None while there is no whole save."""
    try:
        return len(json.loads((flash / "clock_state.json").read_bytes().split(b"\n", 1)[0])["rounds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def test_power_cuts_during_saves_leave_the_old_or_the_new_game(vboard, deployed):
    rng = random.Random(3)
    hello_until(vboard.port, lambda info: info.get("mode") == "run")
    with LinkClient.open(vboard.port) as client:
        client.request("new_game", {"players": 2})
    outcomes = []
    for _ in range(6):
        with LinkClient.open(vboard.port) as client:
            before = client.request("state")["game"]["rounds"]
            wait_stable(vboard.flash)  # these cuts are not boot crashes
            # the old game is on the flash before the cut (the store writes it on a later pass:
            # new_game's save can still be waiting, and a cut then loses a game never saved)
            saved = lambda rounds=before: saved_rounds(vboard.flash) == rounds  # noqa: E731
            assert wait_until(saved), (before, saved_rounds(vboard.flash))
            client.send("report", {"on_clock": [0, 0], "unused": [1, 1]})  # a round nobody won
            time.sleep(rng.random() * 0.015)
            vboard.kill()
        info = hello_until(vboard.port, lambda info: info.get("mode") == "run")
        assert info["prop"] == "clock"
        try:
            with LinkClient.open(vboard.port) as client:
                game = client.request("state")["game"]
        except LinkFailure as exc:
            pytest.fail("state after the power cut: %s" % exc)
        assert game is not None, "the saved game was lost"
        assert game["rounds"] in (before, before + 1), (before, game)
        outcomes.append(game["rounds"] - before)
    assert set(outcomes) <= {0, 1}


def _pack(tmp_path):
    deck = tmp_path / "deck.bin"
    code, out = propctl("cards", "pack", str(REPO_ROOT / "host_tools/propctl/data/decks/taskcards.en.csv"),
                        "-o", str(deck))
    assert code == 0, out
    return deck


def test_a_card_deck_is_copied_once(vboard, deployed, tmp_path):
    deck = _pack(tmp_path)
    code, out = propctl("deploy", "--port", vboard.port, "--cards", str(deck))
    from propctl.shared.cardpack import Pack
    with deck.open("rb") as stream:
        records = len(Pack(stream))  # the shipped deck grows: its own count, as the pack says it
    assert code == 0 and "1 to copy" in out and "TASK, %d records" % records in out, out
    # a task-card pack goes where the fuse box reads it (cardpack.taskcard.PACK_PATH), whatever its name
    assert "-> /cards/taskcards.bin" in out, out
    assert (vboard.flash / "cards" / "taskcards.bin").read_bytes() == deck.read_bytes()
    code, out = propctl("deploy", "--port", vboard.port, "--cards", str(deck))
    assert code == 0 and "0 to copy" in out, out
    # the firmware's own record is untouched: the next firmware deploy copies nothing
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0 and "0 to copy, " in out and "0 to remove" in out, out
    assert (vboard.flash / "cards" / "taskcards.bin").exists()


def test_cards_that_are_not_a_sound_pack_are_refused_before_the_board_is_touched(vboard, deployed, tmp_path):
    good = _pack(tmp_path).read_bytes()
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(1).randbytes(4096))
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(good[:-40] + bytes(b ^ 0x55 for b in good[-40:]))
    cut = tmp_path / "cut.bin"
    cut.write_bytes(good[:len(good) // 2])
    unreadable = tmp_path / "locked.bin"
    unreadable.write_bytes(good)
    unreadable.chmod(0)
    cases = [(noise, "not a card pack"), (damaged, "checksum"), (cut, "truncated"),
             (tmp_path, "is a folder"), (tmp_path / "missing.bin", "no such file")]
    if os.geteuid() != 0:  # root reads any file
        cases.append((unreadable, "cannot read"))
    for path, reason in cases:
        code, out = propctl("deploy", "--port", vboard.port, "--cards", str(path))
        assert code == 1 and reason in out and "Traceback" not in out, (path, out)
        assert not (vboard.flash / "cards" / path.name).exists()


def flash_files(flash) -> list:
    """The board's files by name, its store's save in progress (NAME.tmp, then renamed: the running
    prop's own atomic write, which can fall between two listings) counted as NAME."""
    return sorted({str(p.relative_to(flash)).removesuffix(".tmp") for p in flash.rglob("*")})


def test_an_incomplete_firmware_tree_is_refused_and_nothing_is_removed(vboard, deployed, tmp_path):
    before = flash_files(vboard.flash)
    empty = tmp_path / "empty"
    empty.mkdir()
    no_prop = tmp_path / "no_prop"
    shutil.copytree(_SNAPSHOT[0], no_prop)
    (no_prop / "lib" / "props" / "clock" / "__init__.py").unlink()
    for tree, reason in ((empty, "is not a firmware tree"), (no_prop, "lacks lib/props/clock/__init__.mpy")):
        result = subprocess.run([sys.executable, "-m", "propctl.cli", "deploy", "--port", vboard.port,
                                 "--prop", "clock", "--board", "pico", "--firmware", str(tree)],
                                capture_output=True, text=True, timeout=WORK_S)
        out = result.stdout + result.stderr
        assert result.returncode == 1 and reason in out, out
        assert not re.search(r"(?<!\d)0 files", out) and "to remove" not in out
    assert flash_files(vboard.flash) == before


def test_a_deploy_that_leaves_the_board_in_safe_mode_fails_with_the_reason(vboard, deployed, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(_SNAPSHOT[0], broken)
    (broken / "lib" / "props" / "clock" / "app.py").write_text("raise RuntimeError('a broken prop')\n")
    result = subprocess.run([sys.executable, "-m", "propctl.cli", "deploy", "--port", vboard.port,
                             "--prop", "clock", "--board", "pico", "--set", SHORT_ROUND, "--firmware",
                             str(broken)], capture_output=True, text=True, timeout=120)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "SAFE MODE" in out and "crashed during 3 boots" in out and "a broken prop" in out, out
    assert "board up" not in out
    code, out = propctl("deploy", "--port", vboard.port, "--prop", "clock", "--board", "pico",
                        "--set", SHORT_ROUND)
    assert code == 0 and "mode run" in out, out


@contextlib.contextmanager
def served(flash):
    """`propctl sim --serve` in its own process, as a user runs it: yields its port."""
    proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", "sim", "--serve", "--flash", str(flash)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        yield proc.stdout.readline().split()[-1]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_board_that_resets_mid_copy_gives_one_line_and_the_deploy_resumes(vboard, deployed, tmp_path):
    changed = tmp_path / "changed"
    shutil.copytree(_SNAPSHOT[0], changed)
    for source in (changed / "lib").rglob("*.py"):  # every compiled file differs from the board's
        source.write_text(source.read_text() + "\n_CHANGED = 1\n")
    flash = tmp_path / "flash"
    shutil.copytree(vboard.flash, flash)
    with served(flash) as port:
        hello_until(port, lambda info: info.get("mode") == "run")
        command = [sys.executable, "-m", "propctl.cli", "deploy", "--port", port, "--prop", "clock",
                   "--board", "pico", "--set", SHORT_ROUND, "--firmware", str(changed)]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.strip().startswith("[3/"):
                for pid in _processes_in(flash):  # the power goes in the middle of the copy
                    os.kill(int(pid), signal.SIGKILL)
        out = "".join(lines)
        assert proc.wait(timeout=60) == 1, out
        assert any(line.strip().startswith("[3/") for line in lines), out
        assert "lost the board on %s" % port in out and "run the same deploy" in out, out
        assert "Traceback" not in out, out
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        out = result.stdout + result.stderr
        assert result.returncode == 0 and "board up: clock prop on pico" in out, out
        assert not re.search(r"(?<!\d)0 to copy", out)  # it copied what the cut left undone
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert "0 to copy" in result.stdout, result.stdout


def test_monitor_says_in_one_line_that_the_board_went_away(vboard, deployed, tmp_path):
    flash = tmp_path / "flash"
    shutil.copytree(vboard.flash, flash)
    with served(flash) as port:
        hello_until(port, lambda info: info.get("mode") == "run")
        proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", "monitor", "--port", port,
                                 "--timeout", "30"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        first = proc.stdout.readline()
        assert "connected" in first, first
    # the server has stopped: the port is gone, as when the cable is pulled
    out = first + proc.stdout.read()
    assert proc.wait(timeout=WAIT_S) == 1, out
    assert "lost the board on %s" % port in out and "Traceback" not in out, out


def test_a_fresh_board_is_told_to_deploy_not_to_try_monitor(tmp_path):
    with served(tmp_path / "flash") as port:  # MicroPython only, no main.py
        code, out = propctl("monitor", "--port", port, "--timeout", "1")
    assert code == 1, out
    assert "deploy --port %s --prop clock --board pico" % port in out, out
    assert "try `propctl monitor`" not in out


def test_deploy_names_the_boards_micropython_and_knows_the_virtual_board(deployed):
    assert "board: micropython 1." in deployed and "a virtual board, no chip to check" in deployed


def test_mip_installs_the_rules_core_from_package_json(vboard, deployed):
    from propctl.shared.rules.rng import Rng
    hello_until(vboard.port, lambda info: info.get("mode") == "run")
    to_the_repl(vboard)
    result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "mip", "install", "--target",
                             "miplib", str(REPO_ROOT / "package.json")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result
    assert (vboard.flash / "miplib" / "rules" / "geisteruhr.py").exists()
    # forget any deployed rules already loaded, then import the mip copy
    probe = ("import sys\nfor name in [m for m in sys.modules if m.startswith('rules')]:\n"
             " del sys.modules[name]\nsys.path.insert(0, 'miplib')\nimport rules.rng\n"
             "print(rules.rng.__file__, rules.rng.Rng(9).below(1000))")
    result = subprocess.run([MPREMOTE, "connect", vboard.port, "resume", "exec", probe],
                            capture_output=True, text=True, timeout=WAIT_S)
    assert result.stdout.split() == ["miplib/rules/rng.py", str(Rng(9).below(1000))], result
    back_to_the_prop(vboard)


def _processes_in(folder):
    """PIDs of processes whose working directory is `folder` (the virtual board's flash)."""
    import os
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink("/proc/%s/cwd" % pid) == str(folder):
                    found.append(pid)
            except OSError:
                pass  # gone meanwhile, or not ours to look at
    return found


def test_propctl_sim_serve_prints_its_port_and_cleans_up(tmp_path):
    import os
    import signal
    proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", "sim", "--serve", "--flash", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("virtual board on /dev/pts/"), first
        port = first.split()[-1]
        probe = [MPREMOTE, "connect", port, "resume", "exec", "import sys; print(sys.platform)"]
        result = subprocess.run(probe, capture_output=True, text=True, timeout=WAIT_S)
        assert result.stdout.strip() == "linux", result  # a blank flash: straight to the REPL
        assert _processes_in(tmp_path)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert _processes_in(tmp_path) == []  # the board process went with the server
