"""The deduction aid house rule: set by the GM (form, API, CLI), shown to everyone, exported."""

from __future__ import annotations

import html

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, transfer

ON = ("on: the information sheet greys out the places the public answers have ruled out "
      "and marks the gems they prove")
FORM = {"name": "Ruby", "language": "en", "rounds": "12", "first_bonus_round": "5",
        "bonuses": "3, 2, 1", "points_right": "1", "points_wrong": "-2",
        "reminders": "24, 4", "schedule_kind": "weekly",
        "first_deadline": "2031-03-23T20:00", "every_days": "7",
        "timezone": "Europe/Berlin", "deadlines": ""}


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def game_named(name: str) -> Game:
    db.session.rollback()
    return db.session.scalars(select(Game).where(Game.name == name)).one()


def test_the_new_game_form_switches_the_aid_on_only_when_ticked(gm_web):
    assert gm_web.post("/gm/games/new", {**FORM, "deduction_aid": "y"}).status_code == 302
    assert gm_web.post("/gm/games/new", {**FORM, "name": "Plain"}).status_code == 302
    assert game_named("Ruby").deduction_aid is True
    assert game_named("Plain").deduction_aid is False


def test_the_gm_switches_the_aid_in_setup_but_not_once_the_game_runs(gm_web, gm_setup_game):
    url = f"/gm/games/{gm_setup_game.id}/aid"
    assert gm_web.post(url, {"deduction_aid": "on"}).status_code == 302
    assert game_named("Emerald").deduction_aid is True
    page = text(gm_web.get(f"/gm/games/{gm_setup_game.id}"))
    assert 'name="deduction_aid" value="on" checked' in page
    audit = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == gm_setup_game.id)).all()
    assert "set_deduction_aid" in audit
    games.start_game(game_named("Emerald"), seed=3)
    assert gm_web.post(url, {}).status_code == 409
    assert game_named("Emerald").deduction_aid is True
    assert ON in text(gm_web.get(f"/gm/games/{gm_setup_game.id}"))


def test_players_see_the_aid_among_the_house_rules_in_their_language(make_game, signed_in):
    game = make_game()
    ada = signed_in("ada@example.org")
    assert 'id="rule-aid">off<' in ada.get(f"/games/{game.id}").get_data(as_text=True)
    game.deduction_aid = True
    db.session.commit()
    assert ON in text(ada.get(f"/games/{game.id}"))
    ada.get("/lang/de")
    german = text(ada.get(f"/games/{game.id}"))
    assert "Deduktionshilfe" in german and ON not in german


def test_the_api_creates_a_game_with_the_aid_and_reports_it(app, gm_account):
    from vpsleuth.services import accounts

    _, token = accounts.issue_api_token(game_master=gm_account, label="t")
    db.session.commit()
    client = app.test_client()
    body = {"name": "Aided", "schedule": {"timezone": "UTC", "first": "2999-01-10 20:00"},
            "rules": {"deduction_aid": True}}
    answer = client.post("/api/v1/games", json=body,
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert answer.get_json()["rules"]["deduction_aid"] is True
    plain = client.post("/api/v1/games", json={**body, "name": "Plain", "rules": {}},
                        headers={"Authorization": f"Bearer {token}"})
    assert plain.get_json()["rules"]["deduction_aid"] is False
    wrong = client.post("/api/v1/games", json={**body, "name": "Odd",
                                                "rules": {"deduction_aid": "yes"}},
                        headers={"Authorization": f"Bearer {token}"})
    assert wrong.status_code == 400


def test_the_cli_creates_a_game_with_the_aid(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["game", "create", "Cli Aided", "--aid",
                                 "--first-deadline", "2031-01-05 20:00"])
    assert result.exit_code == 0, result.output
    assert game_named("Cli Aided").deduction_aid is True
    runner.invoke(args=["game", "create", "Cli Plain", "--first-deadline", "2031-01-05 20:00"])
    assert game_named("Cli Plain").deduction_aid is False


def test_an_exported_game_keeps_its_aid_on_import(app):
    game = games.create_game("Carried", weekly("2031-01-05 20:00", "UTC"), deduction_aid=True)
    copy = transfer.import_game(transfer.export_game(game), name="Copied")
    assert copy.deduction_aid is True


def test_the_open_game_listing_shows_the_aid_to_visitors(app, signed_in):
    from vpsleuth.services import lobby

    game = games.create_game("Listed", weekly("2031-01-05 20:00", "UTC"), deduction_aid=True)
    lobby.set_listing(game, open_to_join=True, max_players=None, actor="gm")
    other = games.create_game("Home", weekly("2031-01-05 20:00", "UTC"))
    games.add_player(other, "Cleo", "cleo@example.org", invite=False)
    cleo = signed_in("cleo@example.org")
    listing = text(cleo.get(f"/games/open/{game.id}"))
    assert f'class="rule-aid">{ON}<' in listing
