"""The notice queue's claims: a batch at a time, each notice handed to one sender once.

Senders here are plain functions that record what they were handed, so the test
sees the queue alone; the channels' own senders are tested beside their services.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import Notice, utcnow
from vpsleuth.notices import queue


def queued(count: int, channel: str = "push") -> list[int]:
    notices = [queue.add(channel, "round_opened", {"n": n}) for n in range(count)]
    db.session.commit()
    return [n.id for n in notices]


def recorder(handed: list[int], outcome=queue.Outcome.sent):
    def send(notice: Notice) -> queue.Outcome:
        handed.append(notice.id)
        return outcome()
    return send


def test_a_batch_claim_hands_each_notice_once_and_oldest_first(app):
    ids = queued(7)
    handed: list[int] = []
    assert queue.send_due({"push": recorder(handed)}, batch=3) == 7
    assert handed == ids  # three claims of 3, 3 and 1, in the order they were queued
    assert queue.send_due({"push": recorder(handed)}, batch=3) == 0  # nothing twice
    assert queue.counts()["sent"] == 7


def test_the_limit_stops_a_tick_and_the_rest_waits_for_the_next(app):
    ids = queued(5)
    handed: list[int] = []
    assert queue.send_due({"push": recorder(handed)}, limit=2, batch=50) == 2
    assert handed == ids[:2]
    assert db.session.scalar(select(func.count()).where(Notice.status == "pending")) == 3


def test_a_claim_takes_only_the_channels_asked_for(app):
    queued(2, "push")
    hooks = queued(2, "webhook")
    handed: list[int] = []
    assert queue.send_due({"webhook": recorder(handed)}) == 2
    assert handed == hooks
    assert queue.counts()["pending"] == 2  # the push notices wait for their sender


def test_a_retried_notice_is_not_claimed_again_before_its_back_off(app):
    (notice_id,) = queued(1)
    handed: list[int] = []
    later = lambda: queue.Outcome.retry("HTTP 503")  # noqa: E731
    now = utcnow()
    assert queue.send_due({"push": recorder(handed, later)}, now) == 0
    assert queue.send_due({"push": recorder(handed, later)}, now + timedelta(seconds=30)) == 0
    assert handed == [notice_id]  # the minute of back-off was not over
    assert queue.send_due({"push": recorder(handed)}, now + timedelta(minutes=2)) == 1
    assert handed == [notice_id, notice_id]


@pytest.mark.live_db
def test_two_senders_at_once_divide_the_queue_and_hand_nothing_over_twice(app):
    ids = queued(120)
    handed: list[int] = []
    lock = threading.Lock()

    def send(notice: Notice) -> queue.Outcome:
        with lock:
            handed.append(notice.id)
        return queue.Outcome.sent()

    def sender() -> None:
        with app.app_context():
            try:
                queue.send_due({"push": send}, batch=10)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(handed) == ids  # every notice once, none twice
    db.session.rollback()
    assert queue.counts()["sent"] == 120
