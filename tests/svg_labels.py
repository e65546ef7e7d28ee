"""The boxes the text labels of an SVG take, estimated from their font size, for overlap checks.

A sans-serif glyph is at most about 0.6 em wide on average (DejaVu Sans, the widest of the usual
fonts, averages about 0.55 em over these labels' letters), the ink about 0.8 em above the baseline
and 0.2 em below it: two labels whose boxes meet would print over each other."""
import html
import re

EM_WIDTH = 0.6


def label_boxes(svg: str) -> list:
    """[(text, left, top, right, bottom)] of every <text> element (tspans joined)."""
    found = re.search(r'<svg[^>]*\bfont-size="([\d.]+)"', svg)
    default_size = float(found.group(1)) if found else 16.0
    boxes = []
    for m in re.finditer(r"<text([^>]*)>(.*?)</text>", svg, re.S):
        attrs, body = m.group(1), html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))

        def attr(name, default=None, attrs=attrs):
            got = re.search(r'\b%s="([^"]*)"' % name, attrs)
            return got.group(1) if got else default

        x, y = float(attr("x", "0")), float(attr("y", "0"))
        size = float(attr("font-size", default_size))
        width = len(body) * size * EM_WIDTH
        anchor = attr("text-anchor", "start")
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        boxes.append((body, left, y - 0.8 * size, left + width, y + 0.2 * size))
    return boxes


def overlaps(svg: str) -> list:
    """Pairs of labels whose boxes meet, as (text, text)."""
    boxes = label_boxes(svg)
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]:
                out.append((a[0], b[0]))
    return out


def outside(svg: str) -> list:
    """Labels that run past the picture's edges."""
    size = re.search(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', svg)
    width, height = float(size.group(1)), float(size.group(2))
    return [b[0] for b in label_boxes(svg) if b[1] < 0 or b[3] > width or b[2] < 0 or b[4] > height]


def crossing(svg: str, em_width: float = 0.55) -> list:
    """Labels that start inside a box (<rect>) and run past its right or left edge, as
    (text, the box's x); measured with DejaVu Sans' average glyph width (EM_WIDTH's note)."""
    rects = [tuple(float(v) for v in m.groups()) for m in re.finditer(
        r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]
    out = []
    for text, left, top, right, bottom in label_boxes(svg):
        # the same label at em_width, narrowed about its middle (for a label anchored at its
        # start that errs towards finding a crossing)
        shrink = (right - left) * (1 - em_width / EM_WIDTH)
        middle_y = (top + bottom) / 2
        for x, y, w, h in rects:
            if not y <= middle_y <= y + h:
                continue
            starts_in = x <= left < x + w or x < right <= x + w
            if starts_in and (left + shrink / 2 < x or right - shrink / 2 > x + w):
                out.append((text, x))
    return out
