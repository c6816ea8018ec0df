"""Retention (issue 22, 4): mails and counts go when their time is up, the game stays.

Three games: Old ended 40 days ago, Recent 10 days ago, Live still runs; each
has sent mails and a raw mail received. Beside them: mails of no game (a
sign-in link sent, a stranger's reply), counted requests and expired sign-in
links, old and new. `vpsleuth check` names what would go; the job removes it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from record_support import new_game, play
from sqlalchemy import func, select, update

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import (
    AuditEntry,
    Game,
    InboundMessage,
    LoginToken,
    MailBody,
    OutboxMessage,
    RateEvent,
    RoundResult,
    TurnVersion,
    utcnow,
)
from vpsleuth.services import auth, limits, retention

PLAYERS = {"Ada": "ada@example.org", "Ben": "ben@example.org", "Cy": "cy@example.org"}


def count(model, *where) -> int:
    db.session.rollback()
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def inbound(game_id: int | None, received) -> None:
    db.session.add(InboundMessage(source="pipe", raw=b"From: a@example.org\r\n\r\nTIP A RD1",
                                  from_addr="a@example.org", received_at=received,
                                  status="applied" if game_id else "refused", game_id=game_id))


@pytest.fixture
def kept(app):
    now = utcnow()
    ids = {}
    for name, ended in (("Old", 40), ("Recent", 10), ("Live", None)):
        game = new_game(name, None, PLAYERS, rounds=1 if ended else 3)
        play(game, rounds=1)
        if ended:
            game.finished_at = now - timedelta(days=ended)
        inbound(game.id, now - timedelta(days=45))
        ids[name] = game.id
    db.session.execute(update(OutboxMessage).values(status="sent", sent_at=now - timedelta(
        days=45)))
    inbound(None, now - timedelta(days=31))  # a stranger's mail, a month old
    inbound(None, now - timedelta(days=2))
    auth.issue_token("old@example.org", now - timedelta(days=30))  # expired long ago
    auth.issue_token("new@example.org", now)
    limits.record("sign_in_client", "192.0.2.1", now - timedelta(days=3))
    limits.record("sign_in_client", "192.0.2.1", now - timedelta(hours=1))
    db.session.commit()
    return now, ids


def test_check_names_what_would_go_and_the_job_removes_just_that(kept, app, runner):
    now, ids = kept
    old = ids["Old"]
    mails_old = count(OutboxMessage, OutboxMessage.game_id == old)
    assert mails_old > 0
    before = {m: count(m) for m in (TurnVersion, RoundResult, AuditEntry)}
    due = retention.pending(now)
    assert due == {"raw inbound mails": 2, "sent mails": mails_old, "rate-limit rows": 1,
                   "expired sign-in links": 1, "sent notices": 0}
    said = runner.invoke(args=["check"]).output
    assert (f"retention: the retention job would remove now 2 raw inbound mails, "
            f"{mails_old} sent mails, 1 rate-limit rows, 1 expired sign-in links") in said
    assert retention.pending(now) == due  # checking changed nothing
    assert jobs.keep_no_longer(app, now) == due
    assert count(InboundMessage) == 3  # Recent's, Live's and the stranger's new one
    assert count(InboundMessage, InboundMessage.game_id == old) == 0
    assert count(OutboxMessage, OutboxMessage.game_id == old) == 0
    assert count(OutboxMessage, OutboxMessage.game_id == ids["Recent"]) > 0
    assert count(OutboxMessage, OutboxMessage.game_id == ids["Live"]) > 0
    assert count(RateEvent) == 1
    assert count(LoginToken, LoginToken.email == "old@example.org") == 0
    assert count(LoginToken, LoginToken.email == "new@example.org") == 1
    # No body is left without its mail, and none still needed went.
    used = select(OutboxMessage.body_id)
    assert count(MailBody, MailBody.id.not_in(used)) == 0
    assert count(OutboxMessage, OutboxMessage.body_id.not_in(select(MailBody.id))) == 0
    # What the game is stays: turns, results, the log.
    assert {m: count(m) for m in before} == before
    assert count(Game, Game.id == old) == 1
    assert retention.pending(now) == dict.fromkeys(due, 0)
    assert "retention: nothing is kept past its time" in runner.invoke(args=["check"]).output


def test_the_periods_are_settings(kept, app):
    now, ids = kept
    app.config.update(RETAIN_INBOUND_DAYS=60, RETAIN_SENT_MAIL_DAYS=5,
                      RETAIN_RATE_EVENTS_HOURS=1, RETAIN_SIGN_IN_LINKS_DAYS=60)
    due = retention.pending(now)
    assert due["raw inbound mails"] == 0  # Old ended 40 days ago: within 60
    assert due["sent mails"] == count(OutboxMessage, OutboxMessage.game_id.in_(
        [ids["Old"], ids["Recent"]]))  # both ended more than 5 days ago
    assert due["rate-limit rows"] == 1  # never less than the day the limits look back
    assert due["expired sign-in links"] == 0
