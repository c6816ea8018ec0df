"""The game told afterwards: what the public record proved, round by round (issue 13, 2).

Built from the public record only (every answered question of the resolved
rounds), with the deduction engine; the players' part (safe tips, guesses,
points left on the table) also reads the tips, which are secret until the
game ends: ``tell`` adds it only when asked to, and its callers ask only for
the game's GM or after the end.

Cost: a 12-round record needs one analysis per round, one answer tally per
question, the best-question search per round and a few analyses per gem that
became certain: seconds, not milliseconds, and more while the engine is slow on
mid-game records; the parts beyond bits and certain gems stop at STORY_BUDGET.
The record part is cached in the process, keyed by the record itself
(``PublicRecord`` is immutable and hashable): a new resolved round is a new key,
an unchanged game is computed once.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from functools import lru_cache

from ..engine import (
    Analysis,
    Answered,
    OutOfSteps,
    PublicRecord,
    analyse,
    answer_chances,
    best_questions,
    possible_places,
)
from ..models import Game
from ..rules import GEM_BY_CODE, GEMS, LOCATIONS, Gem, Question
from . import access
from .record import public_record
from .story_players import players_story


def may_read(viewer: access.Viewer, game: Game) -> bool:
    """The story is for the game's GM at any time, for its players only after the end.

    During a game nothing of the engine reaches players (unless the deduction
    aid is on, and that shows only the sheet's marks), and tips stay secret.
    """
    if access.is_gm_of(viewer, game):
        return True
    return game.state == "finished" and access.player_in(viewer, game) is not None


def aid_places(game: Game) -> dict[str, frozenset[str]] | None:
    """The deduction aid: each gem's possible places (by code), or None when the aid is off.

    Off (the default), nothing of the engine reaches the players' pages. Exact
    except on the rare record whose search would take seconds (see AID_STEPS).
    """
    if not game.deduction_aid:
        return None
    answers = public_record(game).answers()
    # One search per record at a time: the same sheet opened by many players at once
    # waits for the first search and reads its cached answer (locks striped by record).
    with _AID_LOCKS[hash(answers) % len(_AID_LOCKS)]:
        found = _aid(answers)
    return {g.code: places for g, places in found.items()}


_AID_LOCKS = tuple(threading.Lock() for _ in range(32))

log = logging.getLogger(__name__)


# Nodes the aid's search may take: past them the sheet greys out what propagation rules
# out (never a place still possible) rather than keep the player's page waiting.
AID_STEPS = 400


@lru_cache(maxsize=64)
def _aid(answers: tuple[Answered, ...]) -> dict[Gem, frozenset[str]]:
    found = possible_places(answers, steps=AID_STEPS, at_least=True)
    if not found.exact:  # once per record (cached): the sheet shows more places than are left
        log.info("deduction aid: search past %d nodes on a record of %d answers; "
                 "showing what propagation leaves", AID_STEPS, len(answers))
    return found


def tell(game: Game, *, with_tips: bool = False, after_round: int | None = None) -> dict:
    """The story of ``game`` so far (or after ``after_round`` rounds), as JSON-able data.

    See record_story. ``with_tips``: add each player's safe tips, guesses and
    points left on the table. The tips are secret while the game runs: only for
    its GM, or after the end. Seconds of the engine: only the story job calls
    this (services/stories.py); pages, the API and mails read what it stored.
    """
    record = public_record(game)
    if after_round is not None:
        record = record.upto(after_round)
    story = {"game_id": game.id, "game": game.name, "final": game.state == "finished",
             **record_story(record)}
    story["players"] = players_story(game, story) if with_tips else None
    return story


def _bits(count: int | float) -> float:
    return math.log2(count) if count > 0 else 0.0


# Seconds an analysis of the story may take when the usual time left its count unknown:
# the story is a job's, and no probe reaching a distribution is not "none left".
UNKNOWN_WITHIN = 8.0


def _analysed(answers) -> Analysis:
    state = analyse(answers)
    return analyse(answers, within=UNKNOWN_WITHIN) if state.unknown else state


def _question(q: Question) -> dict:
    return {"question": q.codes, "text": q.text("en")}


# Seconds for the parts beyond bits and certain gems (what each question revealed, the
# proofs, the best questions): past it they are left out (null) and the story says so,
# so neither a page nor the final report's resolution waits on a slow analysis for long.
STORY_BUDGET = 20.0


@lru_cache(maxsize=64)
def record_story(record: PublicRecord, budget: float = STORY_BUDGET) -> dict:
    """What the record proved after each round: the part of the story anyone may read.

    * ``rounds``: per round, each gem's ``possible`` places after it (exact: the
      engine's possible places for the record of rounds 1..n), bits left (log2 of
      the consistent distributions),
      the number of certain gems, each question with the bits its answer
      revealed (``revealed_bits``: log2 of 1/P(answer), P over the distributions
      consistent with the record before the round; ``expected_bits``: the
      question's expected information then) and the most revealing question
      that could have been asked on the same state (``best``);
    * ``gems``: per gem, the round it became certain, where, and ``because``:
      a minimal set of that round's answers which, with every earlier answer,
      prove it (no answer of the set can be left out);
    * ``complete``: false when ``budget`` seconds ran out before every question,
      proof and best question was worked out; those left are null.
    """
    states = [_analysed(record.upto(n).answers()) for n in range(len(record.rounds) + 1)]
    rounds = [_round(number, answered, states[number - 1], states[number])
              for number, answered in enumerate(record.rounds, start=1)]
    gems = _gems(states)
    stop = time.monotonic() + budget  # the analyses above are needed whatever they cost
    complete = True
    for entry, answered, before in zip(rounds, record.rounds, states, strict=False):
        for q, a in zip(entry["questions"], answered, strict=True):
            if time.monotonic() > stop:
                complete = False
                break
            chances = answer_chances(a.question, before)
            p = chances.get(a.answer, 0.0)
            q["revealed_bits"] = round(-math.log2(p), 3) if p > 0 else 0.0
            q["expected_bits"] = round(-sum(c * math.log2(c) for c in chances.values()
                                            if c > 0), 3)
    for g in gems:
        if g["because"] is None and time.monotonic() <= stop:
            g["because"] = [{"round": g["certain_in_round"], "asked_by": a.asked_by,
                             "answer": a.answer, **_question(a.question)}
                            for a in _proving(record, g["certain_in_round"],
                                              GEM_BY_CODE[g["gem"]])]
        complete = complete and g["because"] is not None
    for number, entry in enumerate(rounds, start=1):
        if time.monotonic() > stop:
            complete = False
            break
        best = best_questions(record.upto(number - 1).answers(), 1, analysis=states[number - 1])
        entry["best"] = ({**_question(best[0][0]), "expected_bits": round(best[0][1], 3)}
                         if best else None)
    return {"after_round": len(record.rounds), "start_bits": round(_bits(states[0].count), 3),
            "complete": complete, "rounds": rounds, "gems": gems}


def _round(number: int, answered: tuple[Answered, ...], before, after) -> dict:
    """A round's facts that need no more than the analyses before and after it."""
    newly = sorted(set(after.certain()) - set(before.certain()), key=lambda g: g.sort_key)
    return {
        "number": number, "bits_left": round(_bits(after.count), 3),
        "count": after.count, "exact": after.exact,
        "revealed_bits": round(_bits(before.count) - _bits(after.count), 3),
        "certain": len(after.certain()), "newly_certain": [g.code for g in newly],
        "questions": [{**_question(a.question), "asked_by": a.asked_by, "answer": a.answer,
                       "revealed_bits": None, "expected_bits": None} for a in answered],
        # Each gem's possible places after the round (the sheet's deductions; the replay).
        "possible": {g.code: "".join(loc for loc in LOCATIONS if loc in places)
                     for g, places in after.possible.items()},
        "best": None}


def _gems(states: list) -> list[dict]:
    """Each gem: the round it became certain and where; ``because`` filled in later."""
    out = []
    for gem in GEMS:
        first = next((n for n, s in enumerate(states) if gem in s.certain()), None)
        out.append({"gem": gem.code, "certain_in_round": first,
                    "location": states[first].certain()[gem] if first is not None else None,
                    "because": None if first else []})
    return out


def _proving(record: PublicRecord, number: int, gem: Gem) -> list[Answered]:
    """A minimal set of round ``number``'s answers that, with all before, make ``gem`` certain.

    Greedy deletion in asking order: an answer is left out when the gem stays
    certain without it (as far as a search of PROOF_STEPS nodes tells). The memo
    shares the first tests between the gems that became certain in the same round.
    """
    earlier = record.upto(number - 1).answers()
    keep = list(record.rounds[number - 1])
    for a in list(keep):
        trial = tuple(x for x in keep if x is not a)
        if gem in _certain(earlier, trial):
            keep = list(trial)
    return keep


# Nodes a proof's test may search: a few records with answers left out need minutes.
PROOF_STEPS = 200


@lru_cache(maxsize=512)
def _certain(earlier: tuple[Answered, ...], these: tuple[Answered, ...]) -> frozenset[Gem]:
    """The gems certain from these answers; none when the search would take too long
    (the answer tried is then kept: the proof stays a proof, perhaps not the shortest)."""
    try:
        places = possible_places(earlier + these, steps=PROOF_STEPS)
    except OutOfSteps:
        return frozenset()
    return frozenset(g for g, p in places.items() if len(p) == 1)
