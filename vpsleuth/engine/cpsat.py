"""The rare hard record handed to CP-SAT: the cells the engine's own search left open.

The engine proves a cell impossible node by node, and on a few records (the
hard bot's, answers interlocking over several locations) that takes seconds
where a clause-learning solver takes milliseconds. OR-Tools' CP-SAT is such a
solver, well kept and proven (a runtime dependency for this reason only); it
is given what the engine already knows: the cells propagation left (every
other cell is proved impossible) and the cells witnessed (proved possible).

Each open cell is one solve of one model, the gem forced there by an
assumption: no solution proves the cell impossible; a solution witnesses
every cell it fills, and the exchanges the engine's Swapper finds from it
more, so the cells it reaches cost no solve. (Asking instead for a solution
filling any open cell decides them all with fewer models but more solves:
CP-SAT's next solution is much like its last and fills one or two new cells;
measured on the hard bot's records: 124-150 solves where one per cell needs
about 75, and 2-4 times the time.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .possible import Swapper
from .search import Searcher, State

# One worker: answers and timings that do not depend on the machine's cores, and no
# thread fighting the web server's for them; a fixed seed: the same record, the same path.
WORKERS = 1


def decide_open_cells(searcher: Searcher, root: State, seen: Sequence[int],
                      spread: Callable[[State, list[int]], object] | None = None,
                      ) -> list[int] | None:
    """Per location the gems some distribution puts there (None: no distribution).

    ``root``: per location the gems propagation leaves there (sound: a cell not
    in it is impossible); ``seen``: cells already witnessed, within ``root``;
    ``spread``: marks in its second argument more cells witnessed from a
    distribution (exchanges), or None.
    """
    # Imported here, not at the top: OR-Tools brings numpy and pandas, about 0.4 s of
    # every process's start (a web server's, each piped mail's), and only a rare hard
    # record gets this far.
    from ortools.sat.python import cp_model

    size, n = len(root), searcher.n
    model = cp_model.CpModel()
    cell = {(g, loc): model.new_bool_var(f"g{g}@{loc}")
            for loc in range(size) for g in range(n) if root[loc] >> g & 1}
    for g in range(n):
        model.add_exactly_one(v for (h, _), v in cell.items() if h == g)
    # The capacities, each answer, and per pattern the rest at the locations not asked:
    # the searcher's rules, every one "exactly count of these gems at these locations".
    for where, mask, count in searcher.rules:
        model.add(sum(v for (g, loc), v in cell.items()
                      if where >> loc & 1 and mask >> g & 1) == count)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = WORKERS
    solver.parameters.random_seed = 0
    # A model this small is solved in milliseconds; presolving it again for every cell
    # cost more than the solve (measured: 12 against 20 ms a cell on the hard bot's records).
    solver.parameters.cp_model_presolve = False
    possible = list(seen)
    for (g, loc), var in cell.items():
        if possible[loc] >> g & 1:
            continue
        model.clear_assumptions()
        model.add_assumption(var)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            continue
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise RuntimeError(f"CP-SAT ended undecided: {solver.status_name(status)}")
        found = [0] * size
        for (h, at), v in cell.items():
            if solver.boolean_value(v):
                found[at] |= 1 << h
        for at in range(size):
            possible[at] |= found[at]
        if spread is not None:
            spread(found, possible)
    return possible if any(possible) else None


def spreader(searcher: Searcher, seed: int = 0) -> Callable[[State, list[int]], object]:
    """The engine's exchanges from a distribution CP-SAT found (more witnesses, free)."""
    swapper, rng = Swapper(searcher), random.Random(seed)
    return lambda found, seen: swapper.spread(found, seen, rng)
