"""`propctl ports`: serial ports that may be a prop board."""
import errno
import os
import stat
import sys

from propctl.termtext import cut, wrap

# USB vendor ids seen on MicroPython boards and their USB-serial bridges.
KNOWN_VIDS = {
    0x2E8A: "Raspberry Pi (Pico)",
    0x303A: "Espressif (ESP32-S2/S3/C3 USB)",
    0x10C4: "Silicon Labs CP210x (many ESP32 boards)",
    0x1A86: "WCH CH340 (many ESP32 boards)",
    0x0403: "FTDI",
    0xF055: "MicroPython",
}


# What to do when no board shows up (ports and --port auto say it).
NO_BOARD_ADVICE = (
    "Check: the board is plugged in with a data USB cable (charge-only cables are common); "
    "it has MicroPython on it (a Pico in BOOTSEL mode shows up as a USB drive named RPI-RP2, not "
    "as a serial port: copy the MicroPython .uf2 onto it first, see docs/flashing.md); "
    "on Linux your user is in the dialout group (sudo usermod -aG dialout $USER, then log in again). "
    "No board at all? A virtual one: `propctl sim serve` in another terminal; --port auto "
    "finds it while it runs.")


def candidates() -> list:
    """(device, description, likely) for every serial port, likely boards first."""
    # the same listing `mpremote devs` shows
    from serial.tools import list_ports
    rows = []
    for info in list_ports.comports():
        maker = KNOWN_VIDS.get(info.vid) if info.vid is not None else None
        description = info.description or ""
        if info.vid is not None:
            description += " [%04x:%04x]" % (info.vid, info.pid or 0)
        if maker:
            description += " - " + maker
        rows.append((info.device, description.strip(), maker is not None))
    rows.sort(key=lambda row: (not row[2], row[0]))
    # a running `propctl sim serve` (propctl.serial_link.announce): likely, after the real boards
    from propctl.serial_link.announce import served_boards
    real = sum(1 for row in rows if row[2])
    served = [(port, "virtual board (propctl sim serve, pid %d)" % pid, True)
              for port, pid in served_boards() if port not in {row[0] for row in rows}]
    return rows[:real] + served + rows[real:]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "ports", help="list serial ports that may be a prop board",
        description="List serial ports (the same listing as `mpremote devs`), likely MicroPython boards "
                    "first, then any virtual board a running `propctl sim serve` announced. "
                    "deploy, monitor, repl and selftest take `--port auto` for the first likely board.",
        epilog="Examples:\n"
               "  propctl ports                                  # * marks a likely board\n"
               "  propctl monitor --port auto                    # the first one marked *")
    parser.set_defaults(func=run)


def run(args) -> int:
    rows = candidates()
    if not rows:
        say("no serial ports found. " + NO_BOARD_ADVICE)
        return 1
    for device, description, likely in rows:
        print(cut("%s %-20s %s" % ("*" if likely else " ", device, description), 79))
    if any(row[2] for row in rows):
        print("* likely a MicroPython board (`--port auto` picks the first)")
    else:
        say("none of these looks like a MicroPython board. " + NO_BOARD_ADVICE)
    sys.stdout.flush()
    return 0


def say(text: str) -> None:
    """A paragraph within 80 columns, broken between words."""
    print("\n".join(wrap(text, 79)))


class PortError(Exception):
    """--port auto found no board; the message says what to do."""


def not_a_port(port: str):
    """Why `port` cannot be a serial port without opening it (a file, a folder, a FIFO, where an
    open would wait for a writer), or None: a missing name, a device, or a COM port on Windows
    are left to the opener, whose words say it."""
    try:
        mode = os.stat(port).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISCHR(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a file")
    return "%s is not a serial port: it is %s (`propctl ports` lists the ports)" % (port, kind)


def open_failure(port: str, exc: Exception) -> str:
    """What opening `port` failing with `exc` means, in words: pyserial's own for a device that
    is no terminal (/dev/null) are "Could not configure port: (25, 'Inappropriate ioctl ...')"."""
    if getattr(exc, "errno", None) == errno.ENOTTY or "(%d, " % errno.ENOTTY in str(exc):
        return ("%s is not a serial port: a device, but no terminal (`propctl ports` lists the "
                "ports)" % port)
    return "cannot open %s: %s (see `propctl ports`)" % (port, exc)


def add_port_option(parser) -> None:
    """--port of every board command (deploy, monitor, repl, selftest): the cli finds `auto`
    (resolve_port) before the command runs, so each accepts it."""
    parser.add_argument("--port", required=True,
                        help="serial port of the board (see `propctl ports`), or `auto`: the first "
                             "USB port that looks like a MicroPython board, else a running "
                             "`propctl sim serve`")


def resolve_port(port: str) -> str:
    """`auto` -> the first likely board's port (like `mpremote connect auto`), a real board before a
    served virtual one; other names unchanged."""
    if port != "auto":
        return port
    likely = [row[0] for row in candidates() if row[2]]
    if not likely:
        raise PortError("--port auto found no MicroPython board. " + NO_BOARD_ADVICE)
    return likely[0]
