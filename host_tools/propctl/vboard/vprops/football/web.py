"""The Finger Football box on the web page (web_bridge.Prop's part for it): its bench, its four
buttons, the OLED and the reports the game takes, in the players' words
(propctl/props/football/reports.py, put on the page's path as propctl.props.football.reports)."""
import json

from vprops.football.bench import FootballBench

BUTTONS = ("roll", "kick", "good", "miss")
MIN_PRESS_MS = 80  # a press the firmware's debounce surely sees


class PropWeb:
    def __init__(self, pack: str, seed: int, capacity: int, echo, entropy) -> None:
        settings = {"football": {"seed": seed}} if seed >= 0 else None
        self.bench = FootballBench(settings, capacity=capacity, echo=echo, entropy=entropy)
        self._down_at = 0   # board time a button went down

    def input(self, what: str, value: int) -> bool:
        """A button held (1) or let go (0); False for anything else."""
        if what not in BUTTONS:
            return False
        board = self.bench.board
        pin = self.bench.pins["btn_" + what]
        now = board.clock.elapsed
        if value:  # held until let go (a long ROLL after the final whistle: a new game)
            board.set_input(pin, 0)
            self._down_at = now
        else:      # a tap shorter than a frame still lasts long enough for the debounce
            board.schedule_input(max(now, self._down_at + MIN_PRESS_MS), pin, None)
        return True

    def fields(self, fields: dict) -> None:
        fields["names"] = self.bench.app.cfg["names"]  # the teams by name, as the sim says them

    def picture(self, reply: dict) -> None:
        from propctl.props.football import reports
        bench = self.bench
        reply["screen"] = bench.screen()
        state = self._state()
        reply["message"] = bench.app.game.state["message"]
        reply["counting"] = state["box"] == "counting"
        reply["roles"] = reports.button_roles(state, "hold it down")  # what each button does now
        # what the players may report now (over the link on a real table)
        reply["actions"] = state["actions"]
        reply["reports"] = self._entries(reports.reports(state))
        reply["play_note"] = reports.play_note(state)

    def _state(self) -> dict:
        app = self.bench.app
        actions = [[a[0], a[1], a[2]] for a in app.game.actions()]
        return {"phase": app.game.state["phase"], "actions": actions, "box": app.state}

    def reports(self, prefix_json: str) -> str:
        """The report entries once the words in the JSON list `prefix_json` of a pick (an
        announced play: its zone first) are chosen."""
        from propctl.props.football import reports
        prefix = tuple(json.loads(prefix_json))
        return json.dumps(self._entries(reports.reports(self._state(), prefix)))

    @staticmethod
    def _entries(entries) -> list:
        """reports' (label, line, needs) as the page takes them: {"label", "report": the report
        command's arguments or None, "needs": ["yards", action, lo, hi] or ["pick", action,
        [words chosen]] or None}."""
        from propctl.props.football import reports
        out = []
        for label, line, needs in entries:
            out.append({"label": label, "report": reports.report_args(line) if line else None,
                        "needs": list(needs) if needs else None})
        return out
