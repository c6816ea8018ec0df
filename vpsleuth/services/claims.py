"""Claiming work so that several schedulers divide it instead of queueing for it.

Every job that several schedulers may run at once (resolving due rounds, sending
mails, reminders, notices) claims what it works on. On PostgreSQL the claim locks
its candidate rows ``FOR UPDATE SKIP LOCKED``: a row another scheduler's claim
holds is passed over, not waited for, so two schedulers take different rows from
the start instead of the second one queueing behind each of the first one's locks
and then finding the row done. What keeps anything from being done twice is still
the conditional UPDATE (or the unique constraint) each claim makes; SKIP LOCKED
only spares the waiting.

SQLite writes one transaction at a time and has no SKIP LOCKED; there a single
scheduler works (services/scheduler_lease.py) and the claims are the plain
conditional statements.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, select, update

from ..extensions import db


def skips_locked() -> bool:
    """Whether this database can pass over rows another transaction has locked."""
    return db.session.get_bind().dialect.name == "postgresql"


def lock_if_free(model, row_id: int, *where: ColumnElement[bool]) -> bool:
    """Lock row ``row_id`` of ``model`` for this transaction if it matches ``where``.

    False when it does not match, or (PostgreSQL) when another transaction holds
    it: that one is working on it, so this caller goes on to other work. The lock
    lasts until this transaction commits or rolls back. On SQLite nothing is
    locked here; the caller's conditional UPDATE decides.
    """
    query = select(model.id).where(model.id == row_id, *where)
    if skips_locked():
        query = query.with_for_update(skip_locked=True)
    return db.session.scalar(query) is not None


def claim_batch(model, due: ColumnElement[bool], size: int, **values) -> list[int]:
    """Set ``values`` on up to ``size`` rows matching ``due``, oldest first; their ids.

    One UPDATE ... RETURNING and one commit: only the rows this statement moved
    come back, so two claimers never get the same row (``values`` must make a row
    stop matching ``due``, e.g. status pending -> sending). On PostgreSQL the
    candidates are locked FOR UPDATE SKIP LOCKED, so concurrent claimers divide
    the rows instead of waiting for each other's.
    """
    candidates = select(model.id).where(due).order_by(model.id).limit(size)
    if skips_locked():
        # A CTE, evaluated once: as an IN (subquery) the planner may run the locking
        # subquery again, and each run skips other rows (more than ``size`` came back).
        candidates = candidates.with_for_update(skip_locked=True).cte("candidates")
        chosen = model.id == candidates.c.id
    else:
        chosen = model.id.in_(candidates.scalar_subquery())
    claimed = db.session.scalars(
        update(model).where(chosen, due).values(**values).returning(model.id)
        .execution_options(synchronize_session=False)).all()
    db.session.commit()
    return sorted(claimed)
