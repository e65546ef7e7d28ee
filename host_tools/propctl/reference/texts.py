"""What each setting and link command does, in words: the one place the reference pages read them from.

The keys, types, ranges and defaults come from the code (settings.SCHEMA, the
command tables); only the sentence for a person lives here.
tests/test_reference_docs.py fails when a setting or command has no sentence
here, or a sentence names one that does not exist.
"""

# config.json key (dotted for a prop's section) -> what it does
SETTINGS = {
    "prop": "which prop this board is",
    "board": "the board profile: its pins and limits ([pins.md](pins.md)); the Pico W, "
             "Pico 2 and Pico 2 W are wired like the Pico",
    # the ghost clock
    "clock.motor": "`dc`: a gear motor on an H-bridge; `stepper`: a 28BYJ-48 on a ULN2003",
    "clock.bridge": "the H-bridge of the DC motor",
    "clock.chime": "`piezo`: the bell melody on one PWM; `solenoid`: a solenoid striking a real bell",
    "clock.seed": "a number: the same round every time; `null`: a fresh round every time",
    "clock.max_run_ms": "lowers the firmware's 120 s hard cap on a round (0 would mean no cap: refused)",
    "clock.motor_rated_mv": "the DC motor's rated voltage: full speed puts this on the motor on "
                            "average, on a fresh or a flat pack (the duty follows the pack)",
    "clock.supply_mv": "the pack's voltage where it is not measured (`battery_min_mv` 0): a fresh "
                       "3 x AA's, so the motor is never over-driven",
    "clock.motor_max_permille": "a further cap on the duty, as a share of the pack's voltage",
    "clock.ramp_ms": "the time for a full-scale speed change",
    "clock.dwell_ms": "the braked pause before any reversal; also the longest the motor (the "
                      "stepper's coils) stays energised after a stop",
    "clock.stepper_steps_per_s": "stepper only: half-steps per second at full speed (a 28BYJ-48 on "
                                 "3 x AA misses steps near 500)",
    "clock.battery_min_mv": "refuse to start a round below this pack voltage (3 x NiMH: about 3300); "
                            "set, the pack is also read every 2 s while the hand turns, for the "
                            "motor's voltage; 0: no divider wired",
    "clock.battery_divider_permille": "battery volts per ADC-pin volt x 1000 (2000 for 100k/100k; "
                                      "100k over 47k is 3128); 0: the divider the board's wiring "
                                      "table wires (3128 on an ESP32 DevKitC, else 2000)",
    "clock.debounce_ms": "button debounce (a press is longer, a bounce shorter)",
    "clock.long_press_ms": "holding the button this long while the hand turns is the emergency stop",
    "clock.watchdog_ms": "watchdog timeout (the board profile may lower it); 0: no watchdog",
    "clock.limits": "overrides for `rules.geisteruhr.DEFAULT_LIMITS` (round length, speeds, "
                    "pauses), checked by the rules core",
    # the fuse box
    "fusebox.inputs": "window sensors on 8 GPIOs (`gpio`) or on an MCP23017 (`mcp23017`)",
    "fusebox.mcp_address": "I2C address of the MCP23017 (32..39 = 0x20..0x27, set by A0-A2)",
    "fusebox.open_when_active": "false: the sensor is closed while its window is shut (reed and "
                                "magnet); true for a microswitch pressed by the open slider",
    "fusebox.scan_ms": "sensor scan period",
    "fusebox.debounce_ms": "a sensor state counts once it has been stable this long",
    "fusebox.flicker_ms": "a sensor never stable this long gives a `sensor_fault` (flicker)",
    "fusebox.stuck_open_ms": "a window read open at every scan this long gives a `sensor_fault` "
                             "(stuck_open: a broken wire or a lost magnet); 0: off",
    "fusebox.pack": "the task-card pack; `null`: `cards/taskcards.bin`, where `propctl deploy "
                    "--cards` puts it; `\"\"` or a missing or damaged file: manual mode",
    "fusebox.relay": "also pulse the relay output when the fuse blows",
    "fusebox.relay_ms": "how long the relay pulse lasts",
    "fusebox.watchdog_ms": "watchdog timeout (the board profile may lower it); 0: no watchdog",
    # the football box
    "football.display": "`oled` (SSD1306 on I2C) or `leds` (the LED fallback)",
    "football.oled_height": "the OLED's rows",
    "football.oled_address": "the OLED's I2C address: 60 = 0x3C (some modules are 61 = 0x3D)",
    "football.debounce_ms": "button debounce",
    "football.long_press_ms": "holding ROLL this long after the final whistle starts a new game",
    "football.seed": "a number: the same coin and dice every game; `null`: fresh every game",
    "football.plays_per_quarter": "plays per quarter (fewer: a shorter game)",
    "football.quarters": "quarters per game (halves need an even number)",
    "football.names": "the two team names on the display",
    "football.watchdog_ms": "watchdog timeout (the board profile may lower it); 0: no watchdog",
    # venue mode (docs/venue.md)
    "net.ssid": "the Wi-Fi to join; `\"\"`: the network is already up (the unix port, a wired board)",
    "net.password": "the Wi-Fi password; never shown, also not in an error message",
    "net.broker": "the MQTT broker's IP address or host name ([venue.md](../venue.md)); `\"\"`: "
                  "no venue mode (the network code is not even loaded)",
    "net.port": "the broker's port",
    "net.user": "the broker user (the prop's id in the broker's ACL); `\"\"`: connect without one",
    "net.broker_password": "that user's password; never shown",
    "net.tls": "TLS to the broker (`mqtts`, port 8883 as a rule): the broker's certificate is checked "
               "against the CA in `net.ca` and its name against `net.broker`; never falls back to clear text",
    "net.ca": "the file on the board's flash with the CA certificate (PEM) that signed the broker's",
    "net.prefix": "the first topic level: topics are PREFIX/ID/event, state, status, cmd, reply",
    "net.id": "the prop's id in the venue; `\"\"`: the prop's name (`clock`, ...)",
    "net.keepalive_s": ("MQTT keep-alive: the broker marks a prop that went silent offline within 1.5 "
                        "times this; the prop pings after 7 s idle (or half of this, if shorter)"),
    "net.discovery": "announce the prop to Home Assistant (MQTT discovery); `false`: remove what "
                     "it announced before (an empty retained config at each connect)",
    "net.discovery_prefix": "Home Assistant's discovery prefix (its MQTT setting of that name)",
}

