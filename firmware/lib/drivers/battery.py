"""Battery voltage from an ADC pin behind a resistor divider."""
from micropython import const

# A pack that reads below this is switched off or not connected (no cell chemistry a prop
# runs on is this low and still turns a motor): the divider's ADC pin sits near 0 V.
OFF_MV = const(1000)
_READ_MARGIN = const(32)


def motor_supply_mv(reading: int, fallback_mv: int) -> int:
    """The supply a voltage-compensated motor is told for a pack reading of `reading` mV.

    1/32 more than the reading: a divider of 1 % resistors and the ADC (the Pico's
    reference is its 3V3 rail; the ESP32's calibrated read_uv) may each read a percent or
    two low, and a low reading would put more than the rated voltage on the motor. A pack
    that reads switched off (below OFF_MV) gives `fallback_mv`, the configured supply: a
    broken divider wire must not mean full duty on a fresh pack. No allocation.
    """
    return reading + reading // _READ_MARGIN if reading >= OFF_MV else fallback_mv


class Battery:
    """Reads a pack's voltage in mV through a divider on an ADC pin.

    `divider_permille` is battery volts per ADC-pin volt, x 1000 (2000 for two
    equal resistors; 3128 for 100k over 47k: 147/47): any divider, not only whole ones.
    `use_uv`: read ADC.read_uv(), the port's calibrated microvolts (the ESP32
    port corrects each chip's reference from its eFuse; an uncalibrated
    read_u16() with a fixed full scale is off by up to ~8 % from chip to
    chip). Without read_uv on the port, or on a board whose read_uv is not
    calibrated, read_u16() is scaled by `full_mv`.
    """

    def __init__(self, adc, full_mv: int = 3300, divider_permille: int = 2000, samples: int = 4,
                 use_uv: bool = False) -> None:
        if divider_permille < 1000:
            raise ValueError("divider_permille must be at least 1000 (battery volts per pin volt x 1000)")
        self._adc = adc
        self.full_mv = full_mv
        self.divider_permille = divider_permille
        self.samples = samples if samples > 0 else 1
        self.use_uv = use_uv and hasattr(adc, "read_uv")

    def read_mv(self) -> int:
        """Average of a few readings, in millivolts at the battery."""
        total = 0
        i = 0
        if self.use_uv:
            while i < self.samples:
                total += self._adc.read_uv() // 1000  # mV at the pin: no sum nears 2^30
                i += 1
            pin_mv = total // self.samples
        else:
            while i < self.samples:
                total += self._adc.read_u16()
                i += 1
            # read_u16 is 0..65535; divide early so no product exceeds a small int.
            pin_mv = (total // self.samples) * self.full_mv // 65535
        return pin_mv * self.divider_permille // 1000

    def ok(self, min_mv: int) -> bool:
        """True if the pack is at or above min_mv (min_mv 0 means: no check)."""
        return min_mv <= 0 or self.read_mv() >= min_mv


def on_pin(machine, pin, divider_permille: int, limits: dict) -> Battery:
    """A Battery on ADC pin `pin` (a profile's battery_adc) with a board's limits (boardprofiles.limits).

    machine: the machine module (injected). The ADC gets the 11 dB attenuation where the
    port has one (ESP32: the range up to ~3.1 V); read_uv is used where limits say it is
    calibrated.
    """
    atten = getattr(machine.ADC, "ATTN_11DB", None)
    adc_pin = machine.Pin(pin)
    adc = machine.ADC(adc_pin, atten=atten) if atten is not None else machine.ADC(adc_pin)
    return Battery(adc, full_mv=limits["adc_full_mv"], divider_permille=divider_permille,
                   use_uv=limits["adc_read_uv"])
