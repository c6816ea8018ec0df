"""A seat handed to a substitute (services/seats.py): the rule, the refusals, what the old
address loses, the reports, the CLI and the GM console.

Cleo's seat of "Moonstone" goes to Dora. Cleo also plays in "Opal", so a session of her
own stays alive and must find nothing of Moonstone any more, as for a stranger.
"""

from __future__ import annotations

import re

import pytest
from conftest import CSRF, GmWeb, gm_deadline
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import (
    Absence,
    ApiToken,
    AuditEntry,
    OutboxMessage,
    PlayerNotebook,
    SeatChange,
    TurnVersion,
    WebSession,
)
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import (
    absence,
    accounts,
    auth,
    bots,
    games,
    leaving,
    notebook,
    personal_data,
    practice,
    reports,
    resolution,
    seats,
    turns,
)
from vpsleuth.services.access import viewer_for
from vpsleuth.services.errors import Invalid, RoundClosed, WrongState
from vpsleuth.web.feeds import feed_token
from vpsleuth.web.player.sheet import build_sheet

CLEO, DORA = "cleo@example.org", "dora@example.org"
LINK = re.compile(r"/signin/([\w.\-]+)")


def _cleo(game):
    return games.find_player(game, "Cleo")


def test_the_newcomer_plays_from_the_open_round_when_the_seat_has_no_turn_in_it(moonstone):
    change = seats.replace_player(moonstone, _cleo(moonstone), "Dora", DORA, actor="gm")
    assert change.from_round == 1
    seat = games.find_player(moonstone, "Dora")
    assert (seat.name, seat.email, seat.key_generation) == ("Dora", DORA, 1)
    sub = turns.submit_turn(seat, "TIP A RD1", channel="web")
    assert sub.round.number == 1


def test_with_a_turn_in_the_newcomer_plays_from_the_next_round_and_the_turn_stands(moonstone):
    cleo = _cleo(moonstone)
    turns.submit_turn(cleo, "TIP B RD1", channel="web")
    change = seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    assert change.from_round == 2
    assert (change.old_name, change.old_email, change.new_name) == ("Cleo", CLEO, "Dora")
    with pytest.raises(RoundClosed) as refused:
        turns.submit_turn(games.find_player(moonstone, "Dora"), "TIP C RD1", channel="web")
    assert "this seat is yours from round 2" in refused.value.message
    assert "ab Runde 2" in refused.value.text("de")
    assert "a partir de la ronda 2" in refused.value.text("es")
    stored = db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == cleo.id).order_by(TurnVersion.id)).all()
    assert [v.status for v in stored] == ["accepted", "refused"], "nothing stored is lost"
    resolution.resolve_round(moonstone, number=1, actor="gm")
    seat = games.find_player(moonstone, "Dora")
    assert turns.submit_turn(seat, "TIP C RD1", channel="web").round.number == 2
    audit = db.session.scalars(select(AuditEntry).where(
        AuditEntry.action == "replace_player")).one()
    assert '"from_round": 2' in audit.detail and CLEO in audit.detail


@pytest.mark.parametrize("case, error, words", [
    ("taken address", Invalid, "ada@example.org already plays in 'Moonstone' as 'Ada'"),
    ("own address", Invalid, "cleo@example.org already plays in 'Moonstone' as 'Cleo'"),
    ("taken name", Invalid, "'Ben' already plays in 'Moonstone'; choose another name"),
    ("bad address", Invalid, "'dora' is not an email address"),
    ("withdrawn", WrongState, "a withdrawn seat is not handed on"),
    ("bot", WrongState, "only a person's seat is handed on"),
    ("finished", WrongState, "'Moonstone' has ended; its seats cannot be handed on"),
])
def test_a_hand_over_is_refused_clearly_and_changes_nothing(moonstone, case, error, words):
    cleo = _cleo(moonstone)
    name, email = "Dora", DORA
    if case == "taken address":
        email = "ada@example.org"
    elif case == "own address":
        email = CLEO
    elif case == "taken name":
        name = "Ben"
    elif case == "bad address":
        email = "dora"
    elif case == "withdrawn":
        games.withdraw_player(cleo)
    elif case == "bot":
        cleo = bots.add_bot(moonstone, "Robo", "easy", actor="gm")
    elif case == "finished":
        moonstone.state = "finished"
        db.session.commit()
    before = cleo.key_generation
    with pytest.raises(error) as refused:
        seats.replace_player(moonstone, cleo, name, email, actor="gm")
    assert words in refused.value.message
    db.session.rollback()
    assert cleo.key_generation == before and cleo.name in ("Cleo", "Robo")
    assert db.session.scalar(select(SeatChange.id)) is None


def test_a_practice_game_hands_no_seat_on(app):
    game = practice.create_practice("pia@example.org", name="Pia", bots=1, level="easy")
    human = next(p for p in game.players if not p.is_bot)
    with pytest.raises(WrongState, match="practice game"):
        seats.replace_player(game, human, "Dora", DORA, actor="gm")


