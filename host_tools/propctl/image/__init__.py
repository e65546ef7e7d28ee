"""`propctl image`: a prop's whole filesystem as one file a board takes without `propctl`.

    result = build_image("clock", "pico", settings, stock=None, say=print)
    result.data   # the UF2 (Pico boards) or the raw .bin (ESP32 boards, for esptool)

The files are the ones `propctl deploy` puts on a board (propctl.deploy.whole_board: the
firmware compiled by mpy-cross, config.json, deploy's record, a card deck), in a
littlefs2 image of the board's whole filesystem region (geometry.BOARDS), wrapped as UF2
blocks at the region's address; with a stock MicroPython UF2, its blocks come first and
the filesystem's follow, numbered on in one file.
"""
from propctl.image import uf2
from propctl.image.filesystem import filesystem_image
from propctl.image.geometry import BOARDS, mpy_version_of
from propctl.serial_link import BoardError


class ImageRefused(BoardError):
    """The inputs cannot make an image a board would run (exit 1); nothing was written."""


class Result:
    def __init__(self, data: bytes, geometry, files: dict, used_blocks: int, stock=None) -> None:
        self.data = data
        self.geometry = geometry
        self.files = files
        self.used_blocks = used_blocks
        self.stock = stock


def mpy_version(files: dict):
    """The .mpy version the compiled files carry (byte 1 of every .mpy header), or None."""
    versions = set(data[1] for path, data in files.items() if path.endswith(".mpy") and data[:1] == b"M")
    if len(versions) > 1:
        raise ImageRefused("the compiled files carry different .mpy versions %s" % sorted(versions))
    return versions.pop() if versions else None


def mpy_cross_version() -> int:
    """The .mpy version mpy-cross writes (byte 1 of the header of a file it compiles)."""
    import tempfile
    from pathlib import Path

    from propctl.build import compile_file
    with tempfile.TemporaryDirectory(prefix="propctl-mpy-") as folder:
        source = Path(folder) / "probe.py"
        source.write_text("pass\n")
        compile_file(source, Path(folder) / "probe.mpy")
        return (Path(folder) / "probe.mpy").read_bytes()[1]


def check_stock(stock, geometry, mpy: int) -> None:
    """ImageRefused unless the stock firmware fits the board, its flash layout and the .mpy files."""
    from propctl.serial_link.session import board_problem
    if stock.family != geometry.family:
        raise ImageRefused("the stock image is for another chip (UF2 family 0x%08X, --board %s takes "
                           "0x%08X): download %s's firmware (%s) from micropython.org/download"
                           % (stock.family, geometry.board, geometry.family, geometry.board, geometry.build))
    wanted = mpy_version_of(stock.release)
    shown = ".".join(str(v) for v in stock.release)
    if wanted is None:
        raise ImageRefused("the stock image is MicroPython %s, newer than this propctl knows the .mpy "
                           "version of; mpy-cross writes version %d. Use a release up to 1.29, or "
                           "`propctl deploy`" % (shown, mpy))
    if wanted != mpy:
        raise ImageRefused("the stock image is MicroPython %s, which loads .mpy version %d; mpy-cross "
                           "writes version %d: download a current release (1.19 or newer) from "
                           "micropython.org/download" % (shown, wanted, mpy))
    problem, _shown = board_problem(geometry.board, "micropython", list(stock.release), stock.machine, "rp2")
    if problem:
        fits = [name for name, other in sorted(BOARDS.items()) if other.family == stock.family and
                not board_problem(name, "micropython", list(stock.release), stock.machine, "rp2")[0]]
        raise ImageRefused("the stock image is MicroPython for the %s, not for --board %s: download "
                           "%s's firmware (%s) from micropython.org/download%s" % (
                               stock.machine, geometry.board, geometry.board, geometry.build,
                               ", or make the image with --board %s" % fits[0] if fits else ""))
    if stock.end > geometry.address:
        raise ImageRefused("the stock image reaches 0x%08X, into %s's filesystem from 0x%08X: it is not "
                           "the %s build" % (stock.end, geometry.board, geometry.address, geometry.build))


def build_image(prop, board, settings: dict, firmware=None, cards=None, existing=None, stock=None,
                say=print) -> Result:
    """The image for --prop on --board (see the module's doc); ImageRefused/BoardError say why not."""
    from propctl.deploy import whole_board
    geometry = BOARDS[board]
    say("board %s" % geometry.describe())
    if stock is not None:  # before the compiling: a stock image that does not fit is said at once
        check_stock(stock, geometry, mpy_cross_version())
    files = whole_board(prop, board, settings, firmware=firmware, cards=cards, existing=existing, say=say)
    mpy = mpy_version(files)
    if stock is not None:
        check_stock(stock, geometry, mpy)  # the files as compiled
        say("stock firmware: %s, loads the .mpy files (version %d)" % (stock.shown(), mpy))
    else:
        say(".mpy version %d: for MicroPython 1.19 or newer on the board" % mpy)
    say("making the littlefs filesystem (%d files, %d KiB)" % (
        len(files), sum(len(data) for data in files.values()) // 1024))
    try:
        image, used = filesystem_image(files, geometry)
    except Exception as exc:  # ImageError: too big, or read back wrong
        raise ImageRefused(str(exc)) from None
    if not geometry.uf2:
        return Result(image, geometry, files, used)
    blocks = uf2.blocks_of(image, geometry.address, geometry.family)
    if stock is not None:
        blocks = list(stock.blocks) + blocks
    return Result(uf2.write(blocks), geometry, files, used, stock)
