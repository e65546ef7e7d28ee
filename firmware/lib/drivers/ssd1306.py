"""An SSD1306 OLED on I2C (128x32 or 128x64): text lines into a framebuf, one transfer per frame.

    oled = SSD1306(i2c, 128, 32)
    oled.fill(0); oled.text("HOME 7", 0, 0); oled.show()

A minimal driver of our own: init sequence, contrast, power, frame upload.
Commands and data go with writeto_mem, whose "memory address" byte is
exactly the SSD1306's I2C control byte (0x00 command stream, 0x40 data
stream), so no buffer is concatenated. What a prop shows on it is the
prop's business (its own scoreboard module).
"""
from micropython import const

ADDRESS = const(0x3C)
_CTRL_CMD = const(0x00)
_CTRL_DATA = const(0x40)


class SSD1306:
    """An SSD1306 OLED controller on I2C (internal charge pump), MONO_VLSB frame buffer."""

    def __init__(self, i2c, width: int = 128, height: int = 32, address: int = ADDRESS) -> None:
        if width not in (64, 96, 128) or height not in (16, 32, 64):
            raise ValueError("SSD1306 size %dx%d is not supported" % (width, height))
        import framebuf
        self._i2c = i2c
        self.address = address
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(width * self.pages)
        self.framebuf = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        # Column and page window over the whole display: one data burst fills it.
        self._window = bytes((0x21, 0, width - 1, 0x22, 0, self.pages - 1))
        self.init_display()

    def command(self, cmds) -> None:
        """Send command bytes (one command stream)."""
        self._i2c.writeto_mem(self.address, _CTRL_CMD, cmds)

    def init_display(self) -> None:
        """The power-on sequence from the SSD1306 datasheet's application note."""
        self.command(bytes((
            0xAE,                     # display off while configuring
            0xD5, 0x80,               # clock divide ratio / oscillator: the default
            0xA8, self.height - 1,    # multiplex ratio = rows
            0xD3, 0x00,               # no display offset
            0x40,                     # start line 0
            0x8D, 0x14,               # internal charge pump on
            0x20, 0x00,               # horizontal addressing: one burst fills the frame
            0xA1,                     # segment remap: column 127 is SEG0 (module mounting)
            0xC8,                     # COM scan from the top
            0xDA, 0x02 if self.height == 32 else 0x12,  # COM pins: sequential (32) / alternative
            0x81, 0x8F,               # contrast
            0xD9, 0xF1,               # pre-charge for the internal pump
            0xDB, 0x40,               # VCOMH deselect level
            0xA4,                     # show the RAM contents
            0xA6,                     # not inverted
        )))
        self.fill(0)
        self.show()
        self.power(True)

    def power(self, on: bool) -> None:
        """Panel on (0xAF) or off (0xAE, RAM kept)."""
        self.command(b"\xaf" if on else b"\xae")

    def contrast(self, level: int) -> None:
        """Contrast 0..255."""
        self.command(bytes((0x81, level & 0xFF)))

    def fill(self, colour: int) -> None:
        """Fill the frame buffer (not sent until show())."""
        self.framebuf.fill(colour)

    def text(self, text: str, x: int, y: int) -> None:
        """Draw text with framebuf's 8x8 font (not sent until show())."""
        self.framebuf.text(text, x, y, 1)

    def show(self) -> None:
        """Send the whole frame buffer to the display RAM."""
        self.command(self._window)
        self._i2c.writeto_mem(self.address, _CTRL_DATA, self.buffer)
