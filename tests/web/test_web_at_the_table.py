"""The web page at a phone's size: a refusal beside the control that caused it
and announced (aria-live); the yard line says whose goal it counts from; disabled buttons keep
WCAG AA contrast; the fuse box shows the card's solution note after a round; the clock's hand
leaves the 12 readable.

Before: a refused report was only the last line of an oldest-first log, below the fold on a phone;
the yard field said "(1-99)" only; disabled football buttons were greyed with opacity 0.45; the
page never showed a solution note; the hand at rest covered the 12.
"""
import threading

import pytest
from test_web import PHONE, browser, football_step, opened, touch  # noqa: F401
from waits import WAIT_S

from propctl import web
from propctl.web.played import PageDeal

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dealt_server():
    """The page's server as `propctl web` runs it: the shipped English deck dealt, notes and all."""
    srv = web.make_server(0, deal=PageDeal("en"))
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def yards_entry(page):
    frame = page.evaluate("window.propFrame")
    for entry in frame["reports"]:
        if entry["needs"] and entry["needs"][0] == "yards":
            return entry
    return None


def test_a_refused_yard_line_is_said_beside_its_field_on_a_phone(browser, dealt_server):  # noqa: F811
    with opened(browser, dealt_server, "football", size=PHONE, query="&speed=4&seed=2") as page:
        page.wait_for("document.getElementById('oled').textContent.includes('HOME')", timeout=WAIT_S)
        for _ in range(10):  # the toss, kick or receive, the goal: then where the kickoff stopped
            if yards_entry(page):
                break
            count = page.evaluate("window.propEvents.length")
            football_step(page)
            page.wait_for("window.propEvents.length > %d" % count, timeout=WAIT_S)
            page.wait_for("!document.querySelector('#football button.held')", timeout=WAIT_S)
        entry = yards_entry(page)
        assert entry, page.evaluate("window.propFrame")
        action = entry["needs"][1]
        row = "document.getElementById('yards-%s').closest('.yards')" % action
        said = page.evaluate(row + ".textContent")
        assert "counted from the goal line of the team that gets the ball" in said, said
        assert "midfield" in said, said
        page.evaluate("document.getElementById('yards-%s').value = '150'" % action)
        touch(page, "#actions button[data-report=%s]" % action)
        page.wait_for("!!document.getElementById('refusal') && !document.getElementById('refusal').hidden",
                      timeout=WAIT_S)
        where = page.evaluate("""(() => {
          const refusal = document.getElementById('refusal').getBoundingClientRect();
          const field = document.getElementById('yards-%s').getBoundingClientRect();
          return {refusal: refusal.toJSON(), field: field.toJSON(), height: window.innerHeight,
                  live: document.getElementById('refusal').getAttribute('aria-live'),
                  text: document.getElementById('refusal').textContent};
        })()""" % action)
        assert "the yard line is a whole number 1 to 99" in where["text"], where
        assert where["live"] == "assertive"
        # in view without scrolling, the field too, and next to it (below its row, within 120 px)
        assert 0 <= where["refusal"]["top"] and where["refusal"]["bottom"] <= where["height"], where
        assert 0 <= where["field"]["top"] and where["field"]["bottom"] <= where["height"], where
        assert 0 <= where["refusal"]["top"] - where["field"]["bottom"] < 120, where
        # a report the box takes clears it
        page.evaluate("document.getElementById('yards-%s').value = '35'" % action)
        touch(page, "#actions button[data-report=%s]" % action)
        page.wait_for("!document.getElementById('refusal') || document.getElementById('refusal').hidden",
                      timeout=WAIT_S)


CONTRAST = """(() => {
  const lum = (rgb) => { const [r, g, b] = rgb.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number)
      .map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll('#football [data-input]')].filter(b => b.disabled).map(b => {
    const style = getComputedStyle(b);
    const small = getComputedStyle(b.querySelector('small'));
    const [hi, lo] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
    const [shi, slo] = [lum(small.color), lum(style.backgroundColor)].sort((x, y) => y - x);
    return {name: b.dataset.input, ratio: (hi + 0.05) / (lo + 0.05), small: (shi + 0.05) / (slo + 0.05),
            opacity: Number(style.opacity) * Number(small.opacity)};
  });
})()"""


def test_disabled_buttons_keep_wcag_aa_contrast(browser, dealt_server):  # noqa: F811
    with opened(browser, dealt_server, "football", size=PHONE) as page:
        page.wait_for("document.querySelectorAll('#football [data-input]:disabled').length > 0",
                      timeout=WAIT_S)
        found = page.evaluate(CONTRAST)
        assert found, "no disabled button to measure"
        for button in found:
            assert button["opacity"] == 1 and button["ratio"] >= 4.5 and button["small"] >= 4.5, found


def test_the_fuse_box_shows_the_cards_solution_after_the_round(browser, dealt_server):  # noqa: F811
    with opened(browser, dealt_server, "fusebox", size=PHONE) as page:
        touch(page, "[data-input=btn_next]")
        card = page.wait_for("window.propFrame.card", timeout=WAIT_S)
        assert page.evaluate("document.getElementById('card-note').hidden")
        touch(page, "#window%d" % card["bolt"])  # no game going: it opens at once, the fuse blows
        page.wait_for("!document.getElementById('card-note').hidden", timeout=WAIT_S)
        note = page.evaluate("document.getElementById('card-note').textContent")
        assert note.startswith("Solution: ") and len(note) > 20, note
        log = page.evaluate("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
        assert any("solution %s: " % card["id"] in line for line in log), log


def test_the_clock_hand_at_rest_leaves_the_12_readable(browser, dealt_server):  # noqa: F811
    with opened(browser, dealt_server, "clock", size=PHONE) as page:
        page.wait_for("window.propFrame", timeout=WAIT_S)
        boxes = page.evaluate("""(() => {
          const twelve = [...document.querySelectorAll('#numerals text')].find(t => t.textContent === '12');
          return {hand: document.getElementById('hand').getBoundingClientRect().toJSON(),
                  twelve: twelve.getBoundingClientRect().toJSON(),
                  turned: document.getElementById('hand').getAttribute('transform')};
        })()""")
        hand, twelve = boxes["hand"], boxes["twelve"]
        assert boxes["turned"] in (None, "rotate(0)"), boxes  # at rest, pointing at the 12
        assert hand["top"] >= twelve["bottom"], boxes
