"""Every firmware file must compile with mpy-cross, as the boards load it."""
import pytest

from propctl.build import FIRMWARE_DIR, CompileError, compile_file, firmware_sources


@pytest.mark.parametrize("relative", [str(p) for p in firmware_sources()])
def test_firmware_file_compiles_for_the_boards(relative, tmp_path):
    compile_file(FIRMWARE_DIR / relative, tmp_path / "out.mpy", arch="armv6m")
    assert (tmp_path / "out.mpy").stat().st_size > 0


def test_syntax_micropython_cannot_load_is_refused(tmp_path):
    # Valid CPython 3.10+ that MicroPython cannot compile: a match statement.
    bad = tmp_path / "bad.py"
    bad.write_text("match 1:\n    case 1:\n        pass\n")
    with pytest.raises(CompileError, match="bad.py"):
        compile_file(bad, tmp_path / "bad.mpy")
