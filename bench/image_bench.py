"""`propctl image`: how big each prop's image is, per board (a section of `make bench`).

    python bench/image_bench.py      prints the table

Per prop and board: the files deploy puts on the board (firmware .mpy files, main.py,
config.json, deploy's record), the littlefs blocks they take of the board's filesystem,
and the file `propctl image` writes (a UF2 of the whole region: 512 bytes per 256-byte
page; a raw .bin for an ESP32). Compiled once per architecture.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host_tools"))

from propctl import deploy  # noqa: E402
from propctl.build import BOARD_ARCH, PROPS  # noqa: E402
from propctl.image import build_image  # noqa: E402
from propctl.image.geometry import BOARDS  # noqa: E402

BOARD_ORDER = ("pico", "pico_w", "pico2", "pico2_w", "esp32", "esp32s3")


def measure(boards=BOARD_ORDER) -> list:
    compiled: dict = {}
    real = deploy.firmware_files

    def once(board, progress=None, root=None):
        key = BOARD_ARCH[board]
        if key not in compiled:
            compiled[key] = real(board, progress=progress, root=root)
        return dict(compiled[key])
    deploy.firmware_files = once
    rows = []
    try:
        for board in boards:
            g = BOARDS[board]
            for prop in PROPS:
                result = build_image(prop, board, {}, say=lambda line: None)
                rows.append({"prop": prop, "board": board, "files": len(result.files),
                             "file_kib": sum(len(d) for d in result.files.values()) / 1024,
                             "used": result.used_blocks, "blocks": g.block_count,
                             "image_kib": len(result.data) / 1024})
    finally:
        deploy.firmware_files = real
    return rows


def section(rows) -> str:
    lines = ["## Image size per prop and board (`propctl image`)", "",
             "Method: bench/image_bench.py builds each image as `propctl image --prop P --board B` "
             "does (no --micropython). Files: what deploy puts on the board; blocks: littlefs blocks "
             "of 4096 bytes in use of the board's filesystem; image: the file written (a UF2 covers "
             "the whole region, 2 bytes per byte of flash). Every prop's image holds the whole "
             "firmware, as deploy copies it: the props differ in config.json only.", "",
             "| prop | board | files | KiB in files | blocks used / all | image KiB |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %d | %.1f | %d / %d | %d |" % (
            r["prop"], r["board"], r["files"], r["file_kib"], r["used"], r["blocks"], r["image_kib"]))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(section(measure()))
