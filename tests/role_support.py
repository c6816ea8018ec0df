"""What the two role-boundary tables share (tests/api and tests/web): a snapshot of state.

Each table calls every route as every identity and checks that nothing changed
that the call had no right to change; both compare the same snapshot.
"""

from __future__ import annotations

from sqlalchemy import func, select

from vpsleuth import models
from vpsleuth.extensions import db


def snapshot() -> tuple:
    """What any page, action or API call could change."""
    db.session.rollback()
    rows = lambda *cols: tuple(db.session.execute(select(*cols).order_by(cols[0])))  # noqa: E731
    m = models
    # Every count in one statement: the tables call this twice per route and identity.
    return (tuple(db.session.execute(select(*(
                select(func.count()).select_from(table).scalar_subquery() for table in (
                    m.Game, m.Player, m.Round, m.AuditEntry, m.ApiToken, m.OutboxMessage,
                    m.TurnVersion, m.StandingTip, m.StandingQuestion, m.JoinRequest,
                    m.GameWebhook, m.PushSubscription)))).one()),
            rows(m.Game.id, m.Game.state, m.Game.open_to_join, m.Game.max_players),
            rows(m.JoinRequest.id, m.JoinRequest.state),
            rows(m.Round.id, m.Round.state, m.Round.deadline),
            rows(m.Player.id, m.Player.email, m.Player.active, m.Player.language,
                 m.Player.timezone, m.Player.wants_round_mail, m.Player.wants_reminders,
                 m.Player.wants_confirmations),
            rows(m.ApiToken.id, m.ApiToken.revoked_at),
            rows(m.PushSubscription.id, m.PushSubscription.email, m.PushSubscription.label))
