"""`propctl image --board esp32 ... --port PORT` runs esptool itself: the exact command line,
an esptool failure said in one line (exit 1), --port refused for a Pico board (exit 2).

esptool is replaced by a fake one: a package `esptool` first on PYTHONPATH (and sys.path),
so `python -m esptool` in propctl's subprocess runs it; it records its arguments and exits
with the code the test gives."""
import json
import os
import sys

import pytest
from image_helpers import cached_firmware

from propctl.cli import main
from propctl.image import command
from propctl.image.filesystem import read_files
from propctl.image.geometry import BOARDS

FAKE = '''import json, os, sys
with open(os.environ["FAKE_ESPTOOL_LOG"], "w") as log:
    json.dump({"argv": sys.argv[1:], "image": os.path.getsize(sys.argv[-1])}, log)
print("FAKE-ESPTOOL-RAN", flush=True)
sys.exit(int(os.environ.get("FAKE_ESPTOOL_EXIT", "0")))
'''


@pytest.fixture
def fake_esptool(tmp_path, monkeypatch):
    folder = tmp_path / "fake"
    (folder / "esptool").mkdir(parents=True)
    (folder / "esptool" / "__init__.py").write_text("")
    (folder / "esptool" / "__main__.py").write_text(FAKE)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(folder),
                                                                    os.environ.get("PYTHONPATH")])))
    log = tmp_path / "esptool-args.json"
    monkeypatch.setenv("FAKE_ESPTOOL_LOG", str(log))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return log


@pytest.fixture
def port():
    """A real terminal device (a pty) for the cli's port checks; the fake esptool never opens it."""
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def run(capture, *args):
    try:
        code = main(["image", *args])
    except SystemExit as exc:  # argparse's own refusal of a value (exit 2)
        code = exc.code
    out = capture.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_port_runs_esptool_with_the_exact_arguments_after_saying_what_is_replaced(capfd, monkeypatch,
                                                                                  fake_esptool, port):
    cached_firmware(monkeypatch)
    code, out, err = run(capfd, "--prop", "clock", "--board", "esp32s3", "-o", "clock.bin",
                         "--port", port, "--baud", "460800")
    assert code == 0, err
    done = json.loads(fake_esptool.read_text())
    assert done["argv"] == ["--chip", "esp32s3", "--port", port, "--baud", "460800",
                            "write-flash", "0x200000", "clock.bin"]
    assert done["image"] == BOARDS["esp32s3"].fs_bytes  # the whole file was there when esptool ran
    assert out.index("wrote clock.bin") < out.index("esptool now writes clock.bin at flash offset "
                                                    "0x200000") < out.index("FAKE-ESPTOOL-RAN")
    said = " ".join(out.split())
    assert "the board's whole filesystem (6144 KiB: its files, saved games and config.json" in said
    assert "MicroPython on it stays" in said and "done: the board restarts" in said
    assert "PORT" not in out  # no line to copy: it was run
    assert out.count("replaces") == 0 and said.count("is replaced") == 1  # said once, naming the port
    assert read_files((fake_esptool.parent / "work" / "clock.bin").read_bytes(),
                      BOARDS["esp32s3"])["config.json"]


@pytest.mark.slow
def test_an_esptool_failure_is_one_line_and_exit_1_and_the_file_is_kept(capfd, monkeypatch, fake_esptool,
                                                                        port):
    cached_firmware(monkeypatch)
    monkeypatch.setenv("FAKE_ESPTOOL_EXIT", "2")
    code, out, err = run(capfd, "--prop", "clock", "--board", "esp32", "-o", "clock.bin", "--port", port)
    assert code == 1
    assert json.loads(fake_esptool.read_text())["argv"] == [
        "--chip", "esp32", "--port", port, "write-flash", "0x200000", "clock.bin"]  # no --baud given
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("propctl image: esptool failed (exit 2) on %s" % port)
    assert "half written" in lines[0] and "clock.bin is kept" in lines[0]
    assert (fake_esptool.parent / "work" / "clock.bin").stat().st_size == BOARDS["esp32"].fs_bytes


def test_the_runner_gets_this_python_and_a_runner_that_cannot_start_is_one_line(capsys, tmp_path):
    seen = []

    def runner(argv):
        seen.append(argv)
        raise FileNotFoundError(2, "No such file or directory")
    code = command.write_to_board(BOARDS["esp32"], "-odd.bin", "/dev/ttyUSB0", 921600, run=runner)
    assert seen == [[sys.executable, "-m", "esptool", "--chip", "esp32", "--port", "/dev/ttyUSB0",
                     "--baud", "921600", "write-flash", "0x200000", "./-odd.bin"]]
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert "esptool failed (No such file or directory)" in err


@pytest.mark.parametrize("board", ["pico", "pico_w", "pico2", "pico2_w"])
def test_port_with_a_pico_board_is_a_usage_error(capsys, tmp_path, monkeypatch, board):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--prop", "clock", "--board", board, "-o", "x.uf2", "--port", "/dev/ttyACM0")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("propctl image: --port is for the ESP32 boards: a %s "
                                                   "takes its .uf2 by hand" % board), err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,words", [
    (["--baud", "460800"], "--baud goes with --port"),
    (["--port", "/dev/ttyUSB0", "--baud", "0"], "--baud: 0 is outside 300..5000000"),
    (["--port", ""], "--port names the board's serial port"),
])
def test_baud_and_an_empty_port_are_checked_before_any_work(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--prop", "clock", "--board", "esp32", "-o", "x.bin", *args)
    assert code == 2 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_port_without_esptool_installed_says_so_before_the_compiling(capsys, tmp_path, monkeypatch, port):
    from propctl import deploy

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled before esptool was looked for")
    monkeypatch.setattr(deploy, "firmware_files", no_compiling)
    monkeypatch.setattr(command, "esptool_installed", lambda: False)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--prop", "clock", "--board", "esp32", "-o", "x.bin", "--port", port)
    assert code == 1 and err.count("\n") == 1
    assert "`pip install esptool`" in err and "Nothing was written" in err
    assert list(tmp_path.iterdir()) == []


def test_without_port_the_line_to_run_is_printed_quoted(capsys):
    class Result:
        geometry = BOARDS["esp32"]
        data = b""
        used_blocks = 3
        stock = None
    command._report(Result(), "my props/clock.bin")
    out = capsys.readouterr().out
    assert "  python -m esptool --chip esp32 --port PORT write-flash 0x200000 'my props/clock.bin'\n" in out


def test_a_port_that_is_not_there_is_said_before_the_compiling(capsys, tmp_path, monkeypatch):
    from propctl import deploy

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled before the port was looked for")
    monkeypatch.setattr(deploy, "firmware_files", no_compiling)
    monkeypatch.chdir(tmp_path)
    missing = str(tmp_path / "ttyUSB9")
    code, out, err = run(capsys, "--prop", "clock", "--board", "esp32", "-o", "x.bin", "--port", missing)
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("propctl image: no port %s here (`propctl ports` lists the ports" % missing), err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_esptool_writes_says_what_it_leaves(capsys):
    def runner(argv):
        raise KeyboardInterrupt
    code = command.write_to_board(BOARDS["esp32"], "clock.bin", "/dev/ttyUSB0", run=runner)
    err = capsys.readouterr().err
    assert code == 130 and err.count("\n") == 1
    assert err.startswith("propctl image: interrupted while esptool wrote to /dev/ttyUSB0; clock.bin is kept")
