"""A game's chat hears its rounds, reports and end through a real webhook receiver.

A threaded HTTP server on 127.0.0.1 (chat_receiver.py, started once for the module)
stands in for Discord, Slack, Mattermost and matrix-hookshot; the send job's sender
posts to it for real. Checked: each format's JSON for each event, in the game's
language; no tip, gem or distribution in anything sent; a player's name cannot
mention or link; a hanging chat does not delay the round and is given up within
the timeout; 5xx is retried until delivered, 404 stops; the address is checked
again at send time; the last result is kept for the GM.
"""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta

import pytest
from smtp_sink import DATABASES
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.i18n import translate
from vpsleuth.i18n.dates import deadline_text
from vpsleuth.models import AuditEntry, GameWebhook, Notice
from vpsleuth.notices import queue, webhook
from vpsleuth.rules import GEMS, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reports, resolution, stories, turns, webhooks

from .chat_receiver import ChatReceiver

GM = "gm@example.org"
MALLORY = "<!channel> [click](https://evil.example) *bold* `code`"
SENDERS = {"webhook": webhook.send}
GEM_WORD = re.compile(r"\b(" + "|".join(g.code for g in GEMS) + r")\b")
KEYS = {"discord": {"content", "allowed_mentions"},
        "slack": {"text", "unfurl_links", "unfurl_media"},
        "mattermost": {"text"}, "matrix": {"text", "html"}}
LANGS = {"discord": "en", "slack": "de", "mattermost": "es", "matrix": "en"}
# What would mention, link or format in each chat's markup (HTML: * and ` are plain).
ATTACKS = {"markup": ("@everyone", "<!channel>", "](https://evil", "https://evil", "*bold*",
                      "`code`"),
           "matrix": ("@everyone", "<!channel>", "https://evil")}
OPENED = {"en": "round 1 of 2 is open until", "de": "Runde 1 von 2 läuft bis",
          "es": "la ronda 1 de 2 está abierta hasta el"}


@pytest.fixture(scope="module")
def chat():
    with ChatReceiver() as receiver:
        yield receiver


@pytest.fixture(params=DATABASES)
def app(request, app_on, chat):
    """The app on one database; final reports go at once (no story to wait for)."""
    with app_on(request.param, STORY_IN_FINAL_REPORT=False, WEBHOOK_TIMEOUT_SECONDS=0.5) as app:
        chat.reset()
        yield app


def duel(now, url: str, fmt: str = "discord", lang: str = "en"):
    """Ada and Ben, who tip the same right gem in round 1 (a tie), and Mallory, whose name
    tries every chat's markup; two rounds, the chat webhook set."""
    game = games.create_game(f"Opal @everyone {fmt}", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(2, 5, (3, 2, 1), 1, -2, False), language=lang)
    for name, email in (("Ada", "ada@example.org"), ("Ben", "ben@example.org"),
                        (MALLORY, "mallory@example.org")):
        games.add_player(game, name, email, now=now)
    webhooks.set_webhook(game, url, fmt, actor=GM)
    games.start_game(game, now=now, seed=7)
    return game


def tips_and_secret(game) -> tuple[str, str, list[str]]:
    """A right tip (place, gem) and every part of the distribution."""
    parts = [p for p in game.secret.distribution.split(";") if p.split("=")[1]]
    place, gems = parts[0].split("=")
    return place, gems.split(",")[0], parts


def readable(body: dict, fmt: str) -> str:
    """What a reader sees of a body, markup taken off."""
    text = body.get("content") or body.get("text")
    if fmt in ("discord", "mattermost"):
        text = re.sub(r"\\(.)", r"\1", text)
    if fmt == "slack":
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return text.replace("\u200b", "")


def test_each_format_gets_its_json_for_every_event_and_never_a_secret(app, chat, now):
    for fmt, lang in LANGS.items():
        chat.reset()
        game = duel(now, chat.url(f"/{fmt}"), fmt, lang)
        place, gem, secret = tips_and_secret(game)
        ada, ben, _ = game.players
        for player in (ada, ben):
            turns.submit_turn(player, f"QUESTION E blue opal\nTIP {place} {gem}", channel="web",
                              entered_by=player.email, now=now)
        first = resolution.resolve_round(game, now=now + timedelta(hours=1), number=1)
        resolution.resolve_round(game, now=now + timedelta(hours=2), number=2)
        assert game.state == "finished"
        assert queue.send_due(SENDERS, now + timedelta(hours=3)) == 4
        assert [r.path for r in chat.received] == [f"/{fmt}"] * 4
        bodies = [r.body for r in chat.received]
        for body in bodies:
            assert set(body) == KEYS[fmt], fmt
            raw = json.dumps(body, ensure_ascii=False)
            assert not GEM_WORD.search(raw), (fmt, raw)  # no tip, no distribution
            assert not any(part in raw for part in secret) and game.secret.salt not in raw
            assert translate(lang, "Tips") not in readable(body, fmt)
            marked = body.get("html") if fmt == "matrix" else raw  # matrix: text is plain
            for attack in ATTACKS.get(fmt, ATTACKS["markup"]):
                assert attack not in marked, (fmt, attack)
            assert "@everyone" not in raw and "https://evil" not in raw
            assert "Content-Type" in chat.received[0].headers
        if fmt == "discord":
            assert all(len(b["content"]) <= 2000 and b["allowed_mentions"] == {"parse": []}
                       for b in bodies)
        opened, report, _, ended = (readable(b, fmt) for b in bodies)
        assert OPENED[lang] in opened
        assert deadline_text(first.deadline, "Europe/Berlin", lang) in opened
        assert f"/games/{game.id}" in opened
        built = reports.build_report(game, 1, lang, public=True)
        assert built.questions and all(f"{q.text} {translate(lang, 'Answer')}: {q.answer}"
                                       in report for q in built.questions)
        assert MALLORY in report  # shown as written, never as markup
        for row in built.rows:
            assert f"{row.rank}. {row.player}: " in report
        assert f"/games/{game.id}/rounds/1" in report
        assert "Ada, Ben" in ended and MALLORY not in ended.split("\n")[2]  # the tie's line
        if fmt == "matrix":
            html = bodies[3]["html"]
            assert "<strong>" in html and "&lt;!channel&gt;" in bodies[1]["html"]
            assert '<a href="https://evil' not in html


