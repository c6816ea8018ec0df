"""OR-Tools CP-SAT as an independent oracle for the deduction engine (tests and bench).

It knows only the rules: 36 gems, 5 at each of A-G, 1 at X, and every answer
as "exactly n gems with these attributes at this placeholder". Nothing of the
engine is used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ortools.sat.python import cp_model

from vpsleuth.engine import Answered
from vpsleuth.rules import GEMS, LOCATIONS, NOBODY, Gem


def _model(answers: Iterable[Answered]):
    model = cp_model.CpModel()
    x = {(g, loc): model.new_bool_var(f"{g.code}@{loc}") for g in GEMS for loc in LOCATIONS}
    for g in GEMS:
        model.add_exactly_one(x[g, loc] for loc in LOCATIONS)
    for loc in LOCATIONS:
        model.add(sum(x[g, loc] for g in GEMS) == (1 if loc == NOBODY else 5))
    for a in answers:
        q = a.question
        model.add(sum(x[g, q.placeholder] for g in GEMS
                      if all(g.has(attr) for attr in q.attributes)) == a.answer)
    return model, x


def cpsat_possible(answers: Iterable[Answered]) -> dict[Gem, frozenset[str]]:
    """Each of the 288 cells decided by its own CP-SAT run (gem forced there: feasible?)."""
    model, x = _model(list(answers))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    out: dict[Gem, set[str]] = {g: set() for g in GEMS}
    for (g, loc), var in x.items():
        model.clear_assumptions()
        model.add_assumption(var)
        if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            out[g].add(loc)
    return {g: frozenset(p) for g, p in out.items()}


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, x, limit: int):
        super().__init__()
        self.x, self.limit = x, limit
        self.count = 0
        self.places: Counter = Counter()

    def on_solution_callback(self) -> None:
        self.count += 1
        for key, var in self.x.items():
            if self.value(var):
                self.places[key] += 1
        if self.count > self.limit:
            self.stop_search()


def cpsat_enumerate(answers: Iterable[Answered], limit: int = 100_000):
    """(count, {(gem, loc): solutions placing it there}) by enumerating every solution;
    None when there are more than ``limit``."""
    model, x = _model(list(answers))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    collector = _Collector(x, limit)
    solver.solve(model, collector)
    return None if collector.count > limit else (collector.count, collector.places)
