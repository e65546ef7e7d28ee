"""A model of the MCP23017 16-bit I2C port expander, for board.i2c_devices.

    chip = FakeMcp23017()
    board.i2c_devices[0x20] = chip
    chip.drive(3, 0)        # something pulls GPA3 low (a closed switch to GND)
    chip.release(3)         # let it float: it reads its pull-up if GPPU enables one, else 0
    chip.power_off()        # it stops answering (every access raises OSError, as a NACK does)
    chip.power_on()         # back, with every register at its power-on value (set-up lost)
    chip.power_cycle()      # a brown-out between two accesses: registers reset, no bus error

Registers as after power-on with IOCON.BANK = 0 (A/B pairs side by side);
a multi-byte access moves on to the next register, as the chip's address
pointer does. Modelled: IODIR (an output pin reads its OLAT bit), IPOL,
GPPU, GPIO (reads the pin levels, with IPOL applied), OLAT. Others read and
write as plain memory.

GPA7 and GPB7 (pins 7 and 15) are output-only in Microchip's datasheet
(DS20001952 rev D: a changing input there can corrupt SDA during a read), so
drive() refuses them: wiring a sensor there is a wiring error.
"""

IODIRA = 0x00
IPOLA = 0x02
GPPUA = 0x0C
GPIOA = 0x12
OLATA = 0x14


class FakeMcp23017:
    """Register model (see the module docstring)."""

    def __init__(self) -> None:
        self.regs = bytearray(0x16)
        self.powered = True
        self.power_on()
        self.driven = 0           # pins something outside drives
        self.levels = 0           # their levels
        self.reads = 0            # GPIO reads (one per scan)

    def power_on(self) -> None:
        """Power returns: every register at its power-on value, answering again."""
        regs = self.regs
        i = 0
        while i < len(regs):
            regs[i] = 0
            i += 1
        regs[IODIRA] = 0xFF  # every pin an input, no pull-ups
        regs[IODIRA + 1] = 0xFF
        self.powered = True

    def power_off(self) -> None:
        """Power lost: the chip answers nothing until power_on()."""
        self.powered = False

    def power_cycle(self) -> None:
        """A brown-out too short for any bus access to fail: only the registers tell."""
        self.power_on()

    def _answer(self) -> None:
        if not self.powered:
            raise OSError(19)  # ENODEV: no ACK, as machine.I2C reports it

    def _pair(self, reg: int) -> int:
        return self.regs[reg] | (self.regs[reg + 1] << 8)

    def drive(self, pin: int, level: int) -> None:
        """Something outside holds pin 0..15 at `level` (ValueError for GPA7/GPB7)."""
        if pin == 7 or pin == 15:
            raise ValueError("MCP23017 %s is output-only: no sensor may drive it"
                             % ("GPA7" if pin == 7 else "GPB7"))
        bit = 1 << pin
        self.driven |= bit
        self.levels = (self.levels | bit) if level else (self.levels & ~bit)

    def release(self, pin: int) -> None:
        """Nothing drives the pin any more."""
        self.driven &= ~(1 << pin)

    def pins(self) -> int:
        """What the 16 pins read: an output its OLAT bit; an input the driven level,
        else the pull-up if enabled, else 0."""
        pulled = self._pair(GPPUA)
        inputs = self._pair(IODIRA)
        outside = (self.levels & self.driven) | (pulled & ~self.driven)
        return ((outside & inputs) | (self._pair(OLATA) & ~inputs)) & 0xFFFF

    def _read(self, reg: int) -> int:
        if reg == GPIOA or reg == GPIOA + 1:  # no tuple: scans run with the heap locked
            value = self.pins() ^ self._pair(IPOLA)
            return (value >> 8) & 0xFF if reg & 1 else value & 0xFF
        return self.regs[reg] if reg < len(self.regs) else 0

    def readfrom_mem_into(self, reg: int, buf) -> None:
        self._answer()
        if reg <= GPIOA < reg + len(buf):
            self.reads += 1
        i = 0
        while i < len(buf):
            buf[i] = self._read(reg + i)
            i += 1

    def writeto_mem(self, reg: int, data) -> None:
        self._answer()
        i = 0
        while i < len(data):
            if reg + i < len(self.regs) and reg + i != GPIOA and reg + i != GPIOA + 1:
                self.regs[reg + i] = data[i]
            i += 1
