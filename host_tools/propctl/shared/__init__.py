"""The firmware's packages the desktop shares, installed inside propctl.

    propctl.shared.rules     firmware/lib/rules     the rules cores (on the board: /lib/rules)
    propctl.shared.cardpack  firmware/lib/cardpack  the card-pack reader (/lib/cardpack)
    propctl.shared.link      firmware/lib/link      the serial link protocol (/lib/link)

The same files as on the board, mapped here by pyproject.toml's package-dir: this folder holds
only this file. On the board they are top-level packages; on the desktop they live under this
one name of the project's, so an install claims no generic top-level name in site-packages
(`rules` is also a PyPI package). Desktop code imports them only by these names: one name per
module, one module object. Inside a package the firmware imports its own modules relatively
(`from .rng import Rng`), which works under both names.
"""
