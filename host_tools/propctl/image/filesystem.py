"""A board's whole filesystem as bytes: littlefs2 made with littlefs-python, read back to check.

    image = filesystem_image({"main.py": b"...", "lib/a.mpy": b"..."}, BOARDS["pico"])

The image is the whole region, every block of it (erased blocks are 0xFF, as
erased flash reads), so a UF2 or esptool write of it leaves no block of an
older filesystem behind: littlefs finds its newest metadata by revision
counts, and a stale block from before could otherwise win.

Disk version 2.0 on purpose: littlefs 2.6 and newer write 2.1 by default, which
the littlefs 2.5 of MicroPython v1.19-v1.21 refuses to mount (lib/littlefs at
v1.21.0 is 2.5.0, disk 2.0; v1.22 brought 2.8.1); refused means formatted by
the rp2 port's _boot.py. Every littlefs since 2.0 mounts a 2.0 disk.
"""
DISK_VERSION = 0x00020000


class ImageError(Exception):
    """The files do not fit, or the image did not read back as written."""


def _config(geometry) -> dict:
    cache = min(geometry.block_size, 4 * max(geometry.readsize, geometry.progsize))  # extmod/vfs_lfsx.c
    return dict(block_size=geometry.block_size, block_count=geometry.block_count,
                read_size=geometry.readsize, prog_size=geometry.progsize, cache_size=cache,
                lookahead_size=geometry.lookahead, block_cycles=100, disk_version=DISK_VERSION)


def filesystem_image(files: dict, geometry) -> tuple:
    """(image, blocks used): littlefs2 holding `files` (path -> bytes, folders made as needed),
    geometry.fs_bytes long."""
    from littlefs import LittleFS, LittleFSError
    fs = LittleFS(mount=False, **_config(geometry))
    fs.format()
    fs.mount()
    try:
        for path in sorted(files):
            folder = path.rsplit("/", 1)[0] if "/" in path else ""
            if folder:
                fs.makedirs(folder, exist_ok=True)
            with fs.open(path, "wb") as out:
                out.write(files[path])
        used = fs.used_block_count
    except LittleFSError as exc:
        total = sum(len(data) for data in files.values())
        if exc.code == LittleFSError.Error.LFS_ERR_NOSPC:
            raise ImageError("the files (%d KiB) do not fit in %s's filesystem (%d KiB)"
                             % (total // 1024, geometry.board, geometry.fs_bytes // 1024)) from None
        raise ImageError("littlefs refused the image: %s" % exc) from None
    fs.unmount()
    image = bytes(fs.context.buffer)
    if len(image) != geometry.fs_bytes:
        raise ImageError("the image is %d bytes, not the %d of the region" % (len(image), geometry.fs_bytes))
    check_image(image, files, geometry)
    return image, used


def read_files(image: bytes, geometry) -> dict:
    """Every file in a littlefs image, path -> bytes (mounted with the board's geometry)."""
    from littlefs import LittleFS, UserContext
    fs = LittleFS(context=UserContext(buffer=bytearray(image)), mount=False, **_config(geometry))
    fs.mount()
    found = {}
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                found[path] = f.read()
    fs.unmount()
    return found


def check_image(image: bytes, files: dict, geometry) -> None:
    """ImageError unless the image, mounted afresh with the board's geometry, holds exactly `files`."""
    found = read_files(image, geometry)
    if found != files:
        raise ImageError("the image did not read back as written (%d files of %d)" % (
            len(set(found) & set(files)), len(files)))