# group -> command -> what it does. Groups: "builtin" (the link's own), "run" (every running
# prop), "idle" (safe and maintenance mode), "selftest" (every prop, `propctl selftest`),
# then one per prop.
COMMANDS = {
    "builtin": {
        "hello": "identity: firmware and protocol version, prop, board, mode (run, safe, "
                 "maintenance), the commands it takes (`caps`) and any config errors",
        "ping": "answers `{\"pong\": true}`",
        "help": "the command table: every command and its argument schema",
    },
    "run": {
        "maintenance": "reboot with no prop and no watchdog, for `propctl deploy` or `propctl repl`",
        "mem": "the heap after a collection: `free` and `used` bytes",
    },
    "idle": {
        "why": "safe mode: the error of the last crash and any config problems",
        "leave": "clear safe or maintenance mode and reset: the prop runs again",
    },
    "selftest": {
        "selftest_begin": "stop the prop and list the wiring test's outputs and inputs",
        "selftest_output": "run one output step (motor, chime, LED, relay) through the prop's drivers",
        "selftest_inputs": "the inputs' changes seen since the last call",
        "selftest_end": "end the self-test: the board resets and the prop runs again",
    },
    "clock": {
        "start_round": "start a round, as the start button does; `seed` plays that seed's round",
        "stop": "emergency stop: braked at once, no chime",
        "state": "the hand and the saved game",
        "new_game": "a new game for `players` players",
        "report": "score the round: ghosts on the clock and unused, one count per player in "
                  "order; the reply names the winners as players 1-n",
    },
    "fusebox": {
        "select_card": "put the card with this id in the box",
        "next_card": "the next card of the pack, as the NEXT button",
        "prev_card": "the previous card, as the PREV button",
        "bolt": "manual mode: the bolt is in the window just opened, as the BOLT button",
        "new_game": "a new Finger weg! game for `players` players",
        "report_choices": "the players (1-n) who showed the bolt side for the oldest opened "
                          "window not yet reported; the reply is the rules core's score",
        "state": "the box (windows, card, lights) and the game",
    },
    "football": {
        "roll": "roll the two dice (or the coin at the toss); `zone` and `lane`: the faces of "
                "real dice",
        "kick_start": "start the three-second field-goal count, as the KICK button",
        "report": "what the buttons cannot say: `action` (e.g. `in_field` with `yards`, "
                  "`target` with `pick`)",
        "state": "the box and the game, with the game's settings (`propctl play fingerfootball "
                 "--port` restores the game from it)",
        "new_game": "a new game; `seed`: the same coin and dice as that seed",
    },
}
