"""Local search for witnesses: what it returns is a distribution meeting every answer
with the gem where it was asked; a record the exact search wandered on is decided."""

from __future__ import annotations

import random

from cpsat_oracle import cpsat_possible
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_pigeonholes import record
from test_engine_swaps import as_distribution, as_state

from vpsleuth.engine import Answered, legal_questions, possible_places
from vpsleuth.engine.anneal import Annealer
from vpsleuth.engine.model import GAME, Problem
from vpsleuth.engine.search import Searcher
from vpsleuth.rules import GEMS, deal

QUESTIONS = legal_questions()

# The hard bot's record before round 9 of a bench game (32 answers): the exact search
# took 26,000 nodes (minutes) to witness a few cells CP-SAT decides in 1.6 s in all.
BOT32 = ("E:Y=2 A:2=2 C:D=1 E:3O=1 E:B1=0 A:P=1 C:1=3 G:1D=1 B:Y1=1 D:P=0 F:3=1 G:GP=1 "
         "G:Y1=0 D:O=2 F:P=2 G:YO=0 E:D=2 C:R=1 D:3=2 B:R2=0 G:BD=0 D:B=3 B:O=2 E:B3=0 "
         "C:G=0 E:G=3 E:2=1 E:BP=0 G:Y=1 F:R=2 C:O=3 A:B1=0")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(0, 120))
def test_a_witness_meets_every_answer_with_the_gem_where_asked(seed, n):
    truth, rng = deal(seed=seed), random.Random(seed)
    answers = [Answered(q, q.answer(truth)) for q in rng.sample(QUESTIONS, n)]
    searcher = Searcher(Problem.of(answers))
    root = searcher.root()
    cells = [(g, loc) for loc, mask in enumerate(root) for g in range(len(GEMS)) if mask >> g & 1]
    gem, place = rng.choice(cells)
    got = Annealer(searcher).witness(as_state(truth), root, gem, place, rng, 3000)
    if got is None:
        return  # nothing proved either way; the exact search decides
    assert got[place] >> gem & 1
    assert [m.bit_count() for m in got] == [cap for _, cap in GAME.capacities]
    assert sum(got) == (1 << len(GEMS)) - 1  # each gem once
    assert all(mask & ~allowed == 0 for mask, allowed in zip(got, root, strict=True))
    reached = as_distribution(got)
    assert all(a.question.answer(reached) == a.answer for a in answers)


def test_a_record_the_exact_search_wandered_on_is_decided_within_few_nodes():
    answers = record(BOT32)
    # Without local search the long search needed 26,000 nodes for one cell.
    assert possible_places(answers, steps=2000) == cpsat_possible(answers)
