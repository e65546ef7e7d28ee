"""The venue table with what a hostile or broken client may leave retained on the broker: ids in
wide letters or with combining accents, a state whose fields are null. Every row keeps its
columns (measured in terminal cells) and no line passes the screen's width."""
import json

from propctl.termtext import cells
from propctl.venue.view import Venue


class Message:
    def __init__(self, topic, payload, retain=True):
        self.topic, self.payload, self.retain = topic, payload, retain


def venue_with(*messages):
    venue = Venue("props")
    for topic, payload in messages:
        venue.on_message(None, None, Message(topic, payload))
    return venue


def test_wide_and_combining_ids_keep_the_columns():
    # Before: the id was cut to 14 characters, so 14 CJK letters took 28 cells and pushed the
    # row's other columns 14 cells right (and past 80)
    venue = venue_with(("props/" + "漢字" * 13 + "/status", b"online"),
                       ("props/" + "e\u0301" * 20 + "/status", b"online"),
                       ("props/plain/status", b"online"))
    lines = venue.table()
    rows = lines[2:]
    assert len(rows) == 3
    for row in rows:
        assert cells(row) <= 80, row
        # the status column starts at the same cell in every row
        assert cells(row[:row.index("online")]) == cells(lines[1][:lines[1].index("STATUS")]), row


def test_a_narrow_screen_cuts_rows_by_cells():
    venue = venue_with(("props/" + "漢" * 40 + "/status", b"online"))
    for line in venue.table(rows=10, columns=40):
        assert cells(line) <= 40, line


def test_a_state_with_null_fields_shows_question_marks_not_none():
    # Before: {"prop": null} showed the kind as Python's 'None'
    venue = venue_with(("props/x/state", json.dumps({"prop": None, "last_event": None,
                                                     "state": None}).encode()),
                       ("props/y/event", b'{"ev": null}'))
    for row in venue.table()[2:]:
        assert "None" not in row and row.split()[1] == "?", row
