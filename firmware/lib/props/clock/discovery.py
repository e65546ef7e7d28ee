"""The ghost clock in Home Assistant (net.discovery): its main action, a button.

MAIN_ACTION = (command, button name, sensor value template or None for net.discovery's
STATE_VALUE, "can do it now" test): Jinja2 as Home Assistant renders it, over the prop's
PREFIX/ID/state document; keys read with .get() so the state's error form renders too.
Imported by name at a venue connect only (net.discovery.main_action).
"""
MAIN_ACTION = ("start_round", "Start round", None, "value_json.state.get('state') == 'idle'")
