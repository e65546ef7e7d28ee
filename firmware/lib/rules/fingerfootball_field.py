"""Finger Football field model: zones, symbol rows, the two dice and play targets.

All positions are integer yards counted from the goal line that the team with
the ball defends: 0 is its own goal line, 50 midfield, 100 the goal line it
attacks. Each half of the field has three zones; Zone 3 is nearest the end
zone, Zone 1 nearest midfield. Along the field, seen from the offence:

    index   0      1      2      3      4      5
    zone    own3   own2   own1   opp1   opp2   opp3

The printed field is not reproduced yard by yard: every zone has one row of
symbols (left, middle, right; each a black run circle with a white pass circle
inside) at a fixed distance from its goal line. The default rows sit at the 20
(Zone 3), 30 (Zone 2) and 40 (Zone 1), a setting (`rows`). A zone reaches half
way to the next row; midfield (the 50) counts as the offence's own Zone 1.

Targets are strings so that they survive a JSON round trip unchanged:
"opp2 run left" (zone, run or pass, lane) or "touchdown".
"""

ZONE_NAMES = ("own3", "own2", "own1", "opp1", "opp2", "opp3")
ZONE_NUMBERS = (3, 2, 1, 1, 2, 3)
OWN3 = 0
OWN2 = 1
OPP2 = 4
OPP3 = 5

# The first die: which zone and whether the play is a run or a pass.
ZONE_FACES = ("1-run", "1-pass", "2-run", "2-pass", "3-run", "3-pass")
# The second die names five symbols; the sixth face is a setting (`lane_die`).
LANE_SYMBOLS = ("left", "middle", "right", "choice", "td")
DEFAULT_LANE_DIE = ("left", "middle", "right", "choice", "td", "choice")
DEFAULT_ROWS = (20, 30, 40)
LANES = ("left", "middle", "right")
KINDS = ("run", "pass")
TOUCHDOWN = "touchdown"


def check_rows(rows) -> None:
    """Raise ValueError unless `rows` are three rows 1..49 yards, Zone 3 first."""
    if len(rows) != 3:
        raise ValueError("the field needs three symbol rows (Zone 3, 2, 1), got %r" % (rows,))
    last = 0
    for row in rows:
        if not isinstance(row, int) or row <= last or row >= 50:
            raise ValueError("symbol rows must rise from 1 to 49 yards, got %r" % (rows,))
        last = row


def check_lane_die(faces) -> None:
    """Raise ValueError unless `faces` is a six-faced second die showing all five symbols."""
    if len(faces) != 6:
        raise ValueError("the second die has six faces, got %d" % len(faces))
    for face in faces:
        if face not in LANE_SYMBOLS:
            raise ValueError("unknown die face %r (faces: %s)" % (face, ", ".join(LANE_SYMBOLS)))
    for symbol in LANE_SYMBOLS:
        if symbol not in faces:
            raise ValueError("the second die must show %r on some face" % symbol)


def zone_of(yards: int, rows) -> int:
    """Zone index 0..5 of a spot `yards` from the offence's own goal line."""
    if yards > 50:
        return OPP3 - zone_of(100 - yards, rows)
    if yards * 2 < rows[0] + rows[1]:
        return OWN3
    if yards * 2 < rows[1] + rows[2]:
        return OWN2
    return 2


def row_yards(zone: int, rows) -> int:
    """Where the symbol row of zone index `zone` lies, from the offence's goal line."""
    if zone <= 2:
        return rows[zone]
    return 100 - rows[OPP3 - zone]


def yard_text(yards: int) -> str:
    """A spot as players say it: 'own 20', '50', 'opp 35'."""
    if yards == 50:
        return "50"
    if yards < 50:
        return "own %d" % yards
    return "opp %d" % (100 - yards)


def target_name(zone: int, kind: str, lane: str) -> str:
    """The target string for a symbol: e.g. 'opp2 pass left'."""
    return "%s %s %s" % (ZONE_NAMES[zone], kind, lane)


def target_zone(target: str) -> int:
    """Zone index of a symbol target (not for 'touchdown')."""
    return ZONE_NAMES.index(target.split(" ")[0])


def is_target(text) -> bool:
    """True for a well-formed target string."""
    if text == TOUCHDOWN:
        return True
    if not isinstance(text, str):
        return False
    parts = text.split(" ")
    return len(parts) == 3 and parts[0] in ZONE_NAMES and parts[1] in KINDS and parts[2] in LANES


def all_choices(zone: int) -> list:
    """Every play the offence may announce on CHOICE: each symbol ahead, or a touchdown."""
    out = []
    for ahead in range(zone + 1, OPP3 + 1):
        for kind in KINDS:
            for lane in LANES:
                out.append(target_name(ahead, kind, lane))
    out.append(TOUCHDOWN)
    return out


def targets_for_roll(zone: int, zone_face: str, lane_face: str) -> list:
    """The plays a roll allows from zone index `zone`; one entry means it is forced.

    TD forces a touchdown attempt and CHOICE overrides the zone die. In the
    opponent's Zone 2 anything but a Zone 3 roll gives choice. From the own
    Zone 3 a Zone 2 roll may go to either Zone 2. A slider may not stay in its
    zone or go back, so the zone rolled is the next one of that number ahead;
    when there is none ahead (Zone 1 rolled in the opponent's Zone 1) the
    offence gets choice too, as in the opponent's Zone 2.
    """
    if lane_face == "td":
        return [TOUCHDOWN]
    number = int(zone_face[0])
    kind = zone_face[2:]
    if lane_face == "choice" or (zone == OPP2 and number != 3):
        return all_choices(zone)
    ahead = [z for z in range(zone + 1, OPP3 + 1) if ZONE_NUMBERS[z] == number]
    if not ahead:
        return all_choices(zone)
    if zone == OWN3 and number == 2:
        return [target_name(z, kind, lane_face) for z in ahead]
    return [target_name(ahead[0], kind, lane_face)]
