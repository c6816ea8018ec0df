"""One process at a time works on the IMAP mailbox: the lease, the poll job, two watchers."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from vpsleuth.mail.inbound import imap, poll_imap, watch
from vpsleuth.mail.inbound.lease import MailboxLease, current_holder
from vpsleuth.models import utcnow

from ..support import free_port, inbound, outbox
from .helpers import SLOW, confirmations, reply, wait_until


def test_a_free_lease_is_taken_and_renewed_by_its_holder_only(app):
    t0 = utcnow()
    one, two = MailboxLease("one", 90), MailboxLease("two", 90)
    assert one.claim(t0)
    assert not two.claim(t0 + timedelta(seconds=30))
    assert one.claim(t0 + timedelta(seconds=60))  # renewed: counts from here
    assert not two.claim(t0 + timedelta(seconds=120))
    assert current_holder() == "one"


def test_a_lease_not_renewed_in_time_goes_to_the_next_taker(app):
    t0 = utcnow()
    one, two = MailboxLease("one", 90), MailboxLease("two", 90)
    assert one.claim(t0)
    assert two.claim(t0 + timedelta(seconds=91))
    assert not one.claim(t0 + timedelta(seconds=92))  # it knows it lost it
    assert current_holder() == "two"


def test_a_released_lease_is_free_at_once(app):
    one, two = MailboxLease("one", 90), MailboxLease("two", 90)
    assert one.claim()
    two.release()  # not its own: changes nothing
    assert not two.claim()
    one.release()
    assert two.claim()


def test_keeping_a_lease_asks_the_database_only_every_third_of_its_time(app):
    one, two = MailboxLease("one", 90), MailboxLease("two", 90)
    assert one.claim()
    assert not one.due
    assert two.claim(utcnow() + timedelta(seconds=100))  # one was presumed dead
    assert one.keep()  # renewed 0 s ago: still ours as far as it can know
    one._claimed_at -= 31
    assert one.due and not one.keep()


def test_the_poll_leaves_the_mailbox_to_a_watcher_that_holds_it(app, game, ada, mailbox):
    watcher = MailboxLease("watch@elsewhere:1:abc", 90)
    assert watcher.claim()
    mailbox.append(reply(ada, 1))
    result = poll_imap(app)
    assert (result.busy, result.stored, result.moved) == ("watch@elsewhere:1:abc", [], 0)
    assert inbound() == [] and len(mailbox.messages(mailbox.folder)) == 1
    watcher.release()
    assert len(poll_imap(app).stored) == 1
    assert current_holder() == ""  # the poll gave it back


def test_the_poll_command_says_who_has_the_mailbox(app, runner, game, mailbox):
    assert MailboxLease("watch@elsewhere:1:abc", 90).claim()
    result = runner.invoke(args=["mail", "poll"])
    assert result.exit_code == 0, result.output
    assert "watch@elsewhere:1:abc" in result.output
    assert "nothing done" in result.output


def test_two_watchers_process_each_message_once_and_one_takes_over_from_the_other(
        app, game, ada, ben, mailbox, watching):
    first = watching("watch-one", IMAP_LEASE_SECONDS=3, **SLOW)
    wait_until(lambda: first.state == "idle", "the first watcher to enter IDLE")
    second = watching("watch-two")
    wait_until(lambda: second.state == "standby", "the second watcher to stand by")
    for n in range(4):
        mailbox.append(reply(ada if n % 2 else ben, n))
    wait_until(lambda: len(confirmations()) == 4, "four confirmations")
    assert [r.status for r in inbound()] == ["applied"] * 4
    first.stop()
    wait_until(lambda: second.state == "idle", "the second watcher to take over")
    mailbox.append(reply(ada, 9))
    wait_until(lambda: len(confirmations()) == 5, "the confirmation from the second")
    assert [r.status for r in inbound()] == ["applied"] * 5
    assert current_holder() == "watch-two"


def test_an_unreachable_server_is_retried_with_back_off_without_end(app, watching, caplog):
    caplog.set_level(logging.INFO, logger="vpsleuth.mail.inbound.watch")
    watcher = watching(IMAP_HOST="127.0.0.1", IMAP_PORT=free_port(), IMAP_SSL=False,
                       IMAP_RECONNECT_MAX_SECONDS=0.5)
    wait_until(lambda: watcher.failures >= 4, "four failed attempts")
    assert watcher.thread.is_alive() and watcher.connections == 0
    lines = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(lines) >= 4 and all(r.exc_info is None for r in lines)
    assert "Connection refused" in lines[0].getMessage()
    # Given back while it waits, so a poll may try meanwhile. Looked for over a few of
    # its 0.5 s waits: at one instant the watcher may be holding it for an attempt.
    wait_until(lambda: current_holder() == "", "the lease given back between attempts", 5)


def test_a_failure_nobody_foresaw_is_logged_and_the_watcher_goes_on(
        app, game, ada, mailbox, watching, monkeypatch, caplog):
    real, calls = imap.process_folder, []

    def broken_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug")
        return real(*args, **kwargs)

    monkeypatch.setattr(imap, "process_folder", broken_once)
    mailbox.append(reply(ada, 1))
    watcher = watching(**SLOW)
    wait_until(lambda: len(confirmations()) == 1, "the confirmation after the failure")
    assert watcher.connections == 2
    failure = next(r for r in caplog.records if r.name == watch.__name__
                   and r.levelno == logging.ERROR)
    assert failure.exc_info is not None and "trying again in 1 s" in failure.getMessage()
    assert [m.kind for m in outbox()] == ["confirmation"]


@pytest.mark.parametrize(("failures", "wait"), [(1, 1), (2, 2), (3, 4), (9, 256), (10, 300),
                                                (1000, 300)])
def test_the_back_off_doubles_up_to_its_limit(failures, wait):
    assert watch.backoff(failures, 300) == wait
