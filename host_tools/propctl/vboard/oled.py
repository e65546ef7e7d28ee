"""A fake SSD1306 OLED for the virtual board: decodes the command stream, keeps the display RAM,
and reads the text back off the pixels.

    oled = FakeSSD1306(width=128, height=32)
    board.i2c_devices[0x3C] = oled        # the firmware's I2C writes land here
    oled.text_lines()                     # ["> HOME 14 AWAY  7", ...] read off the RAM
    oled.on, oled.charge_pump, oled.mux, oled.frames, oled.errors

The firmware talks to it as to the real chip: writeto_mem(address, 0x00,
commands) for a command stream, writeto_mem(address, 0x40, data) for display
RAM. Data goes where the column/page window and the addressing mode put it,
so a wrong window or mode shows up as garbled text. Text is recognised cell by
cell (8x8, at multiples of 8) against framebuf's own font: what a player would
read, not what the firmware meant to draw. Runs under MicroPython (framebuf).
"""
import framebuf

_KEEP_COMMANDS = 256  # command bytes kept in FakeSSD1306.commands (initialisation and a few frames)
# Commands followed by argument bytes (SSD1306 datasheet, command table).
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
         0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

_GLYPHS = {}


def _glyphs() -> dict:
    """8 column bytes (MONO_VLSB) -> character, for the printable ASCII set."""
    if not _GLYPHS:
        buf = bytearray(8)
        fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
        for code in range(32, 127):
            fb.fill(0)
            fb.text(chr(code), 0, 0, 1)
            key = bytes(buf)
            if key not in _GLYPHS:
                _GLYPHS[key] = chr(code)
    return _GLYPHS


class FakeSSD1306:
    """The I2C device (see the module docstring)."""

    def __init__(self, width: int = 128, height: int = 64) -> None:
        self.width = width
        self.height = height          # the glass; the firmware sets the multiplex itself
        self.ram = bytearray(128 * 8)  # the chip always has 128 x 64 bits
        self.on = False
        self.charge_pump = False
        self.mux = 64
        self.mode = 2                 # page addressing after reset
        self.col_lo, self.col_hi = 0, 127
        self.page_lo, self.page_hi = 0, 7
        self.col = 0
        self.page = 0
        self.frames = 0               # data bursts received
        # The first command bytes, in order (for tests; the rest only counted). Fixed buffers,
        # allocated once: a real chip takes the firmware's writes without touching its heap,
        # so the model must not charge that heap either (the bench counts it: bench/REPORT.md).
        self.commands = bytearray(_KEEP_COMMANDS)
        self.command_count = 0
        self.errors = []              # things a real chip would not take
        self._pending = bytearray(7)  # the command whose arguments are still coming (at most 6)
        self._pending_len = 0

    # --- I2C side --------------------------------------------------------
    def writeto_mem(self, memaddr, buf) -> None:
        if memaddr == 0x00:
            for byte in buf:
                self._command_byte(byte)
        elif memaddr == 0x40:
            self.frames += 1
            for byte in buf:
                self._data(byte)
        else:
            self.errors.append("control byte 0x%02x" % memaddr)

    def readfrom_mem_into(self, memaddr, buf) -> None:
        raise OSError(5)  # the SSD1306 on I2C cannot be read

    # --- command decoding ---------------------------------------------------
    def _command_byte(self, byte: int) -> None:
        if self.command_count < _KEEP_COMMANDS:
            self.commands[self.command_count] = byte
        self.command_count += 1
        pending = self._pending
        if self._pending_len:
            pending[self._pending_len] = byte
            self._pending_len += 1
            if self._pending_len - 1 < _ARGS[pending[0]]:
                return
            self._pending_len = 0
            self._apply(pending[0], pending, 1)
            return
        if byte in _ARGS:
            pending[0] = byte
            self._pending_len = 1
            return
        self._apply(byte, pending, 0)

    def _apply(self, cmd: int, buf, at: int) -> None:
        """Command `cmd`, its argument bytes in buf from index `at` on."""
        if cmd == 0xAE:
            self.on = False
        elif cmd == 0xAF:
            self.on = True
        elif cmd == 0x8D:
            self.charge_pump = bool(buf[at] & 0x04)
        elif cmd == 0xA8:
            self.mux = buf[at] + 1
        elif cmd == 0x20:
            self.mode = buf[at] & 3
        elif cmd == 0x21:
            self.col_lo, self.col_hi = buf[at] & 0x7F, buf[at + 1] & 0x7F
            self.col = self.col_lo
        elif cmd == 0x22:
            self.page_lo, self.page_hi = buf[at] & 7, buf[at + 1] & 7
            self.page = self.page_lo
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 7
        elif cmd <= 0x0F:
            self.col = (self.col & 0xF0) | cmd
        elif cmd <= 0x1F:
            self.col = (self.col & 0x0F) | ((cmd & 0x0F) << 4)

    def _data(self, byte: int) -> None:
        self.ram[self.page * 128 + self.col] = byte
        if self.mode == 2:  # page mode: the column wraps within the page
            self.col = 0 if self.col >= 127 else self.col + 1
            return
        if self.mode == 0:  # horizontal: along the window, then the next page
            if self.col >= self.col_hi:
                self.col = self.col_lo
                self.page = self.page_lo if self.page >= self.page_hi else self.page + 1
            else:
                self.col += 1
            return
        if self.page >= self.page_hi:  # vertical
            self.page = self.page_lo
            self.col = self.col_lo if self.col >= self.col_hi else self.col + 1
        else:
            self.page += 1

    # --- what a player sees ---------------------------------------------------
    def visible_pages(self) -> int:
        """Pages lit on the glass: the multiplex and the glass both limit it."""
        rows = self.mux if self.mux < self.height else self.height
        return rows // 8

    def text_lines(self) -> list:
        """The text on the display, one string per 8-pixel row (blank if it is off)."""
        glyphs = _glyphs()
        lines = []
        for page in range(self.visible_pages()):
            chars = []
            for cell in range(self.width // 8):
                start = page * 128 + cell * 8
                if not self.on:
                    chars.append(" ")
                else:
                    chars.append(glyphs.get(bytes(self.ram[start:start + 8]), "?"))
            lines.append("".join(chars).rstrip())
        return lines
