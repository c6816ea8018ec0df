"""The status board and what the GM does to the open round."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import (
    AuditEntry,
    Game,
    OutboxMessage,
    Round,
    RoundResult,
    TurnVersion,
    utcnow,
)
from vpsleuth.rules import GEMS
from vpsleuth.rules.schedule import to_local
from vpsleuth.services import turns

GM_EMAIL = "gm@example.org"
GEM_CODE = re.compile(r"\b[RBGY][DPO][123]\b")


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def fresh_game(game_id: int) -> Game:
    db.session.rollback()
    return db.session.get(Game, game_id)


def actions() -> list[str]:
    db.session.rollback()
    return db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()


def test_the_board_shows_who_sent_what_kind_of_turn_but_never_its_contents(
        gm_web, gm_running_game):
    ada = gm_running_game.players[0]
    turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1, B green pearl pair, X YO3",
                      channel="email")
    page = text(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    rows = re.findall(r"<tr class=\"(in|missing)\">(.*?)</tr>", page, re.S)
    assert [kind for kind, _ in rows] == ["in", "missing"]
    ada_row, bob_row = (re.sub(r"<[^>]+>|\s+", " ", row) for _, row in rows)
    assert "Ada" in ada_row and "email" in ada_row and " yes " in ada_row and " 3 " in ada_row
    assert "Bob" in bob_row and "none yet" in bob_row and " 0 " in bob_row
    assert '<strong id="turns-in">1 / 2</strong>' in page
    assert not GEM_CODE.search(page)
    for secret in ("blue opal", "green pearl", "Diamant", gm_running_game.secret.salt):
        assert secret not in page
    assert not any(gem.name() in page for gem in GEMS)


def test_the_board_of_a_game_not_started_says_so(gm_web, gm_setup_game):
    page = text(gm_web.get(f"/gm/games/{gm_setup_game.id}/board"))
    assert "The game has not started yet." in page and 'id="resolve"' not in page


def test_extending_the_deadline_reads_the_local_time_of_the_games_zone(gm_web, gm_running_game):
    old = gm_running_game.open_round.deadline
    local = to_local(old + timedelta(days=2), "Europe/Berlin").replace(hour=21, minute=30)
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/deadline",
                           {"deadline": local.strftime("%Y-%m-%dT%H:%M")})
    assert response.status_code == 302
    game = fresh_game(gm_running_game.id)
    assert game.open_round.deadline == local.replace(tzinfo=None).replace(
        tzinfo=local.tzinfo)
    assert to_local(game.open_round.deadline, "Europe/Berlin").strftime("%H:%M") == "21:30"
    moved = db.session.scalars(select(OutboxMessage.to_addr).where(
        OutboxMessage.kind == "deadline_moved")).all()
    assert sorted(moved) == ["ada@example.org", "bob@example.org"]
    assert actions()[-1] == "extend_deadline"
    assert "The deadline of round 1 is now" in text(gm_web.get(response.headers["Location"]))


def test_a_new_deadline_must_be_in_the_future(gm_web, gm_running_game):
    url = f"/gm/games/{gm_running_game.id}/deadline"
    old = gm_running_game.open_round.deadline
    past = to_local(utcnow() - timedelta(hours=1), "Europe/Berlin").strftime("%Y-%m-%dT%H:%M")
    response = gm_web.post(url, {"deadline": past})
    assert response.status_code == 400
    assert "the new deadline must be in the future" in text(response)
    garbage = gm_web.post(url, {"deadline": "tomorrow evening"})
    assert garbage.status_code == 400
    assert "'tomorrow evening' is not a date and time (YYYY-MM-DD HH:MM)" in text(garbage)
    empty = gm_web.post(url, {"deadline": ""})
    assert empty.status_code == 400 and "This field is required." in text(empty)
    assert fresh_game(gm_running_game.id).open_round.deadline == old
    assert "extend_deadline" not in actions()


def test_pause_stops_the_clock_and_resume_moves_the_deadline_on(gm_web, gm_running_game):
    url = f"/gm/games/{gm_running_game.id}"
    old = gm_running_game.open_round.deadline
    assert gm_web.post(f"{url}/pause").status_code == 302
    assert fresh_game(gm_running_game.id).state == "paused"
    board = text(gm_web.get(f"{url}/board"))
    assert 'id="resume"' in board and 'id="pause"' not in board and "paused since" in board
    again = gm_web.post(f"{url}/pause")
    assert again.status_code == 409 and "is not running (state: paused)" in text(again)
    assert gm_web.post(f"{url}/resume").status_code == 302
    game = fresh_game(gm_running_game.id)
    assert game.state == "running" and game.open_round.deadline >= old
    assert gm_web.post(f"{url}/resume").status_code == 409
    assert actions()[-2:] == ["pause_game", "resume_game"]


def test_resolve_now_resolves_the_round_seen_and_a_double_submit_does_nothing(
        gm_web, gm_running_game):
    ada = gm_running_game.players[0]
    turns.submit_turn(ada, "TIP A RD1", channel="web")
    url = f"/gm/games/{gm_running_game.id}/resolve"
    first = gm_web.post(url, {"number": "1"})
    assert first.status_code == 302
    assert "Round 1 is resolved; the report is in the outbox." in text(
        gm_web.get(first.headers["Location"]))
    second = gm_web.post(url, {"number": "1"})
    assert second.status_code == 302
    assert "Round 1 is resolved already (or does not exist); nothing was done." in text(
        gm_web.get(second.headers["Location"]))
    db.session.rollback()
    states = db.session.execute(select(Round.number, Round.state).order_by(Round.number)).all()
    assert [tuple(s) for s in states] == [(1, "resolved"), (2, "open")]
    assert db.session.scalar(select(func.count()).select_from(RoundResult)) == 2
    assert actions().count("resolve_round") == 1
    game_page = text(gm_web.get(f"/gm/games/{gm_running_game.id}"))
    report_link = f"/games/{gm_running_game.id}/rounds/1"
    assert f'href="{report_link}"' in game_page
    report = gm_web.get(report_link)  # the players' page, open to their GM too
    assert report.status_code == 200 and "Ada" in text(report)


def test_resolve_without_a_round_number_is_refused(gm_web, gm_running_game):
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/resolve", {"number": "first"})
    assert response.status_code == 400
    assert "Which round? Reload the status board and try again." in text(response)
    assert fresh_game(gm_running_game.id).open_round.number == 1


def test_the_gm_enters_a_turn_for_a_player_who_is_told_by_mail(gm_web, gm_running_game):
    bob = gm_running_game.players[1]
    form = text(gm_web.get(f"/gm/games/{gm_running_game.id}/turn?player={bob.id}"))
    assert f'<option value="{bob.id}" selected>Bob</option>' in form
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/turn",
                           {"player": str(bob.id), "round": "1",
                            "text": "QUESTION A solitaire\nTIP B RD1"})
    assert response.status_code == 302
    version = db.session.scalars(select(TurnVersion)).one()
    assert (version.channel, version.entered_by, version.status) == ("gm", GM_EMAIL, "accepted")
    standing = turns.standing_turn(fresh_game(gm_running_game.id).open_round, bob)
    assert len(standing.tips) == 1 and standing.question is not None
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.kind == "confirmation"))
    assert mail.to_addr == "bob@example.org"
    assert actions()[-1] == "enter_turn"
    assert "The turn of Bob is in" in text(gm_web.get(response.headers["Location"]))


def test_a_bad_turn_is_shown_line_by_line_and_nothing_of_it_counts(gm_web, gm_running_game):
    ada = gm_running_game.players[0]
    bad = "QUESTION X blue\nTIP A RD1\nTIP H YO3"
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/turn",
                           {"player": str(ada.id), "round": "1", "text": bad})
    assert response.status_code == 422
    page = text(response)
    errors = re.findall(r'<li value="(\d+)">', page)
    assert errors == ["1", "3"]
    assert "questions about the 36th gem (X) are not allowed" in page
    assert "'H' is not a location" in page
    assert bad in page  # the text stays in the form to be fixed
    assert turns.standing_turn(fresh_game(gm_running_game.id).open_round, ada).is_empty
    version = db.session.scalars(select(TurnVersion)).one()
    assert version.status == "refused"
    assert "enter_turn" not in actions()


def test_a_turn_for_a_round_no_longer_open_is_refused(gm_web, gm_running_game):
    ada = gm_running_game.players[0]
    gm_web.post(f"/gm/games/{gm_running_game.id}/resolve", {"number": "1"})
    response = gm_web.post(f"/gm/games/{gm_running_game.id}/turn",
                           {"player": str(ada.id), "round": "1", "text": "TIP A RD1"})
    assert response.status_code == 409
    assert "this turn is for round 1, but round 2 is open" in text(response)
    assert turns.standing_turn(fresh_game(gm_running_game.id).open_round, ada).is_empty


def test_a_turn_needs_a_player_and_a_text(gm_web, gm_running_game):
    url = f"/gm/games/{gm_running_game.id}/turn"
    empty = gm_web.post(url, {"player": str(gm_running_game.players[0].id), "text": ""})
    assert empty.status_code == 400
    assert "Write the turn, one command a line." in text(empty)
    nobody = gm_web.post(url, {"player": "999", "text": "TIP A RD1"})
    assert nobody.status_code == 404
    assert db.session.scalar(select(func.count()).select_from(TurnVersion)) == 0


def test_the_distribution_needs_a_confirm_step_and_each_look_is_audited(
        gm_web, gm_running_game):
    url = f"/gm/games/{gm_running_game.id}/distribution"
    canonical = gm_running_game.secret.distribution
    warning = gm_web.get(url)
    assert warning.status_code == 200
    assert 'id="confirm-distribution"' in text(warning)
    assert not GEM_CODE.search(text(warning))
    unconfirmed = gm_web.post(url, {})
    assert not GEM_CODE.search(text(unconfirmed))
    assert "view_distribution" not in actions()
    shown = gm_web.post(url, {"confirm": "yes"})
    page = text(shown)
    assert shown.headers["Cache-Control"] == "no-store"
    assert all(gem.code in page for gem in GEMS)
    assert gm_running_game.secret.salt in page
    hands = dict(part.split("=") for part in canonical.split(";"))
    row_a = re.search(r'<th scope="row">A</th>(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r'class="gem gem-."[^>]*>(\w+)</span>', row_a) == hands["A"].split(",")
    db.session.rollback()
    entry = db.session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
    assert (entry.action, entry.actor) == ("view_distribution", GM_EMAIL)


def test_the_distribution_of_a_game_not_dealt_cannot_be_viewed(gm_web, gm_setup_game):
    page = text(gm_web.get(f"/gm/games/{gm_setup_game.id}/distribution"))
    assert "there is no distribution yet" in page and "confirm-distribution" not in page
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/distribution", {"confirm": "yes"})
    assert response.status_code == 409
    assert "has not been dealt yet" in text(response)


