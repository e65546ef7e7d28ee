"""The football box in Home Assistant (net.discovery): its main action, a button.

MAIN_ACTION = (command, button name, sensor value template or None for net.discovery's
STATE_VALUE, "can do it now" test): Jinja2 as Home Assistant renders it, over the prop's
PREFIX/ID/state document; keys read with .get() so the state's error form renders too.
The sensor shows the game's phase, or "counting" during the field-goal count.
Imported by name at a venue connect only (net.discovery.main_action).
"""
MAIN_ACTION = ("roll", "Roll the dice",
               "{% set s = value_json.state %}{{ 'error' if 'error' in s else ('counting'"
               " if s.get('box') == 'counting' else s.get('phase', 'error')) }}",
               "value_json.state.get('box', 'counting') != 'counting' and ('roll' in"
               " value_json.state.get('actions', []) or 'toss' in value_json.state.get('actions', []))")
