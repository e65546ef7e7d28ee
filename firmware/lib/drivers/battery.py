"""Battery voltage from an ADC pin behind a resistor divider."""


class Battery:
    """Reads a pack's voltage in mV: ADC.read_u16() scaled by the board's full-scale mV and the divider.

    `divider` is battery volts per ADC-pin volt (2 for two equal resistors).
    """

    def __init__(self, adc, full_mv: int = 3300, divider: int = 2, samples: int = 4) -> None:
        self._adc = adc
        self.full_mv = full_mv
        self.divider = divider
        self.samples = samples if samples > 0 else 1

    def read_mv(self) -> int:
        """Average of a few readings, in millivolts at the battery."""
        total = 0
        i = 0
        while i < self.samples:
            total += self._adc.read_u16()
            i += 1
        # read_u16 is 0..65535; divide early so no product exceeds a small int.
        return (total // self.samples) * self.full_mv // 65535 * self.divider

    def ok(self, min_mv: int) -> bool:
        """True if the pack is at or above min_mv (min_mv 0 means: no check)."""
        return min_mv <= 0 or self.read_mv() >= min_mv
