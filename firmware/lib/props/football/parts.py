"""What the Finger Football box is made of: its buttons, tones, states and settings section.

Shared by the box's control logic (props.football.app) and its build
(props.football); the events and the count are described in props.football.
"""
import settings as _settings
from micropython import const

BEAT_MS = const(1000)        # one "one thousand ..."
STATE_FILE = "football_state.json"
SAVE_VERSION = 1

ROLL = const(0)
KICK = const(1)
GOOD = const(2)
MISS = const(3)
BUTTON_NAMES = ("roll", "kick", "good", "miss")

# Piezo patterns: (freq_hz, ms, ...). The count's tones start on its beats.
GO_TONE = (1568, 150)
BEAT_TONE = (1175, 100)
END_TONE = (784, 600)
REFUSED_TONE = (220, 150)

IDLE = "idle"
COUNTING = "counting"
FAULT = "fault"

# Box settings (the "football" section of config.json) and their defaults.
# The box's own settings section ("football" in config.json); kept with the
# other props' sections so one merge checks them all.
DEFAULTS: dict = _settings.DEFAULTS["football"]  # type: ignore[assignment]

def box_settings(settings) -> tuple:
    """(football section, errors): the config's "football" keys over DEFAULTS.

    Unknown keys and values of the wrong type are named in errors and the
    default kept (settings.merge does the checking), so a bad config never
    stops the box.
    """
    given = settings.get("football") if settings is not None else None
    if given is None:
        return dict(DEFAULTS), []
    merged, errors = _settings.merge({"football": given})
    return merged["football"], errors
