"""What a computer player sends: a turn in the turn language, from the public record only.

Pure: the public record, the bot's own public state and a random source in,
turn text out. It imports the rules, the turn language and the engine, never
models, services or extensions (tests/unit/test_bot_brain_isolation.py), so
the distribution is out of its reach.

Every bot weighs its choices on deals sampled to agree with the public
answers (bots/sampler.py). It tips a gem at its likeliest place when that
chance makes the tip worth it under the game's own house rules,
p * right + (1 - p) * wrong > 0 (the rank bonus counted from the first bonus
round on), with a margin for the estimate (the sample's chances run high: of
gems it puts at 0.7-0.9, about 0.6 are there), wider the lower the level; a
certain gem always. Tips are repeated every
round (RULES.md 3: they are not carried over, and a right tip scores again).

Each bot has a personality (``Me.seed``): a seat among this round's good
questions, so that two bots of one level reading the same record do not ask
the same question, and a boldness that moves its margin a little.

Levels:

* ``hard``: one of the six most informative questions; the smallest margin.
* ``medium`` (the default, playing to win): one of the twelve most
  informative; a little more caution, at most six new tips a round.
* ``easy``: one of the sixty most informative; more caution, at most three
  new tips a round.
* ``random``: for the bench only: a random question and random tips.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from ..engine import Answered, PublicRecord, legal_questions
from ..orders import format_turn
from ..rules import GEMS, LOCATIONS, Gem, Question
from .sampler import NoDeal, Sample, sample

LEVELS = ("easy", "medium", "hard")
BENCH_LEVELS = LEVELS + ("random",)
SAMPLES = 200  # deals sampled per record (bots/sampler.py)
RANK_CHANCE = 0.5  # how often one more right tip lifts a player a bonus rank (a guess)


@dataclass(frozen=True)
class Style:
    """How a level plays."""

    choices: int  # asks one of this many most informative questions
    margin: float  # a tip must beat its break-even chance by this much: chances are estimates
    new_tips: int | None = None  # at most this many new tips a round (None: any number)


STYLES = {
    "hard": Style(choices=6, margin=0.12),
    "medium": Style(choices=12, margin=0.15, new_tips=6),
    "easy": Style(choices=60, margin=0.2, new_tips=3),
}
MARGIN = STYLES["hard"].margin  # the hard bot's margin, for the bench and tests


@dataclass(frozen=True)
class Me:
    """What a bot knows of itself: its name, the tips it placed last round, its seat.

    ``seed``: its personality and seat (the driver gives each bot of a game
    its own; None: one drawn from its name), so a bot plays the same in the
    same state, and another bot not.
    """

    name: str
    last_tips: Mapping[Gem, str] = field(default_factory=dict)
    seed: int | None = None

    @property
    def personality(self) -> int:
        return self.seed if self.seed is not None else zlib.crc32(self.name.encode())

    @property
    def seat(self) -> int:
        return self.personality

    @property
    def boldness(self) -> float:
        """-0.03 to +0.03: how much less (or more) sure than its level this bot wants to be.

        Seven seats in a row get seven different values.
        """
        return (self.seat * 3 % 7 - 3) / 100


def decide(record: PublicRecord, me: Me, level: str, rng: random.Random) -> str:
    """The bot's turn for the round after ``record`` (turn-language text, English).

    Should the sampler find no deal agreeing with the record (it searches at
    random, within a budget), the bot asks a question of its liking and tips
    only what single answers prove.
    """
    if level not in BENCH_LEVELS:
        raise ValueError(f"no bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random":
        return format_turn(rng.choice(_QUESTIONS), _random_tips(rng), "en")
    style = STYLES[level]
    try:
        drawn = _sample(record.answers())
    except NoDeal:
        return format_turn(_question(None, record, me, style), _proven(record), "en")
    return format_turn(_question(drawn, record, me, style),
                       _tips(record, me, style, drawn.chances()), "en")


_QUESTIONS = legal_questions()


@lru_cache(maxsize=16)
def _sample(answers: tuple[Answered, ...]) -> Sample:
    """One sample per record, shared by every bot reading it (seeded by the record)."""
    key = ";".join(f"{a.question.codes}={a.answer}" for a in answers)
    return sample(answers, size=SAMPLES, seed=zlib.crc32(key.encode()))


def best_questions(answers: tuple[Answered, ...], k: int) -> list[Question]:
    """The ``k`` questions whose answers are expected to reveal the most (bits)."""
    drawn = _sample(answers)
    scored = sorted(_QUESTIONS, key=lambda q: (-drawn.information(q), q.codes))
    return scored[:k]


def _question(drawn: Sample | None, record: PublicRecord, me: Me, style: Style) -> Question:
    """The question in the bot's seat among this round's good ones.

    The good ones: the ``style.choices`` most informative on the sample, in an
    order drawn afresh each round from the record. Every bot of a level
    reading the record sees the same list, and each takes the one at its own
    seat, so bots in different seats ask different questions.
    """
    if drawn is None:
        ranked = list(_QUESTIONS)
    else:
        bits = {q: drawn.information(q) for q in _QUESTIONS}
        ranked = sorted(_QUESTIONS, key=lambda q: (-bits[q], q.codes))[:style.choices]
    key = ";".join(f"{a.question.codes}={a.answer}" for a in record.answers())
    random.Random(f"{style.choices}:{key}").shuffle(ranked)
    return ranked[me.seat % len(ranked)]


def _random_tips(rng: random.Random) -> dict[Gem, str]:
    return {gem: rng.choice(LOCATIONS) for gem in rng.sample(GEMS, rng.randint(0, len(GEMS)))}


def _next_round(record: PublicRecord) -> int:
    return len(record.rounds) + 1


def tip_threshold(record: PublicRecord) -> float:
    """The chance above which a tip is worth placing in the coming round.

    A tip is worth p * right + (1 - p) * wrong. In a bonus round one more right
    tip may also lift the bot a rank, worth the gap between two neighbouring
    bonuses: counted as the mean gap times RANK_CHANCE (an estimate: the
    others' right tips are not public), so p * (right + lift) + (1 - p) * wrong > 0.
    """
    rules = record.rules
    gain = rules.points_right
    if rules.is_bonus_round(_next_round(record)) and rules.bonuses:
        steps = list(rules.bonuses) + [0]
        gap = sum(a - b for a, b in zip(steps, steps[1:], strict=False)) / len(rules.bonuses)
        gain += RANK_CHANCE * gap
    loss = -rules.points_wrong
    return loss / (gain + loss)


def worth_tipping(record: PublicRecord, chances: Mapping[Gem, Mapping[str, float]],
                  margin: float = MARGIN) -> dict[Gem, str]:
    """For each gem its likeliest place, where that chance makes the tip worth it."""
    threshold = tip_threshold(record)
    tips = {}
    for gem in GEMS:
        place, p = max(chances[gem].items(), key=lambda item: (item[1], item[0]))
        if p >= 1.0 or p > threshold + margin:
            tips[gem] = place
    return tips


def _tips(record: PublicRecord, me: Me, style: Style,
          chances: Mapping[Gem, Mapping[str, float]]) -> dict[Gem, str]:
    worth = worth_tipping(record, chances, max(0.0, style.margin - me.boldness))
    if style.new_tips is None:
        return worth
    kept = {gem: place for gem, place in worth.items() if me.last_tips.get(gem) == place}
    new = sorted((gem for gem in worth if gem not in kept),
                 key=lambda gem: -chances[gem][worth[gem]])
    return kept | {gem: worth[gem] for gem in new[:style.new_tips]}


def simple_places(record: PublicRecord) -> dict[Gem, set[str]]:
    """Where each gem may be, by single answers alone (no combining of answers).

    An answer 0 rules the place out for every gem the question names; an
    answer equal to the number of gems the question names puts them all there.
    """
    places = {gem: set(LOCATIONS) for gem in GEMS}
    for answered in record.answers():
        question = answered.question
        named = [g for g in GEMS if all(g.has(a) for a in question.attributes)]
        for gem in named:
            if answered.answer == 0:
                places[gem].discard(question.placeholder)
            elif answered.answer == len(named):
                places[gem] = {question.placeholder}
    return places


def _proven(record: PublicRecord) -> dict[Gem, str]:
    """The gems single answers put at one place: tips that cannot be wrong."""
    return {gem: next(iter(where)) for gem, where in simple_places(record).items()
            if len(where) == 1}
