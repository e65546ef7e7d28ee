"""Is a question deck a game of estimates? Checks of the scales' tuning and the deck's mix.

Pi mal Daumen works when players estimate and outbid each other: questions
about the body, food, animals, everyday amounts, prices, records; scales as
wide as people's real uncertainty. It fails when a question is a fact from a
rulebook (whoever knows it scores 6) or every scale has the same shape (then
arithmetic gives a free 6). What a program can check, it checks here:

  - every question names its `topic` (one of TOPICS);
  - small answers: below SMALL the 6-point field is the answer alone or
    +-1 (ostrich toes: 1, 2 and 3 must not all score 6);
  - the 6-point windows are tuned one by one, not one ratio across the deck
    (at most half of them within 15 % of the same relative width);
  - topic caps: at most 10 % from each of rulebooks/standards, game
    equipment, administrative divisions; at most 20 % from any other topic;
    at least 40 % from the estimate topics;
  - about a third of the cards are family cards (propctl.cards.family).

Deck-wide shares are judged from MIN_CARDS cards on (a small file is a draft).
quality.check runs these; each finding is a load.Problem.
"""
from propctl.cards import family
from propctl.cards.load import Problem
from propctl.shared.rules.pimaldaumen import TOP, exact

# topic -> what it covers (shown when a topic is unknown)
TOPICS = {
    "body": "the human body",
    "food": "food and drink",
    "animals": "animals",
    "plants": "plants",
    "everyday": "everyday amounts: household, home, traffic, daily life",
    "prices": "prices and money",
    "records": "records and extremes",
    "per_year": "how many per year (or per day)",
    "nature": "nature, weather, landscapes",
    "geography": "countries, borders, rivers, distances",
    "space": "space and astronomy",
    "buildings": "buildings and structures",
    "technology": "vehicles, machines, technology",
    "history": "history",
    "culture": "books, music, film, art",
    "sport": "sports results and athletes (not their rules)",
    "science": "physics and chemistry",
    "people": "population and society",
    "standards": "rulebooks, standards, units by definition",
    "games": "game equipment",
    "admin": "administrative divisions",
}
FACT_TOPICS = ("standards", "games", "admin")  # facts one knows or not: capped hard
FACT_CAP = 0.10
TOPIC_CAP = 0.20
ESTIMATE_TOPICS = ("body", "food", "animals", "plants", "everyday", "prices", "records", "per_year")
ESTIMATE_MIN = 0.40
SMALL = 15          # answers below this get the answer alone or +-1 as their 6-point field
SAME_WIDTH = 0.15   # windows within 15 % of one width count as "the same ratio"
SAME_SHARE = 0.5    # ... and more than half of them alike is a formula, not tuning
MIN_CARDS = family.MIN_CARDS


def six_window(scale, answer):
    """(low, high) of the 6-point field around the exact answer, as (digits, places) pairs, or None."""
    values = [exact(v) for v in scale[0::2]]
    points = list(scale[1::2])
    target = _number(exact(answer))
    low = high = None
    for k in range(len(points)):
        if points[k] == TOP:
            lo, hi = _number(values[k]), _number(values[k + 1])
            if lo <= target <= hi:
                low = lo if low is None else min(low, lo)
                high = hi if high is None else max(high, hi)
    return None if low is None else (low, high)


def _number(pair) -> float:
    digits, places = pair
    return digits / 10 ** places  # compared for a check only, never decides a game


def question_problems(question, field_prefix) -> list:
    """(field, message) for one question: its topic and the small-answer rule."""
    out = []
    topic = getattr(question, "topic", "")
    if not topic:
        out.append((field_prefix + "topic", "is missing; allowed: " + ", ".join(TOPICS)))
    elif topic not in TOPICS:
        out.append((field_prefix + "topic", "%r is not a topic; allowed: %s" % (topic, ", ".join(TOPICS))))
    answer = _number(exact(question.answer))
    window = six_window(question.scale, question.answer)
    if window is not None and abs(answer) < SMALL:
        low, high = window
        if low < answer - 1 or high > answer + 1:
            out.append((field_prefix + "scale", "the 6-point field %s to %s is too wide for the small "
                        "answer %s; allowed below %d: the answer alone or +-1 (%s to %s)"
                        % (_show(low), _show(high), question.answer, SMALL, _show(answer - 1),
                           _show(answer + 1))))
    return out


def _show(x: float) -> str:
    return ("%f" % x).rstrip("0").rstrip(".")


def deck_problems(deck, slots) -> list:
    """Problems of a whole question deck: window variety, topic mix, family share."""
    cards = deck.cards
    if len(cards) < MIN_CARDS:
        return []
    where = deck.where[0][0]
    out = []
    widths = []
    topics = {}
    for card in cards:
        for question in card.questions:
            topics[getattr(question, "topic", "")] = topics.get(getattr(question, "topic", ""), 0) + 1
            answer = _number(exact(question.answer))
            window = six_window(question.scale, question.answer)
            if window is not None and answer >= SMALL:
                widths.append((window[1] - window[0]) / answer)
    alike = _most_alike(widths)
    if widths and alike > SAME_SHARE * len(widths):
        out.append(Problem(where, None, "scale", "%d of %d scales have a 6-point window of about the same "
                           "width relative to the answer: a formula, which arithmetic can beat; allowed: "
                           "at most half alike (within %d %%); tune each window to how sure people are"
                           % (alike, len(widths), round(100 * SAME_WIDTH))))
    total = len(cards) * len(slots)
    for topic, count in sorted(topics.items()):
        cap = FACT_CAP if topic in FACT_TOPICS else TOPIC_CAP
        if topic in TOPICS and count > cap * total:
            out.append(Problem(where, None, "topic", "%d of %d questions are about %s (%s); allowed: at "
                               "most %d %% (%d)" % (count, total, topic, TOPICS[topic], round(100 * cap),
                                                    int(cap * total))))
    estimates = sum(topics.get(t, 0) for t in ESTIMATE_TOPICS)
    if estimates < ESTIMATE_MIN * total:
        out.append(Problem(where, None, "topic", "%d of %d questions ask for estimates (%s); allowed: at "
                           "least %d %% (%d)" % (estimates, total, ", ".join(ESTIMATE_TOPICS),
                                                 round(100 * ESTIMATE_MIN), -(-ESTIMATE_MIN * total // 1))))
    share = family.share_problem(cards)
    if share is not None:
        out.append(Problem(where, None, "family", share))
    return out


def _most_alike(widths) -> int:
    """The most widths within SAME_WIDTH (relative) of one of them."""
    best = 0
    for centre in widths:
        alike = sum(1 for w in widths if abs(w - centre) <= SAME_WIDTH * centre)
        best = max(best, alike)
    return best
