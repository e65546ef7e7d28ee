"""`propctl ports`: serial ports that may be a prop board."""
import sys

# USB vendor ids seen on MicroPython boards and their USB-serial bridges.
KNOWN_VIDS = {
    0x2E8A: "Raspberry Pi (Pico)",
    0x303A: "Espressif (ESP32-S2/S3/C3 USB)",
    0x10C4: "Silicon Labs CP210x (many ESP32 boards)",
    0x1A86: "WCH CH340 (many ESP32 boards)",
    0x0403: "FTDI",
    0xF055: "MicroPython",
}


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
    return rows


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "ports", help="list serial ports that may be a prop board",
        description="List serial ports (the same listing as `mpremote devs`), likely MicroPython boards "
                    "first. A virtual board (`propctl sim serve`) prints its own port instead.")
    parser.set_defaults(func=run)


def run(args) -> int:
    rows = candidates()
    if not rows:
        print("no serial ports found. Plug the board in with a data USB cable; on Linux you may need "
              "to be in the dialout group. A virtual board: `propctl sim serve`.")
        return 1
    for device, description, likely in rows:
        print("%s %-20s %s" % ("*" if likely else " ", device, description))
    if any(row[2] for row in rows):
        print("* likely a MicroPython board")
    sys.stdout.flush()
    return 0
