"""What the Finger Football box is made of: its buttons, tones, states and settings section.

Shared by the box's control logic (props.football.app) and its build
(props.football); the events and the count are described in props.football.
"""
from micropython import const

BEAT_MS = const(1000)        # one "one thousand ..."
SAVE_VERSION = 1

ROLL = const(0)
KICK = const(1)
GOOD = const(2)
MISS = const(3)
BUTTON_NAMES = ("roll", "kick", "good", "miss")

# Piezo patterns: (freq_hz, ms, ...). The count's tones start on its beats. Every tone in a
# piezo's loud band (drivers.chime.PIEZO_LOW_HZ..PIEZO_HIGH_HZ).
GO_TONE = (3136, 150)
BEAT_TONE = (2349, 100)
END_TONE = (2093, 600)
REFUSED_TONE = (2000, 150)
# The box's sounds (the self-test plays each): (name, melody).
SOUNDS = (("go", GO_TONE), ("beat", BEAT_TONE), ("end", END_TONE), ("refused", REFUSED_TONE))

IDLE = "idle"
COUNTING = "counting"
FAULT = "fault"


def box_settings(settings) -> tuple:
    """(football section, errors): the config's "football" keys over the defaults.

    Unknown keys and values of the wrong type are named in errors and the
    default kept (settings.merge does the checking), so a bad config never
    stops the box.
    """
    # the settings module checks the section against the box's specs (settings_schema.py);
    # imported here, not at the top, so nothing holds it once the box is built (link.startup
    # forgets it: docs/heap.md)
    import settings as _settings
    given = settings.get("football") if settings is not None else None
    merged, errors = _settings.merge({"football": {} if given is None else given},
                                     {"football": _settings.section("football")})
    return merged["football"], errors
