"""Faults: a resolver killed half-way, and one player submitting twice at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, Player, RoundResult, TurnVersion
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns

HERE = Path(__file__).parent


def started_game(now, players=3):
    game = games.create_game("Faults", weekly("2026-12-06 20:00", "Europe/Berlin"))
    for i in range(players):
        games.add_player(game, f"P{i}", f"p{i}@example.org")
    games.start_game(game, now=now, seed=4)
    for p in game.players:
        turns.submit_turn(p, "QUESTION A red\nTIP A RD1", channel="email", now=now)
    return game


def count(model, *where) -> int:
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def test_a_resolver_killed_mid_transaction_leaves_the_round_to_be_resolved_once(app, now):
    game = started_game(now)
    reports_before = count(OutboxMessage, OutboxMessage.kind == "report")
    env = {**os.environ, "VPSLEUTH_SQLALCHEMY_DATABASE_URI":
           db.engine.url.render_as_string(hide_password=False),
           "VPSLEUTH_SECRET_KEY": app.config["SECRET_KEY"], "PYTHONPATH": str(HERE.parents[1])}
    proc = subprocess.Popen([sys.executable, str(HERE / "kill_resolver.py"), str(game.id)],
                            env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == "IN_TRANSACTION", line
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    db.session.expire_all()
    assert db.session.get(Game, game.id).round(1).state == "open", "the kill rolled back"
    assert count(RoundResult) == 0
    assert resolution.resolve_round(db.session.get(Game, game.id), now=now, number=1)
    assert resolution.resolve_round(db.session.get(Game, game.id), now=now, number=1) is None
    assert count(RoundResult) == 3
    assert count(OutboxMessage, OutboxMessage.kind == "report") == reports_before + 3


def test_the_same_player_submitting_by_web_and_mail_at_once_keeps_both_the_later_standing(
        app, now):
    game = started_game(now, players=1)
    player_id, barrier, errors = game.players[0].id, threading.Barrier(2), []
    texts = {"web": "QUESTION B blue\nTIP B RD1\nTIP C BP2",
             "email": "QUESTION C green\nTIP D RD1\nTIP E GO3"}

    def submit(channel):
        with app.app_context():
            try:
                player = db.session.get(Player, player_id)
                barrier.wait()
                turns.submit_turn(player, texts[channel], channel=channel, now=now)
            except Exception as exc:  # noqa: BLE001 - recorded and asserted below
                errors.append(exc)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=submit, args=(c,)) for c in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    db.session.expire_all()
    versions = db.session.scalars(select(TurnVersion).where(TurnVersion.player_id == player_id)
                                  .order_by(TurnVersion.id)).all()
    assert sorted(v.channel for v in versions[1:]) == ["email", "web"]
    assert all(v.status == "accepted" for v in versions)
    standing = turns.standing_turn(game.round(1), db.session.get(Player, player_id))
    web_then_mail = ({"RD1": "D", "BP2": "C", "GO3": "E"}, "C")
    mail_then_web = ({"RD1": "B", "BP2": "C", "GO3": "E"}, "B")
    got = ({g.code: loc for g, loc in standing.tips.items()}, standing.question.placeholder)
    # Which came first is a race; the one stored (received) last must win.
    assert got == (web_then_mail if versions[-1].channel == "email" else mail_then_web)
