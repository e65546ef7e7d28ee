"""CPython side of tests/both: firmware modules that are not installed packages (props) come from
firmware/lib, as MICROPYPATH gives them to MicroPython. Appended: installed packages stay first."""
import sys
from pathlib import Path

FIRMWARE_LIB = str(Path(__file__).resolve().parents[2] / "firmware" / "lib")
if FIRMWARE_LIB not in sys.path:
    sys.path.append(FIRMWARE_LIB)
