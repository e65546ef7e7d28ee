"""Card packs: a compact binary deck the board reads one card at a time by seeking."""
