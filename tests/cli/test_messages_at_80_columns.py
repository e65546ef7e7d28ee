"""What `propctl ports` and `propctl wokwi` say, as a person at an 80-column terminal reads it."""
import subprocess
import sys

from propctl.serial_link import ports


def test_ports_wraps_its_advice_at_word_boundaries(monkeypatch, capsys):
    monkeypatch.setattr(ports, "candidates", lambda: [("/dev/ttyS0", "n/a", False)])
    assert ports.run(None) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) < 80 for line in lines), out
    assert len(lines) > 3
    assert " ".join(out.split()).endswith(" ".join(ports.NO_BOARD_ADVICE.split()))  # every word whole


def test_no_ports_at_all_is_wrapped_too(monkeypatch, capsys):
    monkeypatch.setattr(ports, "candidates", lambda: [])
    assert ports.run(None) == 1
    assert all(len(line) < 80 for line in capsys.readouterr().out.splitlines())


def test_wokwi_with_a_missing_out_folder_says_so(tmp_path):
    missing = tmp_path / "nope"
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "wokwi", "--out", str(missing)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--out %s: no such folder" % missing in done.stderr, done.stderr
    assert "no hardware folder" not in done.stderr
    assert not missing.exists()
