"""Card decks on the desktop: load CSV/JSON, check, pack, show (placeholder, filled in below)."""
