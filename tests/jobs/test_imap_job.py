"""The poll-imap job and the IMAP watcher: one of them fetches, never both in one process."""

from __future__ import annotations

from types import SimpleNamespace

from vpsleuth import jobs
from vpsleuth.mail.inbound import imap


def fake_watcher(alive: bool) -> SimpleNamespace:
    return SimpleNamespace(thread=SimpleNamespace(is_alive=lambda: alive))


def test_the_imap_job_leaves_the_mailbox_to_a_live_watcher_of_this_process(app, now,
                                                                          monkeypatch):
    calls = []
    monkeypatch.setattr(imap, "poll_imap", lambda a: calls.append(a) or "polled")
    monkeypatch.setitem(app.config, "IMAP_HOST", "imap.sleuth.test")
    monkeypatch.setitem(app.extensions, "imap_watchers", [fake_watcher(alive=True)])
    assert jobs.poll_imap(app, now) is None
    assert calls == []


def test_the_imap_job_polls_again_once_the_watcher_has_stopped(app, now, monkeypatch):
    calls = []
    monkeypatch.setattr(imap, "poll_imap", lambda a: calls.append(a) or "polled")
    monkeypatch.setitem(app.config, "IMAP_HOST", "imap.sleuth.test")
    monkeypatch.setitem(app.extensions, "imap_watchers", [fake_watcher(alive=False)])
    assert jobs.poll_imap(app, now) == "polled"
    assert calls == [app]
