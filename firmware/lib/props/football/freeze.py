# What this prop needs frozen into an image besides its own folder (firmware/manifest.py reads
# these two literals with ast on the desktop; nothing imports this module on a board).
# RULES: files of lib/rules/ (its __init__.py is always frozen); CARDPACK: files of
# lib/cardpack/ (none from any frozen prop: the package stays out).
RULES = ("rng.py", "fingerfootball.py", "fingerfootball_field.py")
CARDPACK = ()
