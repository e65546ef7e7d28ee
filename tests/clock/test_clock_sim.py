"""`propctl sim clock` and `make sim`'s command: the firmware on the virtual board, end to end."""
import os
import re
import subprocess
import sys
from pathlib import Path

from propctl.props.clock.screen import clock_face

ROOT = Path(__file__).resolve().parents[2]
PROPCTL = [sys.executable, "-m", "propctl.cli"]


def sim(*args, env_extra=None, timeout=60):
    env = dict(os.environ)
    env.pop("CI", None)
    env.update(env_extra or {})
    return subprocess.run(PROPCTL + ["sim", "clock", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env=env, cwd=str(ROOT), timeout=timeout)


def test_non_interactive_prints_the_event_log_and_exits_0_after_the_chime():
    result = sim("--seed", "3")  # stdin is not a terminal: non-interactive by itself
    assert result.returncode == 0, result.stderr
    kinds = [m.group(1) for m in re.finditer(r"^ *\d+\.\d+ s +(\w+)", result.stdout, re.M)]
    assert kinds[0] == "button" and "start" in kinds
    assert kinds[-3:] == ["stop", "chime", "idle"]
    assert "seed 3" in result.stdout
    assert "\x1b[" not in result.stdout  # no screen drawing in the log mode
    summary = result.stdout[result.stdout.index("done:"):]
    assert "motor released" in summary and "0 forbidden" in summary


def test_same_seed_same_log_and_ci_forces_the_log_mode():
    a = sim("--seed", "9", env_extra={"CI": "1"})
    b = sim("--seed", "9", "--non-interactive")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout


def test_stepper_and_other_settings_through_set():
    result = sim("--seed", "4", "--set", "clock.motor=stepper", "--set", "board=esp32")
    assert result.returncode == 0, result.stderr
    assert "esp32 board: stepper motor" in result.stdout


def test_an_esp32s3_plays_a_round():
    result = sim("--seed", "4", "--set", "board=esp32s3")
    assert result.returncode == 0, result.stderr
    assert "virtual esp32s3 board: dc motor" in result.stdout and "config:" not in result.stdout
    assert "CHIME: round 1 is over" in result.stdout
    assert "0 forbidden bridge states" in result.stdout


def test_bad_setting_is_reported_and_the_clock_still_runs():
    result = sim("--seed", "4", "--set", "clock.motor=servo")
    assert result.returncode == 0
    assert "config: clock.motor" in result.stdout


def test_interactive_run_draws_the_face_in_place():
    # In virtual time (--speed 0): the face is drawn the same way, and the round cannot run out of
    # board time while a loaded host stalls (at --speed 100 a stall of half a second did that).
    # The real-time path: test_sim_terminal (a pseudo-terminal at x16) and test_wasm32 (both ports).
    # A frame every board second: the face is still redrawn in place ~35 times, in about the time
    # x100 took (every 100 ms: ~270 redraws, 1.5 times as long).
    result = sim("--seed", "5", "--speed", "0", "--frame-ms", "1000", "--interactive", timeout=90)
    assert result.returncode == 0, result.stderr
    assert "\x1b[" in result.stdout and "12" in result.stdout
    assert "chime" in result.stdout and "motor released" in result.stdout


def test_clock_face_points_the_hand_where_the_angle_says():
    def tip(angle):
        face = clock_face(angle)
        for y, line in enumerate(face):
            if "@" in line:
                return line.index("@"), y
        raise AssertionError("no hand tip drawn")

    centre = next((line.index("O"), y) for y, line in enumerate(clock_face(0)) if "O" in line)
    x, y = tip(0)
    assert x == centre[0] and y < centre[1]          # twelve o'clock: straight up
    x, y = tip(90)
    assert x > centre[0] and y == centre[1]          # three o'clock: right
    x, y = tip(180)
    assert x == centre[0] and y > centre[1]          # six: down
    x, y = tip(270)
    assert x < centre[0] and y == centre[1]          # nine: left


def test_sim_help_teaches():
    result = subprocess.run(PROPCTL + ["sim", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for option in ("--seed", "--speed", "--non-interactive", "--serve"):
        assert option in result.stdout


def test_several_rounds_with_fresh_entropy_each():
    result = sim("--rounds", "2")
    assert result.returncode == 0, result.stderr
    # the log wraps at 80 columns: an event's later lines are indented under its text
    log = result.stdout.replace("\n" + " " * 19, " ")
    # the event's own column, not any line with the word (the hum warning says "do not start")
    starts = [line for line in log.splitlines() if " start   hand starts:" in line]
    assert len(starts) == 2 and "round 2" in starts[1]
    seeds = {line.split("seed ")[1].split(",")[0] for line in starts}
    assert len(seeds) == 2
    assert "2 round(s) played" in result.stdout


def test_negative_speed_is_refused_by_the_command_line():
    result = sim("--seed", "1", "--speed", "-1")
    assert result.returncode == 2
    assert "--speed" in result.stderr and "-1 is outside 0..1000" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_whole_section_set_to_a_value_is_an_error_not_a_crash():
    result = sim("--seed", "1", "--set", "clock=5")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "clock is a section, not a value" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout and "TypeError" not in result.stderr


def test_an_unknown_set_key_is_an_error():
    for key in ("clock.motr=stepper", "bord=esp32"):
        result = sim("--seed", "1", "--set", key)
        assert result.returncode == 2, (key, result.stdout)
        assert "is not a setting" in result.stderr and result.stdout == ""
    result = sim("--seed", "1", "--set", "clock.motr=stepper")
    assert "the clock settings are: " in result.stderr and "motor" in result.stderr


def test_sim_without_a_prop_says_what_to_name():
    result = subprocess.run(PROPCTL + ["sim"], capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert result.returncode == 2
    assert "name a prop to simulate" in result.stderr


def test_every_prop_of_the_firmware_has_a_sim_sub_command():
    import argparse

    from propctl.build import PROPS
    from propctl.sim import command
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    assert PROPS
    for prop in PROPS:
        args = parser.parse_args(["sim", prop])  # an unknown sub-command would exit
        assert args.func is not None


def test_a_config_file_that_cannot_be_used_is_said_not_crashed(tmp_path):
    cases = {"missing.json": (None, 1, "cannot be read"), "bad.json": ("{nope", 1, "is not valid JSON"),
             "list.json": ("[1]", 1, "must hold a JSON object"),
             "section.json": ('{"clock": 5}', 2, "clock is a section, not a value"),
             "infinity.json": ('{"clock": {"seed": Infinity}}', 1, "Infinity is not a JSON number")}
    for name, (text, code, words) in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        result = sim("--seed", "1", "--config", str(path))
        assert result.returncode == code, (name, result.stdout[-300:], result.stderr[-300:])
        assert words in result.stderr and "Traceback" not in result.stderr + result.stdout


def test_serve_as_a_sub_command_and_as_the_old_option(tmp_path):
    import signal
    for argv in (["sim", "serve"], ["sim", "--serve"]):
        flash = tmp_path / argv[-1].strip("-")
        proc = subprocess.Popen(PROPCTL + argv + ["--flash", str(flash)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=str(ROOT))
        try:
            first = proc.stdout.readline()
            assert first.startswith("virtual board on /dev/"), first + proc.stderr.read()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)
        assert proc.returncode == 0 and flash.is_dir()