def test_the_old_address_loses_sessions_tokens_links_keys_and_the_feed(app, moonstone, client):
    opal = games.create_game("Opal", weekly(gm_deadline(), "Europe/Berlin"))
    games.add_player(opal, "Cleo", CLEO)
    cleo = _cleo(moonstone)
    _, api_token = accounts.issue_api_token(player=cleo)
    feed = f"/games/{moonstone.id}/feed.atom?token={feed_token(cleo)}"
    reply = keys.reply_address(cleo)
    invitation = auth.issue_token(CLEO, purpose="invitation", player=cleo)
    db.session.commit()
    own = GmWeb(app, client).sign_in(CLEO)  # Cleo's own session: she plays in Opal too
    assert own.get(f"/games/{moonstone.id}").status_code == 200
    assert own.get(feed).status_code == 200
    notebook.save(cleo, notes="RD1 is not in A, I am sure")
    away = moonstone.open_round.deadline.date()
    absence.announce(cleo, away, away, note="hospital", channel="web", entered_by=CLEO)

    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")

    assert own.get(f"/games/{moonstone.id}").status_code == 404, "as for a stranger"
    assert own.get(f"/games/{opal.id}").status_code == 200, "her other game stays hers"
    assert own.get(feed).status_code == 404
    api = client.get("/api/v1/games", headers={"Authorization": f"Bearer {api_token}"})
    assert api.status_code == 401
    db.session.rollback()
    assert keys.player_for_addresses([reply]) is None
    assert db.session.scalar(select(ApiToken.revoked_at)) is not None
    with pytest.raises(auth.SignInRefused, match="not valid"):
        auth.redeem_token(invitation)
    # The notebook stays Cleo's: the seat's is empty, hers is kept for her address.
    seat = games.find_player(moonstone, "Dora")
    assert notebook.read(seat).notes == ""
    kept = db.session.scalars(select(PlayerNotebook).where(
        PlayerNotebook.kept_by == CLEO)).one()
    assert kept.player_id is None and kept.kept_game_id == moonstone.id
    assert kept.notes == "RD1 is not in A, I am sure"
    assert db.session.scalar(select(Absence.id)) is None, "the newcomer is not away"


def test_a_session_opened_by_the_old_invitation_ends(app, moonstone, client):
    cleo = _cleo(moonstone)
    token = auth.issue_token(CLEO, purpose="invitation", player=cleo)
    db.session.commit()
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    assert client.get(f"/games/{moonstone.id}").status_code == 200
    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    assert db.session.scalar(select(WebSession.ended_at).where(
        WebSession.player_id == cleo.id)) is not None
    answer = client.get(f"/games/{moonstone.id}")
    assert answer.status_code == 302 and "/signin" in answer.headers["Location"]


def test_every_game_route_refuses_the_replaced_player(app, moonstone, client):
    """What the role-boundary table says of a stranger, for the seat's old holder: every
    page and form of the game, with her full session still alive (she plays elsewhere)."""
    opal = games.create_game("Opal", weekly(gm_deadline(), "Europe/Berlin"))
    games.add_player(opal, "Cleo", CLEO)
    cleo = _cleo(moonstone)
    turns.submit_turn(cleo, "TIP B RD1", channel="web")
    resolution.resolve_round(moonstone, number=1, actor="gm")
    own = GmWeb(app, client).sign_in(CLEO)
    values = {"game_id": moonstone.id, "number": 1, "player_id": cleo.id}
    rules = [r for r in app.url_map.iter_rules() if "GET" in r.methods
             and "<int:game_id>" in r.rule
             and not r.rule.startswith(("/archive", "/gm/", "/api/"))]  # API: by token
    assert len(rules) > 8
    before = {r.rule: own.get(_fill(r.rule, values)).status_code for r in rules}
    assert sum(1 for s in before.values() if s == 200) > 5, before
    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    after = {r.rule: own.get(_fill(r.rule, values)).status_code for r in rules}
    posts = [r for r in app.url_map.iter_rules() if "POST" in r.methods
             and "<int:game_id>" in r.rule
             and not r.rule.startswith(("/archive", "/gm/", "/api/"))]
    assert len(posts) > 3
    after |= {f"POST {r.rule}": own.post(_fill(r.rule, values), {}).status_code for r in posts}
    reached = {rule: status for rule, status in after.items() if status not in (403, 404)}
    assert not reached, f"the replaced player still reaches {reached}"


def _fill(rule: str, values: dict) -> str:
    path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: str(values.get(m.group(1), 1)), rule)
    return path


@pytest.mark.parametrize("lang, words", [
    ("en", "Dora (from round 2)"), ("de", "Dora (ab Runde 2)"),
    ("es", "Dora (desde la ronda 2)")])
def test_the_reports_show_the_seat_under_the_newcomer_with_the_round(moonstone, lang, words):
    cleo = _cleo(moonstone)
    turns.submit_turn(cleo, "TIP B RD1", channel="web")
    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    resolution.resolve_round(moonstone, number=1, actor="gm")
    report = reports.build_report(moonstone, 1, lang)
    names = [row.player for row in report.rows]
    assert words in names and not any("Cleo" in n for n in names)
    assert words in report.history
    assert words in reports.render_text(report, "Europe/Berlin", lang)
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "report", OutboxMessage.to_addr == DORA)).one()
    assert "Dora (" in mail.body_text and "Cleo" not in mail.body_text


