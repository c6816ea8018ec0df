"""The IMAP watcher against a real Dovecot: IDLE, polling without it, reconnecting.

Every wait is generous and nothing is timed: each test waits for what must
happen (a confirmation queued, a reconnection) and fails only if it never does.
The settings make the slow paths slow (a rescan every 10 minutes), so that a
reply processed within the wait was processed because the server told of it.
"""

from __future__ import annotations

import logging
import re
import time

from vpsleuth.mail.inbound import imap
from vpsleuth.mail.inbound.store import StoreError
from vpsleuth.rules import parse_question
from vpsleuth.services import turns

from ..support import inbound
from .helpers import SLOW, confirmations, connect_mailbox, reply, wait_until


def test_a_reply_arriving_while_the_watcher_idles_is_confirmed_within_seconds(
        app, game, ada, mailbox, watching):
    watcher = watching(**SLOW)
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    mailbox.append(reply(ada, 1))
    wait_until(lambda: len(confirmations()) == 1, "the confirmation")
    assert (watcher.mode, watcher.connections) == ("idle", 1)
    assert [(r.source, r.status) for r in inbound()] == [("imap", "applied")]
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    wait_until(lambda: mailbox.messages(mailbox.folder) == [], "the move to the done folder")
    assert len(mailbox.messages(mailbox.done)) == 1


def test_a_reply_that_came_just_before_a_pass_searched_is_not_left_to_the_rescan(
        app, game, ada, mailbox, watching, monkeypatch):
    """Dovecot tells of such a message only in the SEARCH's answer, never again in IDLE.

    Here it comes after the watcher's SELECT and before its first SEARCH, as it
    did in a full run once (the watcher then idled for its ten minutes).
    """
    real, passes = imap.process_folder, []

    def arriving_before_the_first_search(client, caps, keep=None):
        if not passes:
            mailbox.append(reply(ada, 1))
        passes.append(real(client, caps, keep))
        return passes[-1]

    monkeypatch.setattr(imap, "process_folder", arriving_before_the_first_search)
    watcher = watching(**SLOW)
    wait_until(lambda: len(confirmations()) == 1, "the confirmation")
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    assert [p.moved for p in passes[:2]] == [0, 1]  # the first pass missed it; the next not
    assert watcher.connections == 1
    assert [(r.source, r.status) for r in inbound()] == [("imap", "applied")]


def test_a_message_that_cannot_be_stored_stays_and_the_watcher_idles_rather_than_spin(
        app, game, ada, mailbox, watching, monkeypatch):
    """The fresh SELECT counts it, but it is the pass's own leftover, not news."""
    passes = []
    real = imap.process_folder
    monkeypatch.setattr(imap, "process_folder",
                        lambda *args: passes.append(real(*args)) or passes[-1])

    def unstorable(raw, source):
        raise StoreError("could not store the message: a test's refusal", temporary=False)

    monkeypatch.setattr(imap, "receive", unstorable)
    mailbox.append(reply(ada, 1))
    watcher = watching(**SLOW)
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    time.sleep(1)  # a watcher going round would pass again and again meanwhile
    assert watcher.state == "idle" and len(passes) == 1
    assert (passes[0].left, passes[0].moved) == (1, 0)
    assert len(mailbox.messages(mailbox.folder)) == 1  # kept for a later pass, not lost


def test_mail_waiting_when_the_watcher_starts_is_processed_at_once(
        app, game, ada, ben, mailbox, watching):
    mailbox.append(reply(ada, 1))
    mailbox.append(reply(ben, 2))
    watcher = watching(**SLOW)
    wait_until(lambda: len(confirmations()) == 2, "two confirmations")
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    assert [r.status for r in inbound()] == ["applied", "applied"]
    wait_until(lambda: mailbox.messages(mailbox.folder) == [], "the moves to the done folder")


def test_replies_in_quick_succession_are_each_confirmed_once(
        app, game, ada, ben, mailbox, watching):
    watcher = watching(**SLOW)
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    for n in range(6):
        mailbox.append(reply(ada if n % 2 else ben, n))
    wait_until(lambda: len(confirmations()) == 6, "six confirmations")
    assert [r.status for r in inbound()] == ["applied"] * 6
    wait_until(lambda: len(mailbox.messages(mailbox.done)) == 6, "the moves to the done folder")


def test_a_server_without_idle_is_polled_instead(app, game, ada, mailbox, watching,
                                                 monkeypatch, caplog):
    real = imap.capabilities
    monkeypatch.setattr(imap, "capabilities", lambda client: real(client) - {"IDLE"})
    caplog.set_level(logging.INFO, logger="vpsleuth.mail.inbound.watch")
    watcher = watching(IMAP_IDLE_SECONDS=600, IMAP_POLL_SECONDS=0.5)
    wait_until(lambda: watcher.state == "polling", "the watcher to poll")
    mailbox.append(reply(ada, 1))
    wait_until(lambda: len(confirmations()) == 1, "the confirmation")
    assert watcher.mode == "poll"
    assert "without IDLE" in caplog.text


def reconnects_and_confirms_a_reply(watcher, server, own, ada, after: str) -> None:
    """The watcher connects a second time and idles; a reply appended then is applied."""
    wait_until(lambda: watcher.connections == 2 and watcher.state == "idle",
               "the watcher to reconnect")
    mailbox = connect_mailbox(server, own.folder)
    mailbox.append(reply(ada, 1))
    mailbox.conn.logout()
    wait_until(lambda: len(confirmations()) == 1, f"the confirmation {after}")
    assert [r.status for r in inbound()] == ["applied"]


def test_a_connection_the_server_drops_is_made_again_and_later_mail_processed(
        app, game, ada, server, own, watching, caplog):
    caplog.set_level(logging.INFO, logger="vpsleuth.mail.inbound.watch")
    watcher = watching(**SLOW)
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    server.kick()  # every connection of the user: the watcher's, and the test's own
    reconnects_and_confirms_a_reply(watcher, server, own, ada, "after reconnecting")
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert warnings[0].getMessage().endswith("trying again in 1 s")


def test_a_restarted_server_is_reconnected_with_back_off_and_mail_processed(
        app, game, ada, server, own, watching, caplog):
    caplog.set_level(logging.INFO, logger="vpsleuth.mail.inbound.watch")
    watcher = watching(IMAP_RECONNECT_MAX_SECONDS=2, **SLOW)
    wait_until(lambda: watcher.state == "idle", "the watcher to enter IDLE")
    # The restart as an administrator does it: the sessions closed, then the server
    # stopped. Stopped alone, Dovecot 2.3 says BYE to an idling session only 10 s
    # after its master is gone, which this test would only wait for.
    server.kick()
    server.stop()
    try:
        wait_until(lambda: watcher.failures >= 3, "three failed attempts")
    finally:
        server.start()
    reconnects_and_confirms_a_reply(watcher, server, own, ada, "after the restart")
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    waits = [w.rpartition("trying again in ")[2] for w in warnings]
    assert waits[:3] == ["1 s", "2 s", "2 s"]  # doubling, up to IMAP_RECONNECT_MAX_SECONDS
    assert all(r.exc_info is None for r in caplog.records)  # a line each, no traceback
    assert re.search(r"connected to \S+ after \d+ failed attempt", caplog.text)
