"""Board entry point: kept thin on purpose (see firmware/lib/boot_app.py)."""