def test_the_newcomers_sheet_shows_the_seats_tip_scores(app, moonstone, client):
    cleo = _cleo(moonstone)
    turns.submit_turn(cleo, "TIP B RD1", channel="web")
    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    resolution.resolve_round(moonstone, number=1, actor="gm")
    sheet = build_sheet(moonstone, games.find_player(moonstone, "Dora"))
    assert sheet.scores[1] is not None, "round 1's tip score is the seat's"


def test_the_cli_hands_a_seat_on(app, moonstone, runner):
    result = runner.invoke(args=["player", "replace", "Moonstone", "Cleo", "Dora", DORA])
    assert result.exit_code == 0, result.output
    assert "Cleo's seat in 'Moonstone' is Dora <dora@example.org>'s from round 1" in result.output
    db.session.rollback()
    assert games.find_player(moonstone, "Dora").email == DORA
    again = runner.invoke(args=["player", "replace", "Moonstone", "Dora", "Eve", "ada@example.org"])
    assert again.exit_code == 1 and "already plays in 'Moonstone' as 'Ada'" in again.output


def test_the_gm_console_asks_to_confirm_then_hands_the_seat_on(gm_web, gm_running_game):
    game = gm_running_game
    bob = games.find_player(game, "Bob")
    page = gm_web.get(f"/gm/games/{game.id}").get_data(as_text=True)
    assert f'action="/gm/games/{game.id}/players/{bob.id}/replace"' in page
    url = f"/gm/games/{game.id}/players/{bob.id}/replace"
    asked = gm_web.post(url, {"name": "Dora", "email": DORA})
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Hand the seat on?" in text
    assert "Dora (dora@example.org) takes over Bob&#39;s seat from round 1" in text
    assert games.find_player(game, "Bob").email == "bob@example.org", "nothing before the yes"
    bad = gm_web.post(url, {"name": "Dora", "email": "ada@example.org"})
    assert bad.status_code == 400 and "already plays in" in bad.get_data(as_text=True)
    done = gm_web.post(url, {"name": "Dora", "email": DORA, "confirm": "yes"})
    assert done.status_code == 302
    db.session.rollback()
    assert games.find_player(game, "Dora").id == bob.id
    audit = gm_web.get(f"/gm/games/{game.id}/audit").get_data(as_text=True)
    assert "seat handed to a substitute" in audit
    assert "from Bob (bob@example.org) to Dora (dora@example.org), who plays from round 1" in audit
    mails = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind.in_(("invitation", "seat_handed_on")),
        OutboxMessage.to_addr.in_((DORA, "bob@example.org")))
        .order_by(OutboxMessage.id)).all()
    assert [(m.kind, m.to_addr) for m in mails][-2:] == [
        ("invitation", DORA), ("seat_handed_on", "bob@example.org")]
    assert mails[-1].player_id is None, "the old address's notice is no seat's mail"
    assert "handed your seat" in mails[-1].body_text


def test_the_gm_page_says_from_which_round_a_seat_is_held(gm_web, gm_running_game):
    game = gm_running_game
    bob = games.find_player(game, "Bob")
    turns.submit_turn(bob, "TIP B RD1", channel="web")
    seats.replace_player(game, bob, "Dora", DORA, actor="gm")
    page = gm_web.get(f"/gm/games/{game.id}").get_data(as_text=True)
    assert "<strong>Dora</strong> <span class=\"muted handed\">seat held from round 2</span>" \
        in page


def test_the_old_holder_exports_the_kept_notebook_and_it_goes_when_they_leave(app, moonstone):
    cleo = _cleo(moonstone)
    notebook.save(cleo, notes="mine")
    turns.submit_turn(cleo, "TIP B RD1", channel="web")
    seats.replace_player(moonstone, cleo, "Dora", DORA, actor="gm")
    assert auth.known_email(CLEO), "the old address may still sign in for its notebook"
    data = personal_data.export(viewer_for(CLEO))["tables"]
    assert [n["notes"] for n in data["player_notebook"]] == ["mine"]
    assert [c["old_email"] for c in data["seat_change"]] == [CLEO]
    dora = personal_data.export(viewer_for(DORA))["tables"]
    assert dora["player_notebook"] == []
    leaks = {name: rows for name, rows in dora.items() if CLEO in str(rows)}
    assert not leaks, "the newcomer's data holds the old holder's address"
    leaving.delete_account(viewer_for(CLEO))
    db.session.rollback()
    assert db.session.scalar(select(PlayerNotebook.id).where(
        PlayerNotebook.kept_by == CLEO)) is None
    assert CLEO not in db.session.scalar(select(SeatChange.old_email))
    audit = " ".join(db.session.scalars(select(AuditEntry.detail)))
    assert "Cleo" not in audit and CLEO not in audit and '"player": "Dora"' in audit
    [turn] = db.session.scalars(select(TurnVersion)).all()
    assert turn.text == "" and turn.status == "accepted", "the seat keeps what it scored"
