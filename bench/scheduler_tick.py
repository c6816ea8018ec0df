"""Benchmark: one scheduler tick resolving 1,000 due games of 20 players; ours against raw SQL.

    .venv/bin/python bench/scheduler_tick.py                    # both databases
    .venv/bin/python bench/scheduler_tick.py --games 100 --db sqlite --repeat 2

Ours is vpsleuth.services.resolution.resolve_due(now), which the scheduler's
deadline job calls: it finds the due rounds and resolves each in a transaction
of its own, queuing the report and round-opened mails. The baseline finds the
due rounds with one query and resolves each with bench/baseline.py, one
transaction per game as well (a crash must not undo or repeat other games).
Target: at most 30 s.
"""

from __future__ import annotations

from baseline import due_rounds, resolve_raw
from data import NOW, Sizes
from harness import Mails, Subject, arguments, main, store_mails

from vpsleuth.extensions import db
from vpsleuth.services.resolution import resolve_due


def subject_for(sizes: Sizes):
    def make(game_ids: list[int]) -> Subject:
        def ours() -> None:
            done = resolve_due(NOW)
            if len(done) != sizes.games:
                raise SystemExit(f"resolve_due resolved {len(done)} of {sizes.games} rounds")

        def raw(mails: Mails | None) -> None:
            with db.engine.connect() as conn:
                due = due_rounds(conn, NOW)
            for round_id in due:
                with db.engine.begin() as conn:
                    game_id = resolve_raw(conn, round_id, NOW)
                    if mails and game_id is not None:
                        store_mails(conn, mails[game_id])
            if len(due) != sizes.games:
                raise SystemExit(f"the baseline found {len(due)} of {sizes.games} rounds due")

        return Subject(ours, raw)

    return make


if __name__ == "__main__":
    args = arguments(__doc__.split("\n")[0], repeat=3, games=1000, players=20,
                     tips=36).parse_args()
    sizes = Sizes(games=args.games, players=args.players, tips=args.tips,
                  round_number=args.round_number)
    main(f"scheduler tick (resolve_due): {sizes.games} games of {sizes.players} players, "
         f"each with {sizes.tips} tips and a question, round {sizes.round_number}",
         sizes, args, subject_for(sizes))
