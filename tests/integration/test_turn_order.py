"""The turn received last wins: versions apply as if in the order they were stored.

A version is numbered (TurnVersion.id) when it is stored, before its
submission waits for the lock on the round; so one stored first can be applied
after one stored later. Whatever the order they reach the lock in, the
standing turn must be the one applying them one by one in receipt order
gives. Here the submissions run in threads of their own and tests/turn_gate.py
makes them take the lock in a chosen order; Ben sends the same texts one
after another, and his standing turn is the measure.
"""

from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import select
from turn_gate import lock_gate

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, Player, StandingQuestion, StandingTip, TurnVersion
from vpsleuth.orders import format_turn
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns

ROUND_1 = "QUESTION A red\nTIP A RD1, B BP2, C GO3, D YD1"
TEXTS = [  # round 2, in the order received
    "QUESTION B blue\nTIP A RD2, B BP3",
    "REPEAT\nDROP GO3",
    "TIP X YO3\nQUESTION NONE",
    "DROP ALL\nTIP E RD1",
    "QUESTION C green opal\nTIP F BP2",
    "REPEAT",
    "DROP RD1, BP2\nTIP G GD2",
    "QUESTION D pearl\nTIP A RD2",
]


def shuffled(seed: int) -> list[int]:
    order = list(range(len(TEXTS)))
    random.Random(seed).shuffle(order)
    return order


@pytest.fixture
def game(app, now):
    game = games.create_game("Order", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    games.add_player(game, "Ben", "ben@example.org")
    games.start_game(game, now=now, seed=2)
    return game


def send_at_once(app, player_id: int, texts: list[str], order: list[int], now) -> dict[int, int]:
    """Submit ``texts`` from a thread each, taking the round lock in ``order``.

    Returns the receipt rank of each version stored (version id -> rank).
    """
    errors: list[BaseException] = []

    def submit(text: str) -> None:
        with app.app_context():
            try:
                turns.submit_turn(db.session.get(Player, player_id), text, channel="api",
                                  now=now)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
            finally:
                db.session.remove()

    with lock_gate(db.engine, len(texts), order) as gate:
        threads = [threading.Thread(target=submit, args=(t,)) for t in texts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert (errors, gate.failures) == ([], [])
    ranks = gate.ranks
    assert [ranks[v] for v in gate.locked] == order, "the gate kept the order asked for"
    return ranks


def standing_rows(round_id: int, player_id: int) -> tuple[dict[str, tuple[str, int]], tuple]:
    """Each standing tip (gem -> location, version) and the question (codes, version)."""
    tips = {t.gem: (t.location, t.version_id) for t in db.session.scalars(select(
        StandingTip).where(StandingTip.round_id == round_id, StandingTip.player_id == player_id))}
    q = db.session.scalar(select(StandingQuestion).where(
        StandingQuestion.round_id == round_id, StandingQuestion.player_id == player_id))
    return tips, (q.question, q.version_id) if q else None


def standing_rows_loaded(round_id: int, player_id: int) -> list:
    """The standing rows as objects of this session (kept alive by the caller)."""
    return [*db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == round_id, StandingTip.player_id == player_id)),
        *db.session.scalars(select(StandingQuestion).where(
            StandingQuestion.round_id == round_id, StandingQuestion.player_id == player_id))]


def by_rank(rows, ranks: dict[int, int]):
    """The same rows with each version id replaced by its receipt rank."""
    tips, question = rows
    return ({gem: (loc, ranks[vid]) for gem, (loc, vid) in tips.items()},
            (question[0], ranks[question[1]]) if question else None)


def received(player_id: int, round_id: int) -> list[TurnVersion]:
    """A player's versions for a round, in the order they were stored."""
    return db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == player_id, TurnVersion.round_id == round_id)
        .order_by(TurnVersion.id)).all()


def test_a_turn_stored_first_but_applied_last_counts_as_sent_first(app, game, now):
    ada = games.find_player(game, "Ada")
    red, blue = "QUESTION A red\nTIP A RD1, B BP2", "QUESTION B blue\nTIP C RD1"
    send_at_once(app, ada.id, [red, blue], [1, 0], now)  # the later one takes the lock first
    db.session.expire_all()
    first = received(ada.id, game.open_round.id)[0].text  # which one came first is a race
    expected = {red: ("B blue", {"RD1": "C", "BP2": "B"}),
                blue: ("A red", {"RD1": "A", "BP2": "B"})}[first]
    standing = turns.standing_turn(game.open_round, ada)
    assert (standing.question, standing.tips) == (
        parse_question(expected[0]), {GEM_BY_CODE[g]: loc for g, loc in expected[1].items()})


@pytest.mark.parametrize("order", [
    list(range(len(TEXTS))), list(reversed(range(len(TEXTS)))),
    shuffled(1), shuffled(2), shuffled(3),
], ids=["in-order", "reversed", "shuffle-1", "shuffle-2", "shuffle-3"])
def test_versions_reaching_the_lock_in_any_order_leave_what_receipt_order_leaves(
        app, game, now, order):
    ada, ben = games.find_player(game, "Ada"), games.find_player(game, "Ben")
    for player in (ada, ben):  # round 1 gives REPEAT something to repeat
        turns.submit_turn(player, ROUND_1, channel="cli", now=now)
    resolution.resolve_round(game, now=now, number=1)
    round_id = game.open_round.id
    ada_ranks = send_at_once(app, ada.id, TEXTS, order, now)
    db.session.expire_all()
    kept = received(ada.id, round_id)
    ben_ranks = {turns.submit_turn(ben, v.text, channel="cli", now=now).version.id: rank
                 for rank, v in enumerate(kept)}  # one by one, in the order Ada's came

    db.session.expire_all()
    assert by_rank(standing_rows(round_id, ada.id), ada_ranks) == \
        by_rank(standing_rows(round_id, ben.id), ben_ranks)
    assert sorted(v.text for v in kept) == sorted(TEXTS)
    assert {v.status for v in kept} == {"accepted"}
    last = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.player_id == ada.id, OutboxMessage.kind == "confirmation")
        .order_by(OutboxMessage.id.desc()).limit(1)).one()
    standing = turns.standing_turn(game.open_round, ada)
    assert format_turn(standing.question, standing.tips) in last.body_text, \
        "the last confirmation echoes the turn standing now"


def test_the_standing_turn_is_read_afresh_under_the_lock_not_from_what_was_loaded(
        app, game, now):
    ada = games.find_player(game, "Ada")
    turns.submit_turn(ada, "QUESTION A red\nTIP A RD1, B BP2", channel="web", now=now)
    loaded = standing_rows_loaded(game.open_round.id, ada.id)  # held in this session
    send_at_once(app, ada.id, ["QUESTION C blue\nTIP C RD1\nDROP BP2"], [0], now)
    sub = turns.submit_turn(ada, "TIP D GO3", channel="web", now=now)
    assert (sub.standing.question, sub.standing.tips) == (
        parse_question("C blue"), {GEM_BY_CODE["RD1"]: "C", GEM_BY_CODE["GO3"]: "D"})
    db.session.expire_all()
    assert turns.standing_turn(game.open_round, ada) == sub.standing
    assert loaded, "the rows stayed loaded in the session throughout"
