"""`propctl sim clock --non-interactive` prints a log that fits an 80-column terminal: the heading,
every config message, every event and the summary, with the widest inputs a user can give (the
largest seed, a long board name, bad limits that give the longest config message)."""
import subprocess
import sys
from types import SimpleNamespace

from propctl.props.clock import sim as clock


def run_sim(*extra):
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--non-interactive",
                           "--mute"] + list(extra),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_every_line_of_the_log_fits_80_columns():
    lines = run_sim("--seed", "4294967295", "--set", "board=esp32s3",
                    "--set", 'clock.limits={"speed_min": 0}', "--set", "clock.ramp_ms=0")
    assert len(lines) >= 10
    wide = [line for line in lines if len(line) > 80]
    assert not wide, wide
    text = "\n".join(lines)
    # nothing lost in the wrapping: the heading, both config messages and the round
    assert "seed 4294967295" in " ".join(text.split())
    assert "clock.limits:" in text and "clock.ramp_ms:" in text
    assert "CHIME" in text and "done:" in text


def test_the_heading_and_messages_wrap_under_themselves():
    args = SimpleNamespace(seed=4294967295, speed=0)
    lines = clock.info_lines({"board": "esp32s3", "motor": "dc", "bridge": "drv8833", "chime": "piezo",
                              "errors": ["clock.limits: " + "x " * 60]}, args)
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[0].startswith("ghost clock on a virtual esp32s3 board")
    assert lines[1].startswith("  ") and not lines[1].startswith("   ")
    config = [i for i, line in enumerate(lines) if line.startswith("config: ")]
    assert len(config) == 1 and all(line.startswith("  ") for line in lines[config[0] + 1:])


def test_a_long_event_line_wraps_under_its_text():
    line = clock.describe({"event": "start", "t": 123456, "round": 1000, "seed": 4294967295,
                           "segments": 40, "duration_ms": 120000})
    lines = clock.log_lines(line)
    assert len(line) > 80 and len(lines) == 2 and all(len(x) <= 80 for x in lines), lines
    assert lines[1].startswith(" " * 19) and lines[1][19] != " "
