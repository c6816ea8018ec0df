"""The GM console: the deadline after an early close, a deadline brought forward, and who
has not sent a turn before "Resolve now"."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game, OutboxMessage, utcnow
from vpsleuth.rules.schedule import to_local
from vpsleuth.services import games, turns

GM_EMAIL = "gm@example.org"
NEW_GAME = {"name": "Ruby", "language": "en", "rounds": "12", "first_bonus_round": "5",
            "bonuses": "3, 2, 1", "points_right": "1", "points_wrong": "-2",
            "reminders": "24, 4", "schedule_kind": "weekly",
            "first_deadline": "2031-03-23T20:00", "every_days": "7",
            "timezone": "Europe/Berlin", "timezone_other": "", "deadlines": "",
            "early_resolution": "y"}


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def plain(response) -> str:
    """The page's text without tags."""
    return re.sub(r"<[^>]+>", "", text(response))


def fresh_game(game_id: int) -> Game:
    db.session.rollback()
    return db.session.get(Game, game_id)


def local(moment) -> str:
    """A datetime-local value in Berlin."""
    return to_local(moment, "Europe/Berlin").strftime("%Y-%m-%dT%H:%M")


def test_the_new_game_form_offers_the_calendar_and_a_fresh_interval(gm_web):
    page = text(gm_web.get("/gm/games/new"))
    assert "After a round closes early, the next deadline" in page
    assert re.search(r'name="after_early" value="calendar" checked', page)
    assert 'name="after_early" value="fresh">' in page
    gm_web.get("/lang/de")
    german = text(gm_web.get("/gm/games/new"))
    assert "Endet eine Runde vorzeitig, ist der nächste Abgabetermin" in german


def test_a_game_is_created_with_a_fresh_interval_after_an_early_close(gm_web):
    response = gm_web.post("/gm/games/new", {**NEW_GAME, "after_early": "fresh"})
    assert response.status_code == 302
    game = db.session.scalar(select(Game).where(Game.name == "Ruby"))
    assert game.after_early == "fresh" and game.early_resolution
    odd = gm_web.post("/gm/games/new", {**NEW_GAME, "name": "Odd", "after_early": "soon"})
    assert odd.status_code == 400 and "Choose one of the offered values." in text(odd)


def test_the_game_page_changes_the_choice_while_the_game_runs(gm_web, gm_running_game):
    url = f"/gm/games/{gm_running_game.id}"
    page = text(gm_web.get(url))
    assert 'name="after_early" value="calendar" checked' in page
    response = gm_web.post(f"{url}/after-early", {"after_early": "fresh"})
    assert response.status_code == 302 and response.headers["Location"].endswith("#schedule")
    assert fresh_game(gm_running_game.id).after_early == "fresh"
    page = text(gm_web.get(url))
    assert "next round gets a whole interval from the close." in page  # the flash
    assert 'name="after_early" value="fresh" checked' in page
    bad = gm_web.post(f"{url}/after-early", {"after_early": "weekly"})
    assert bad.status_code == 400
    assert fresh_game(gm_running_game.id).after_early == "fresh"
    audit = text(gm_web.get(f"{url}/audit"))
    assert "deadline after an early close chosen" in audit


def test_another_gm_cannot_change_the_choice(gm_web_as, gm_running_game):
    from vpsleuth.services import accounts

    accounts.create_game_master("otto@example.org", "Otto")
    otto = gm_web_as("otto@example.org")
    response = otto.post(f"/gm/games/{gm_running_game.id}/after-early", {"after_early": "fresh"})
    assert response.status_code == 404
    assert fresh_game(gm_running_game.id).after_early == "calendar"


def test_the_board_brings_the_deadline_forward_and_the_players_get_a_mail(
        gm_web, gm_running_game):
    old = gm_running_game.open_round.deadline
    sooner = utcnow() + timedelta(days=2)
    board = text(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    assert "Move the deadline" in board and "Later or earlier, but not into the past." in board
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/deadline",
                           {"deadline": local(sooner)})
    assert response.status_code == 302
    game = fresh_game(gm_running_game.id)
    assert game.open_round.deadline < old
    assert local(game.open_round.deadline) == local(sooner)
    mails = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "deadline_moved")).all()
    assert len(mails) == 2 and all("brought the deadline forward" in m.body_text for m in mails)
    assert db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id.desc())
                              ).first() == "advance_deadline"


def test_the_board_refuses_a_deadline_in_the_past(gm_web, gm_running_game):
    old = gm_running_game.open_round.deadline
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/deadline",
                           {"deadline": local(utcnow() - timedelta(hours=1))})
    assert response.status_code == 400 and "must be in the future" in text(response)
    assert fresh_game(gm_running_game.id).open_round.deadline == old


def test_resolve_now_names_who_has_not_sent_a_turn(gm_web, gm_running_game):
    ada = gm_running_game.players[0]
    url = f"/gm/games/{gm_running_game.id}/board"
    board = text(gm_web.get(url))
    assert "No turn yet from: Ada, Bob. They score nothing this round." in plain(
        gm_web.get(url))
    assert 'data-confirm="Resolve this round now? No turn yet from Ada, Bob: they score ' \
           'nothing this round. This cannot be undone."' in board
    turns.submit_turn(ada, "TIP A RD1", channel="web")
    board = text(gm_web.get(url))
    assert "No turn yet from: Bob." in plain(gm_web.get(url)) and "No turn yet from Bob:" in board
    turns.submit_turn(gm_running_game.players[1], "QUESTION A red", channel="web")
    board = text(gm_web.get(url))
    assert "Every player has sent a turn." in board
    assert 'data-confirm="Resolve this round now? This cannot be undone."' in board


def test_resolve_now_names_ten_and_counts_the_rest(gm_web, gm_running_game):
    for n in range(12):
        games.add_player(gm_running_game, f"Zed{n:02d}", f"zed{n}@example.org")
    board = plain(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    assert "No turn yet from: Ada, Bob, Zed00, Zed01, Zed02, Zed03, Zed04, Zed05, Zed06, " \
           "Zed07 and 4 more." in board


def test_the_console_in_german_names_the_missing_turns(gm_web, gm_running_game):
    gm_web.get("/lang/de")
    board = plain(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    assert "Noch kein Zug von: Ada, Bob. Sie punkten in dieser Runde nicht." in board
    assert "Termin verschieben" in board