def test_a_final_report_that_waits_for_its_story_is_announced_once(app, chat, now):
    app.config["STORY_IN_FINAL_REPORT"] = True
    game = duel(now, chat.url())
    resolution.resolve_round(game, now=now + timedelta(hours=1), number=1)
    resolution.resolve_round(game, now=now + timedelta(hours=2), number=2)
    kinds = lambda: db.session.scalars(select(Notice.kind).order_by(Notice.id)).all()  # noqa: E731
    assert kinds() == ["round_opened", "report", "round_opened"]  # the end waits
    later = now + timedelta(hours=3)
    stories.release_overdue(later)
    stories.release_overdue(later + timedelta(minutes=1))
    assert kinds() == ["round_opened", "report", "round_opened", "game_ended"]


def test_a_hanging_chat_never_delays_the_round_and_is_given_up_within_the_timeout(
        app, chat, now):
    game = duel(now, chat.url())
    assert queue.send_due(SENDERS, now) == 1  # round 1 opened
    chat.reset("hang")
    started = time.monotonic()
    resolution.resolve_round(game, now=now + timedelta(hours=1), number=1)  # commits, returns
    resolved_in = time.monotonic() - started
    assert chat.connections == 0  # the round committed without the chat being asked
    db.session.rollback()
    waiting = db.session.scalars(select(Notice).where(Notice.status == "pending")).all()
    assert [n.kind for n in waiting] == ["report", "round_opened"]
    started = time.monotonic()
    assert queue.send_due(SENDERS, now + timedelta(hours=1)) == 0
    gave_up_in = time.monotonic() - started
    assert chat.connections == 2 and gave_up_in < 2 * 0.5 + 1.5, gave_up_in
    assert resolved_in < gave_up_in
    db.session.rollback()
    for notice in waiting:
        db.session.refresh(notice)
        assert (notice.status, notice.attempts) == ("pending", 1)
        assert "no answer within 0.5 seconds" in notice.last_error
    hook = webhooks.of(game)
    assert (hook.last_ok, hook.last_result) == (False, "no answer within 0.5 seconds")
    chat.reset()
    assert queue.send_due(SENDERS, now + timedelta(hours=1, minutes=2)) == 2
    assert len(chat.received) == 2


def test_a_chat_answering_5xx_is_tried_again_and_gets_it_once_it_recovers(app, chat, now):
    game = duel(now, chat.url())
    chat.reset(503)
    assert queue.send_due(SENDERS, now) == 0
    notice = db.session.scalars(select(Notice)).one()
    assert (notice.status, notice.last_error) == ("pending", "HTTP 503")
    assert webhooks.of(game).last_result == "HTTP 503"
    chat.reset(429)
    assert queue.send_due(SENDERS, now + timedelta(seconds=30)) == 0  # back-off: not yet
    assert chat.connections == 0
    chat.reset(200)
    assert queue.send_due(SENDERS, now + timedelta(minutes=1, seconds=1)) == 1
    db.session.refresh(notice)
    hook = webhooks.of(game)
    assert (notice.status, notice.attempts, hook.last_ok, hook.last_result) == (
        "sent", 2, True, "HTTP 200")


def test_a_deleted_chat_webhook_answering_404_stops_it(app, chat, now):
    game = duel(now, chat.url())
    chat.reset(404)
    queue.send_due(SENDERS, now)
    notice = db.session.scalars(select(Notice)).one()
    assert (notice.status, notice.last_error) == ("dropped", "HTTP 404")
    assert (webhooks.of(game).last_ok, webhooks.of(game).last_result) == (False, "HTTP 404")


def test_the_address_is_checked_again_when_sent_and_a_refused_one_gets_nothing(
        app, chat, now):
    game = duel(now, chat.url())
    # Saved when the name led elsewhere; its DNS answer (/etc/hosts) now leads here.
    webhooks.of(game).url = chat.url().replace("http://127.0.0.1", "https://localhost")
    db.session.commit()
    queue.send_due(SENDERS, now)
    notice = db.session.scalars(select(Notice)).one()
    assert notice.status == "dropped" and "loopback" in notice.last_error
    assert chat.connections == 0
    assert "loopback" in webhooks.of(game).last_result


def test_removing_the_webhook_drops_what_it_had_not_sent_and_the_audit_keeps_no_address(
        app, chat, now):
    game = duel(now, chat.url("/secret-token-123"))
    assert webhooks.clear_webhook(game, actor=GM)
    assert db.session.scalars(select(Notice.status)).all() == ["dropped"]
    assert db.session.scalars(select(GameWebhook)).all() == []
    assert queue.send_due(SENDERS, now) == 0 and chat.connections == 0
    details = db.session.scalars(select(AuditEntry.detail).where(
        AuditEntry.action.in_(["set_webhook", "clear_webhook"]))).all()
    assert len(details) == 2 and not any("secret-token" in d for d in details)
    assert all('"host": "127.0.0.1"' in d for d in details)
