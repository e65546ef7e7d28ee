# The prop contract, in code: what runtime.Runtime, selftest and link.startup use of a prop's app.
#
# A stub only (no .py: nothing of it goes onto a board, MicroPython has no `typing`). mypy
# (`make typecheck`, the firmware pass) checks each prop's build() against PropApp, and the
# runtime and the self-test's Gate against what they need. Firmware modules name these
# types behind `TYPE_CHECKING = False` / `if TYPE_CHECKING:` (mypy reads the import, a
# board never runs it). Every part is required: no hasattr/getattr for a prop's parts.
from typing import Any, Callable, Protocol

class Runnable(Protocol):
    """What runtime.Runtime runs: the app, or the self-test's Gate around it."""
    tick_ms: int  # the longest wait between two ticks

    def tick(self, now: int) -> None: ...
    def wait_ms(self, now: int) -> int: ...  # until the next deadline (tick_ms when there is none)
    def flash_ok(self, now: int) -> bool: ...  # a flash stall harms nothing now
    def shutdown(self) -> None: ...  # every output safe; called on every exit
    def fault(self, exc: BaseException) -> None: ...  # after shutdown, when tick raised: say so

class Linked(Runnable, Protocol):
    """What link.startup links and the venue serves: the link's commands and the boot's notes."""
    config_errors: list  # settings refused at boot, each one line for the boot's config_error events

    def commands(self) -> dict: ...  # name -> (function, argument schema)

class PropApp(Linked, Protocol):
    """What props.<name>.build(settings, on_event, store) returns."""
    on_event: Callable[[str, dict], Any]  # the event sink (link.event on a board); replaceable
    store: Any  # the store.Store the game is saved to, or None

    def snapshot(self) -> dict: ...  # the state, as the link's `state` command reports it
