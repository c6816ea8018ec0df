"""Benchmark: resolve one round of a 1,000-player game; ours against a raw-SQL baseline.

    .venv/bin/python bench/resolve_round.py                     # both databases
    .venv/bin/python bench/resolve_round.py --players 100 --db sqlite --repeat 2

Ours is vpsleuth.services.resolution.resolve_round, as the scheduler calls it:
it also queues the report and the round-opened mail to every player. The
baseline (bench/baseline.py) does the unavoidable work with text SQL; see
bench/harness.py for what is timed. Targets: at most 1 s and 3x the baseline.
"""

from __future__ import annotations

from baseline import resolve_raw
from data import NOW, Sizes
from harness import Mails, Subject, arguments, main, store_mails
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import Game, Round
from vpsleuth.services.resolution import resolve_round


def subject_for(sizes: Sizes):
    def make(game_ids: list[int]) -> Subject:
        game_id = game_ids[0]
        round_id = db.session.scalar(select(Round.id).where(
            Round.game_id == game_id, Round.number == sizes.round_number))

        def ours() -> None:
            # Reply keys are kept for the next mail to the same player; a round must not
            # find them kept from the run before it (a scheduler a week later might).
            keys.forget()
            game = db.session.get(Game, game_id)
            if resolve_round(game, now=NOW, number=sizes.round_number) is None:
                raise SystemExit("resolve_round did nothing: the set-up is wrong")

        def raw(mails: Mails | None) -> None:
            with db.engine.begin() as conn:
                if resolve_raw(conn, round_id, NOW) is None:
                    raise SystemExit("the baseline could not claim the round")
                if mails:
                    store_mails(conn, mails[game_id])

        return Subject(ours, raw)

    return make


if __name__ == "__main__":
    args = arguments(__doc__.split("\n")[0], players=1000, tips=36).parse_args()
    sizes = Sizes(games=1, players=args.players, tips=args.tips,
                  round_number=args.round_number)
    main(f"resolve_round: 1 game of {sizes.players} players, each with {sizes.tips} tips and "
         f"a question, round {sizes.round_number}", sizes, args, subject_for(sizes))
