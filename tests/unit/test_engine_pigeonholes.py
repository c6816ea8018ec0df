"""Pigeonholes and flows: sound on every record a deal answers, and deciding what
propagation cannot; a bounded search says so instead of waiting."""

from __future__ import annotations

import random

import pytest
from cpsat_oracle import cpsat_possible
from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.engine import Answered, OutOfSteps, legal_questions, possible_places
from vpsleuth.engine.bounds import Pigeonholes
from vpsleuth.engine.flow import Flows
from vpsleuth.engine.model import GAME, Problem
from vpsleuth.engine.search import Searcher
from vpsleuth.rules import GEM_BY_CODE, GEMS, Question, deal

QUESTIONS = legal_questions()

# 59 answers of a random deal (two rounds of 20 and most of a third): the searches
# alone took minutes over 15 cells of blue gems that only adding up over locations
# rules out (the story's proofs asked exactly this record).
HARD = ("B:G1=0 G:Y3=0 A:Y2=1 D:B=3 B:BP=1 F:2P=0 F:R3=1 F:G2=0 E:GD=1 C:B3=1 B:P=2 F:1D=0 "
        "A:R2=0 E:G3=0 F:O=1 A:B=0 F:R1=1 D:1=1 C:Y1=0 B:3=3 D:Y3=1 A:R3=0 A:RP=0 A:R1=0 "
        "G:B1=0 A:D=1 E:GP=0 C:GO=0 F:B=1 A:R2=0 G:RO=1 C:G3=0 F:3=1 F:2P=0 G:G1=0 C:Y3=1 "
        "E:D=3 C:Y2=0 C:G2=1 F:B2=0 A:RP=0 E:2O=1 G:G2=0 B:2=1 C:3=2 D:GD=0 B:BO=1 D:2O=1 "
        "F:2O=0 F:B=1 G:B=0 C:RP=0 D:G2=0 D:BD=0 G:3O=0 F:1O=1 G:R=3 E:YP=0 A:BP=0")
# 58 answers (a third round with answers left out): pearls and red gems, decided only
# deeper in the search with pigeonholes and flows at every node (seconds, not minutes).
DEEP = ("G:2D=1 A:2O=1 F:Y3=1 D:D=2 A:BO=2 A:R=1 B:Y1=0 G:3O=0 F:G1=0 E:B1=0 D:1D=1 A:RP=0 "
        "D:RD=0 F:2D=0 C:R3=0 E:3P=0 G:BP=0 G:BO=0 B:P=3 C:RO=0 G:YO=1 G:G1=1 D:O=0 B:G=2 "
        "F:G=1 D:3O=0 B:D=1 E:R1=0 E:1P=0 C:3O=0 F:RO=1 B:P=3 C:R2=0 D:B2=1 B:O=1 A:GP=0 "
        "C:BD=1 E:RO=0 F:1D=0 C:R1=1 G:P=1 F:3O=0 A:R2=1 E:R1=0 C:3P=0 F:P=4 D:G2=1 E:RD=1 "
        "B:BO=0 B:G=2 F:2O=0 G:RD=2 C:R3=0 B:BD=1 D:2=3 D:YO=0 E:GD=1 F:Y2=0")
# What rules out BD3 at B: D needs 3 blue pearls or opals, B two, C one (a blue 3),
# F one (a blue, not a 2, not the 1 diamond): seven of six.
CORE = "D:B=3 B:BP=1 C:B3=1 F:1D=0 F:B2=0 B:BO=1 F:B=1 D:BD=0"


def record(text: str) -> list[Answered]:
    return [Answered(Question.from_codes(q), int(a))
            for q, a in (item.split("=") for item in text.split())]


def forced(searcher: Searcher, code: str, location: str) -> list[int] | None:
    root, bit = searcher.root(), 1 << GEMS.index(GEM_BY_CODE[code])
    where = GAME.locations.index(location)
    return searcher.propagate([p if j == where else p & ~bit for j, p in enumerate(root)])


def test_seven_needed_of_six_rules_the_cell_out_where_propagation_does_not():
    searcher = Searcher(Problem.of(record(CORE)))
    start = forced(searcher, "BD3", "B")
    assert start is not None  # propagation alone lets it stand
    assert Pigeonholes(searcher).contradict(start)
    assert not Pigeonholes(searcher).contradict(forced(searcher, "BD3", "C"))


@pytest.mark.parametrize("text", [HARD, DEEP])
def test_the_hard_records_are_decided_as_cp_sat_decides_them(text):
    answers = record(text)
    assert possible_places(answers) == cpsat_possible(answers)


def test_a_bounded_search_gives_up_rather_than_waits():
    with pytest.raises(OutOfSteps):
        possible_places(record(DEEP), steps=3)
    exact = cpsat_possible(record(DEEP))
    rough = possible_places(record(DEEP), steps=3, at_least=True)  # what the aid shows then
    assert all(exact[g] <= rough[g] for g in GEMS) and rough != exact
    assert possible_places(record(HARD), steps=200) == cpsat_possible(record(HARD))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(0, 150))
def test_no_pigeonhole_and_no_flow_ever_refutes_the_true_deal(seed, n):
    truth, rng = deal(seed=seed), random.Random(seed)
    searcher = Searcher(Problem.of([Answered(q, q.answer(truth))
                                    for q in rng.sample(QUESTIONS, n)]))
    gem = rng.choice(GEMS)
    whole = [sum(1 << i for i, g in enumerate(GEMS) if truth[g] == loc) for loc in GAME.locations]
    for check in (Pigeonholes(searcher), Flows(searcher)):
        assert not check.contradict(searcher.root())
        assert not check.contradict(forced(searcher, gem.code, truth[gem]))
        assert not check.contradict(whole)
