"""Scheduled jobs, declared as data with stable ids; each only calls services.

Every job takes the app (and, for tests, the time) and does its work in an app
context of its own, so jobs may run in parallel threads or processes. Nothing
here decides whether a round is due: that is derived from stored deadlines, so
a missed or repeated tick does no harm. vpsleuth/jobs/scheduler.py runs them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Flask

from ..mail import outbox
from ..mail.inbound import imap, pipeline
from ..models import utcnow
from ..notices import push, queue, webhook
from ..services import (
    board_digest,
    bots,
    heartbeat,
    limits,
    reminders,
    resolution,
    retention,
    sessions,
    stories,
)

log = logging.getLogger(__name__)


def resolve_rounds(app: Flask, now: datetime | None = None) -> list:
    """Apply the outage rule, then resolve every round that is due (exactly once each)."""
    with app.app_context():
        now = now or utcnow()
        resolution.apply_outage_rule(now, heartbeat.last_heartbeat())
        done = resolution.resolve_due(now)
        for round_ in done:
            log.info("resolved round %d of game %d", round_.number, round_.game_id)
        return [(r.game_id, r.number) for r in done]


def tell_stories(app: Flask, now: datetime | None = None) -> list[int]:
    """Tell the stories asked for (games that ended, a GM's page): the engine's seconds
    run here, once per game and record, never in a request (services/stories.py)."""
    with app.app_context():
        return stories.tell_queued(now)


def release_final_reports(app: Flask, now: datetime | None = None) -> list[int]:
    """Send the final reports that waited too long for their story, without it."""
    with app.app_context():
        return stories.release_overdue(now)


def send_reminders(app: Flask, now: datetime | None = None) -> int:
    """Remind players with no turn yet, per their game's lead times."""
    with app.app_context():
        return len(reminders.send_reminders(now or utcnow()))


def send_board_digests(app: Flask, now: datetime | None = None) -> int:
    """Queue the daily digests of the game boards that are due (services/board_digest.py)."""
    with app.app_context():
        return len(board_digest.send_digests(now or utcnow()))


def send_outbox(app: Flask, now: datetime | None = None) -> int:
    """Send the mails whose time has come (nothing without a MAIL_SERVER)."""
    with app.app_context():
        sent = outbox.send_due(now or utcnow())
        if sent:
            log.info("sent %d mails", sent)
        return sent


# Each channel of the notice queue and its sender (vpsleuth/notices/): one line a channel.
SENDERS: dict[str, queue.Sender] = {
    "push": push.send,
    "webhook": webhook.send,
}


def send_notices(app: Flask, now: datetime | None = None) -> int:
    """Send the push and webhook notices that are due, retrying with back-off
    (vpsleuth/notices/queue.py); none is sent from a request or a round's transaction."""
    with app.app_context():
        sent = queue.send_due(SENDERS, now or utcnow())
        if sent:
            log.info("sent %d notices", sent)
        return sent


def poll_imap(app: Flask, now: datetime | None = None) -> object:
    """Fetch new mail from the IMAP mailbox, if IMAP_HOST is configured.

    Not while an IMAP watcher runs in this process (IMAP_IDLE): it does the same, sooner.
    """
    if not app.config.get("IMAP_HOST"):
        return None
    if any(w.thread.is_alive() for w in app.extensions.get("imap_watchers", ())):
        return None
    return imap.poll_imap(app)  # it opens its own app context


def process_left_over_mail(app: Flask, now: datetime | None = None) -> int:
    """Process turns by mail that were stored but not processed (the database went away)."""
    with app.app_context():
        return pipeline.process_left_over(now or utcnow())


def beat(app: Flask, now: datetime | None = None) -> datetime:
    """Record the heartbeat; a deadline missed during downtime is moved on first."""
    with app.app_context():
        now = now or utcnow()
        # Before the heartbeat is refreshed, or the outage would go unnoticed.
        resolution.apply_outage_rule(now, heartbeat.last_heartbeat())
        heartbeat.record_heartbeat(now)
        return now


def forget_old(app: Flask, now: datetime | None = None) -> int:
    """Delete counted requests and ended sessions no limit or person needs any more."""
    with app.app_context():
        now = now or utcnow()
        counted = max(timedelta(hours=retention.setting("RETAIN_RATE_EVENTS_HOURS")),
                      retention.RATE_WINDOW)
        return limits.forget_before(now - counted) + sessions.forget_before(
            now - timedelta(days=2))


def keep_no_longer(app: Flask, now: datetime | None = None) -> dict[str, int]:
    """Remove raw and sent mails, counted requests and sign-in links past their time
    (services/retention.py; the periods and why: docs/privacy.md)."""
    with app.app_context():
        removed = retention.apply(now)
        if any(removed.values()):
            log.info("retention removed %s", ", ".join(f"{n} {kind}" for kind, n in
                                                      removed.items() if n))
        return removed


def play_bots(app: Flask, now: datetime | None = None) -> int:
    """Send the turn of every bot with none standing in an open round.

    A safety net: bots play where a round opens (services/after_commit.bots_play), so
    this finds work only if that failed, e.g. a process stopped in between.
    """
    with app.app_context():
        return bots.play_all_bots(now or utcnow())


@dataclass(frozen=True)
class Job:
    """One periodic job: a stable id, what it runs, and every how many ticks."""

    id: str
    func: Callable[[Flask, datetime | None], object]
    description: str
    ticks: int = 1
    # A setting naming the job's own interval in seconds, instead of ``ticks`` ticks.
    every_setting: str | None = None

    def seconds(self, app: Flask) -> float:
        """How often the job runs in ``app``."""
        if self.every_setting and app.config.get(self.every_setting):
            return float(app.config[self.every_setting])
        return float(app.config.get("SCHEDULER_TICK_SECONDS") or 30) * self.ticks


JOBS: tuple[Job, ...] = (
    Job("resolve-due-rounds", resolve_rounds, "Resolve rounds whose deadline has passed"),
    Job("tell-stories", tell_stories, "Tell the stories of games that ended",
        every_setting="STORY_POLL_SECONDS"),
    Job("release-final-reports", release_final_reports,
        "Send final reports that waited too long for their story"),
    Job("send-reminders", send_reminders, "Remind players with no turn yet", ticks=2),
    Job("send-board-digests", send_board_digests, "Mail the daily digests of the game boards",
        ticks=20),
    Job("send-outbox", send_outbox, "Send mail from the outbox"),
    Job("send-notices", send_notices, "Send push and webhook notices from their queue"),
    Job("poll-imap", poll_imap, "Fetch turns from the IMAP mailbox", ticks=2),
    Job("process-left-over-mail", process_left_over_mail,
        "Process mails stored but not processed when the database went away", ticks=2),
    Job("heartbeat", beat, "Record that the scheduler is alive"),
    Job("forget-old", forget_old, "Delete old rate counts and ended sessions", ticks=120),
    Job("play-bots", play_bots, "Send the turns computer players still owe", ticks=2),
    Job("retention", keep_no_longer, "Remove mails and counts kept past their time",
        ticks=120),
)


def run_all(app: Flask, now: datetime | None = None) -> dict[str, object]:
    """Run every job once, in order (``vpsleuth scheduler --once``, cron, tests)."""
    results = {}
    for job in JOBS:
        try:
            results[job.id] = job.func(app, now)
        except Exception:  # one failing job must not stop the others
            log.exception("job %s failed", job.id)
            results[job.id] = None
    return results

