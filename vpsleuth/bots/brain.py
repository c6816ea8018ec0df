"""What a computer player sends: a turn in the turn language, from the public record only.

Pure: the public record, the bot's own public state and a random source in,
turn text out. It imports the rules, the turn language and the engine, never
models, services or extensions (tests/unit/test_bot_brain_isolation.py), so
the distribution is out of its reach.

Levels:

* ``hard``: the question with the most expected information; a tip on every
  gem whose chance makes it worth it under the game's house rules (expected
  points > 0, the rank bonus counted from the first bonus round on); a
  certain gem always. Tips are repeated every round (RULES.md 3: they are
  not carried over, and a repeated right tip scores again).
* ``medium``: a random question among the few most informative; tips only on
  gems every sampled deal puts at the same place.
* ``easy``: a random legal question; tips only on gems placed by simple
  reasoning over single answers (a zero rules a place out; a full count rules
  it in), no more than a few new ones a round.
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
MEDIUM_CHOICES = 4  # medium asks one of this many best questions
EASY_NEW_TIPS = 3  # easy adds at most this many new tips a round
SAMPLES = 200  # deals sampled per record (bots/sampler.py)
MARGIN = 0.1  # a tip must beat its break-even chance by this much: the chances are estimates


@dataclass(frozen=True)
class Me:
    """What a bot knows of itself: its name and the tips it placed last round."""

    name: str
    last_tips: Mapping[Gem, str] = field(default_factory=dict)


def decide(record: PublicRecord, me: Me, level: str, rng: random.Random) -> str:
    """The bot's turn for the round after ``record`` (turn-language text, English).

    Should the sampler find no deal agreeing with the record (it searches at
    random, within a budget), hard and medium play as easy that round.
    """
    if level not in BENCH_LEVELS:
        raise ValueError(f"no bot level {level!r}; choose one of {', '.join(LEVELS)}")
    try:
        return format_turn(*_turn(record, me, level, rng), "en")
    except NoDeal:
        return format_turn(*_easy(record, me, rng), "en")


def _turn(record: PublicRecord, me: Me, level: str,
          rng: random.Random) -> tuple[Question, dict[Gem, str]]:
    if level == "hard":
        question, tips = _hard(record, rng)
    elif level == "medium":
        question, tips = _medium(record, rng)
    elif level == "easy":
        question, tips = _easy(record, me, rng)
    else:
        question, tips = _random_question(rng), _random_tips(rng)
    return question, tips


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


def _random_question(rng: random.Random) -> Question:
    return rng.choice(_QUESTIONS)


def _random_tips(rng: random.Random) -> dict[Gem, str]:
    return {gem: rng.choice(LOCATIONS) for gem in rng.sample(GEMS, rng.randint(0, len(GEMS)))}


def _next_round(record: PublicRecord) -> int:
    return len(record.rounds) + 1


def tip_threshold(record: PublicRecord) -> float:
    """The chance above which a tip is worth placing in the coming round.

    A tip is worth p * right + (1 - p) * wrong. In a bonus round one more right
    tip may also lift the bot a rank: that is worth the gap between two
    neighbouring bonuses, counted as the mean gap (an estimate: the others'
    right tips are not public), so p * (right + gap) + (1 - p) * wrong > 0.
    """
    rules = record.rules
    gain = rules.points_right
    if rules.is_bonus_round(_next_round(record)) and rules.bonuses:
        steps = list(rules.bonuses) + [0]
        gain += sum(a - b for a, b in zip(steps, steps[1:], strict=False)) / len(rules.bonuses)
    loss = -rules.points_wrong
    return loss / (gain + loss)


def worth_tipping(record: PublicRecord, chances: Mapping[Gem, Mapping[str, float]]
                  ) -> dict[Gem, str]:
    """For each gem its likeliest place, where that chance makes the tip worth it."""
    threshold = tip_threshold(record)
    tips = {}
    for gem in GEMS:
        place, p = max(chances[gem].items(), key=lambda item: (item[1], item[0]))
        if p >= 1.0 or p > threshold + MARGIN:
            tips[gem] = place
    return tips


def _hard(record: PublicRecord, rng: random.Random) -> tuple[Question, dict[Gem, str]]:
    answers = record.answers()
    return best_questions(answers, 1)[0], worth_tipping(record, _sample(answers).chances())


def _medium(record: PublicRecord, rng: random.Random) -> tuple[Question, dict[Gem, str]]:
    answers = record.answers()
    chances = _sample(answers).chances()
    sure = {gem: place for gem in GEMS for place, p in chances[gem].items() if p >= 1.0}
    return rng.choice(best_questions(answers, MEDIUM_CHOICES)), sure


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


def _easy(record: PublicRecord, me: Me, rng: random.Random) -> tuple[Question, dict[Gem, str]]:
    known = {gem: next(iter(where)) for gem, where in simple_places(record).items()
             if len(where) == 1}
    kept = {gem: place for gem, place in me.last_tips.items() if known.get(gem) == place}
    new = [gem for gem in GEMS if gem in known and gem not in kept]
    for gem in rng.sample(new, min(EASY_NEW_TIPS, len(new))):
        kept[gem] = known[gem]
    return _random_question(rng), kept
