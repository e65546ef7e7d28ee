"""A fake `machine` module for the MicroPython unix port, backed by vboard.current().

Put this folder on MICROPYPATH before the firmware: `import machine` then
finds this file instead of the unix port's tiny built-in module. Provides
Pin, PWM, ADC, I2C, Timer, WDT, unique_id, reset, freq, idle and the IRQ
helpers, as far as the props need them. Every output change is recorded by
the board with its virtual time (see vboard.py).
"""
import vboard


class Pin:
    """A GPIO. Output writes are recorded; inputs read the board's forced level or their pull."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs) -> None:
        self.id = id
        self._board = vboard.current()
        self._sig = self._board.signal(str(id))
        self._mode = Pin.IN
        self._pull = None
        self._level = 0
        self._driven = False
        self._board.outputs.append(self)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs) -> None:
        """Change mode, pull and (for outputs) level."""
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        """Read the pin, or write it (recorded when the level changes)."""
        if v is None:
            if self._mode == Pin.OUT and self._driven:
                return self._level
            if self._board.world is not None:
                self._board.world.poll()  # a served board's switches and hand (world.py)
            forced = self._board.inputs.get(self.id)
            if forced is not None:
                return forced
            return 1 if self._pull == Pin.PULL_UP or self.id in self._board.pulled_up else 0
        level = 1 if v else 0
        if not self._driven or level != self._level:
            # record first: a write that raises (fault injection) did not happen
            self._board.record(self._sig, level)
            self._level = level
            self._driven = True
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def high(self) -> None:
        self.value(1)

    def low(self) -> None:
        self.value(0)

    def irq(self, handler=None, trigger=0, **kwargs):
        """Accepted and stored; the vboard does not fire pin IRQs (props poll)."""
        self._irq = handler
        return None

    def _float(self) -> None:
        if self._driven:
            self._driven = False
            self._level = 0
            self._board.record(self._sig, -1)


class PWM:
    """A PWM output: duty_u16 and freq changes are recorded."""

    def __init__(self, pin, freq=None, duty_u16=None, **kwargs) -> None:
        if not isinstance(pin, Pin):
            pin = Pin(pin, Pin.OUT)
        self.pin = pin
        self._board = vboard.current()
        self._duty_sig = self._board.signal(str(pin.id) + ".duty")
        self._freq_sig = self._board.signal(str(pin.id) + ".freq")
        self._duty = -1
        self._freq = 0
        self._board.outputs.append(self)
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        """Read or set the frequency in Hz."""
        if value is None:
            return self._freq
        if value < 1:
            raise ValueError("freq must be at least 1 Hz")
        if value != self._freq:
            self._board.record(self._freq_sig, value)
            self._freq = value
        return None

    def duty_u16(self, value=None):
        """Read or set the duty, 0..65535."""
        if value is None:
            return self._duty if self._duty >= 0 else 0
        if value < 0 or value > 65535:
            raise ValueError("duty_u16 must be 0..65535")
        if value != self._duty:
            self._board.record(self._duty_sig, value)
            self._duty = value
        return None

    def deinit(self) -> None:
        """Stop the PWM (recorded as duty 0)."""
        self.duty_u16(0)

    def _float(self) -> None:
        if self._duty > 0:
            self._duty = -1
            self._board.record(self._duty_sig, -1)


class ADC:
    """An ADC pin: read_u16 scales the board's millivolts for that pin by board.adc_full_mv.

    A pin without millivolts of its own (board.adc_mv) reads the battery pack
    through the divider: board.battery_mv * 1000 // board.battery_divider_permille.
    """

    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3

    def __init__(self, pin, atten=None, **kwargs) -> None:
        self.id = pin.id if isinstance(pin, Pin) else pin
        self._board = vboard.current()

    def _mv(self) -> int:
        board = self._board
        mv = board.adc_mv.get(self.id)
        return mv if mv is not None else board.battery_mv * 1000 // board.battery_divider_permille

    def read_u16(self) -> int:
        mv = self._mv()
        raw = mv * 65535 // self._board.adc_full_mv
        return 0 if raw < 0 else (65535 if raw > 65535 else raw)

    def read_uv(self) -> int:
        return self._mv() * 1000

    def atten(self, value) -> None:
        pass


class I2C:
    """An I2C bus; devices are objects in board.i2c_devices keyed by address."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000, **kwargs) -> None:
        self._board = vboard.current()

    def _device(self, addr):
        device = self._board.i2c_devices.get(addr)
        if device is None:
            raise OSError(19)  # ENODEV, as a real bus reports a missing ACK
        return device

    def scan(self) -> list:
        return sorted(self._board.i2c_devices)

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8) -> None:
        # no **kwargs: building that dict would allocate in heap-locked switch scans
        self._device(addr).readfrom_mem_into(memaddr, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, **kwargs) -> bytes:
        buf = bytearray(nbytes)
        self._device(addr).readfrom_mem_into(memaddr, buf)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, **kwargs) -> None:
        self._device(addr).writeto_mem(memaddr, buf)


class Timer:
    """Accepts init/deinit; the vboard never fires timer callbacks (props are ticked by runtime.Runtime)."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kwargs) -> None:
        self.callback = kwargs.get("callback")

    def init(self, **kwargs) -> None:
        self.callback = kwargs.get("callback")

    def deinit(self) -> None:
        self.callback = None


class WDT:
    """A watchdog: board.check_watchdog() resets the board when feed() came too late."""

    def __init__(self, id=0, timeout=5000) -> None:
        self._board = vboard.current()
        self._board.wdt_timeout = timeout
        self._board.wdt_fed_at = self._board.clock.now()

    def feed(self) -> None:
        self._board.wdt_fed_at = self._board.clock.now()


def unique_id() -> bytes:
    """b"vboard01", or $VBOARD_UID (a board of its own for each virtual prop on one broker)."""
    from time import host_env
    uid = host_env("VBOARD_UID")
    return uid.encode() if uid else b"vboard01"


def reset() -> None:
    """Reset the board: outputs float, and the running program ends (SystemExit)."""
    vboard.current().reset("machine.reset")
    import os
    if os.getenv("VBOARD_RESET_KILLS"):
        # propctl sim --serve: end the process (SystemExit would only reach the
        # REPL of `micropython -i`); the server boots main.py again, as a board does
        os.system("kill -9 $PPID")
    raise SystemExit("machine.reset()")


def soft_reset() -> None:
    reset()


def freq(hz=None):
    return 125000000 if hz is None else None


def idle() -> None:
    pass


def disable_irq() -> int:
    return 0


def enable_irq(state=0) -> None:
    pass
