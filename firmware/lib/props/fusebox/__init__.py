"""The Finger weg! fuse box: 8 window sensors, the card in the box, a fuse that blows.

FuseBoxApp is a tickable state machine: `tick(now_ms)` scans the window
sensors and buttons and drives the buzzer, the lights and the relay, so
tests run it in virtual time and the board only runs it in runtime.Runtime:

    app = build(settings, on_event)       # drivers on the board profile's pins, the pack
    Runtime(app).run()                    # what main.py does (runtime.py), with the link

Modes: "pack" when a task-card pack loaded and verified (the box knows every
card's bolt window), else "manual" (missing or damaged pack: the box still
reports windows, and the bolt button says "the bolt is in the window just
opened"). Box states: idle (no card in play), round (a card accepted),
blown (the bolt window was opened; idle again once every window is shut).

A card is chosen by id (select_card), or with next/prev (buttons or link);
it is accepted only when all windows are closed, else the box signals which
window is open (red blinks: its number, top window = 1) and accepts the card
as soon as the last window closes. In manual mode a round starts whenever
all windows are closed.

Commands for the link: select_card(card), next_card(), prev_card(), bolt(),
new_game(players), report_choices(away), state(). Events to
`on_event(name, fields)`: window, card, safe, fuse_blown, windows_not_closed,
sensor_fault (window -1, fault "i2c": the MCP23017 stopped answering), mode,
pack_error, scored. On the link (commands, replies, events) windows are
1..8 (top first, as printed on the box) and players 1..n; rules.fingerweg
counts both from 0 inside, and this module and props.fusebox.commands convert at
the edge. The fields dicts of the tick's events are allocated once and
reused: copy them to keep them.

The game (rules.fingerweg.Game, started with new_game) gets one round per
accepted card; report_choices feeds it the discs for the oldest window not
yet reported and returns the rules core's result. Game and selected card are
saved with store.Store after every change (a round cut short by a power cut
is dropped; its points already reported stay).
"""
# The prop contract is this module: STATE_FILE and build(). Nothing heavy is imported at the
# top, so a module of the package (props.fusebox.cards, .wiring) can be imported on its own;
# the box's logic is props.fusebox.app, its card slot .cards, its wiring .wiring.
STATE_FILE = "fusebox_state.json"  # the game, saved on the board's flash

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: build() is checked against the prop contract (props/contract.pyi)
    from props.contract import PropApp


def build(settings, on_event=None, store=None, pack_stream=None) -> "PropApp":
    """A FuseBoxApp on the pins of settings["board"]'s fusebox profile, with its pack (the prop contract).

    store: a store.Store for the game and card (None: nothing saved);
    `pack_stream` replaces the pack file. Raises OSError when the configured
    MCP23017 does not answer.
    """
    import machine
    from drivers.sensorwatch import SensorWatch
    from drivers.switches import Switches

    from props.fusebox.app import FuseBoxApp
    from props.fusebox.cards import open_pack
    from props.fusebox.constants import ALL_WINDOWS, BLOWN_SOUND
    from props.fusebox.wiring import FuseBoxWiring
    from rules.fingerweg import WINDOWS
    cfg = settings["fusebox"]
    wiring = FuseBoxWiring(machine, settings)
    pins = wiring.pins
    source = wiring.windows()
    if wiring.on_expander():
        try:
            source.enable_pullups()
        except OSError:
            raise OSError("no MCP23017 answers at I2C address 0x%02x: check SDA, SCL, power and A0-A2"
                          % cfg["mcp_address"]) from None
    debounce = cfg["debounce_ms"]
    watch = SensorWatch(source, WINDOWS, debounce, cfg["flicker_ms"], cfg["stuck_open_ms"],
                        open_bits=ALL_WINDOWS if cfg["open_when_active"] else 0)
    windows = Switches(watch, WINDOWS, debounce_ms=debounce, long_press_ms=0)
    buttons = Switches(wiring.buttons(), 3, debounce_ms=debounce, long_press_ms=0)
    chime = pins.piezo(BLOWN_SOUND)
    relay = wiring.relay()
    from cardpack.taskcard import PACK_PATH
    pack_path = cfg["pack"] if cfg["pack"] is not None else PACK_PATH  # null: where deploy puts it
    pack, error = open_pack(pack_path, pack_stream)
    return FuseBoxApp(windows, chime, pins.led("led_red"), pins.led("led_green"), relay,
                      watch=watch, buttons=buttons, settings=settings, on_event=on_event, pack=pack,
                      pack_error=error, pack_path=pack_path, store=store)
