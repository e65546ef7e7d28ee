"""Mount a filesystem image with MicroPython's own littlefs2 and copy its files out (unix port).

    micropython tests/image/mp_image_mount.py IMAGE BLOCK_SIZE BLOCK_COUNT PROGSIZE OUT_FOLDER

IMAGE holds the board's filesystem region (the bytes a UF2 or esptool writes there).
The block device reads it with the board's geometry, as rp2.Flash / esp32.Partition
give it to vfs.VfsLfs2 (ioctl 4: block count, 5: block size); it refuses writes, so
the mount is the stock firmware's read of the image, nothing repaired. Prints one JSON
line: the files found (path -> size), or the mount's error.
"""
import json
import os
import sys

import vfs


class ImageBlocks:
    def __init__(self, path, block_size, block_count):
        self.f = open(path, "rb")
        self.block_size = block_size
        self.block_count = block_count

    def readblocks(self, block, buf, offset=0):
        self.f.seek(block * self.block_size + offset)
        self.f.readinto(buf)

    def writeblocks(self, block, buf, offset=0):
        raise OSError(30)  # EROFS

    def ioctl(self, op, arg):
        if op == 4:
            return self.block_count
        if op == 5:
            return self.block_size
        return 0


def copy_out(src, dst, found):
    for name in os.listdir(src):
        path = src + "/" + name
        target = dst + "/" + name
        if os.stat(path)[0] & 0x4000:
            os.mkdir(target)
            copy_out(path, target, found)
        else:
            with open(path, "rb") as f:
                data = f.read()
            with open(target, "wb") as f:
                f.write(data)
            found[path[len("/image/"):]] = len(data)


def main():
    image, block_size, block_count, progsize, out = sys.argv[1:6]
    dev = ImageBlocks(image, int(block_size), int(block_count))
    try:
        fs = vfs.VfsLfs2(dev, progsize=int(progsize))
        vfs.mount(fs, "/image", readonly=True)
    except OSError as exc:
        print(json.dumps({"error": "mount failed: %s" % exc}))
        return
    found = {}
    copy_out("/image", out, found)
    vfs.umount("/image")
    print(json.dumps({"files": found}))


main()
