"""The GM's games: the list, creating a game, inviting players, starting."""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game, OutboxMessage, Player
from vpsleuth.rules.schedule import Schedule, to_local, weekly
from vpsleuth.services import games, turns

GM_EMAIL = "gm@example.org"


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def game_form(**changes) -> dict:
    """The new-game form as a GM fills it in: a weekly game from 2031-03-23 20:00."""
    form = {"name": "Ruby", "language": "en", "rounds": "12", "first_bonus_round": "5",
            "bonuses": "3, 2, 1", "points_right": "1", "points_wrong": "-2",
            "reminders": "24, 4", "schedule_kind": "weekly",
            "first_deadline": "2031-03-23T20:00", "every_days": "7",
            "timezone": "Europe/Berlin", "timezone_other": "", "deadlines": ""}
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


def fresh(model, ident):
    db.session.rollback()
    return db.session.get(model, ident)


def test_the_games_list_shows_state_open_round_and_how_many_turns_are_in(
        gm_web, gm_running_game, gm_account):
    ada = gm_running_game.players[0]
    turns.submit_turn(ada, "TIP A RD1", channel="web")
    games.create_game("Topaz", weekly("2031-01-05 20:00", "UTC"), game_master_id=gm_account.id)
    games.create_game("Not mine", weekly("2031-01-05 20:00", "UTC"))
    page = text(gm_web.get("/gm/"))
    assert "Emerald" in page and "Topaz" in page and "Not mine" not in page
    assert "Round 1 of 12" in page
    assert '<strong class="submissions">1 / 2</strong>' in page
    assert "Not started: invite the players, then start the game." in page
    assert page.index("Topaz") < page.index("Emerald")  # newest first


def test_the_new_game_form_offers_the_defaults_of_vp_sleuth(gm_web):
    page = text(gm_web.get("/gm/games/new"))
    for field, value in (("rounds", "12"), ("first_bonus_round", "5"), ("points_right", "1"),
                         ("points_wrong", "-2"), ("bonuses", "3, 2, 1"), ("reminders", "24, 4"),
                         ("every_days", "7")):
        assert f'id="{field}"' in page and f'value="{value}"' in page, field
    assert 'type="datetime-local"' in page
    assert '<option value="Europe/Berlin" selected>' in page


def test_a_weekly_game_is_created_with_its_house_rules_reminders_and_schedule(gm_web, gm_account):
    form = game_form(language="de", rounds="10", first_bonus_round="4", bonuses="4,2,1",
                     points_right="2", points_wrong="-3", early_resolution="y",
                     reminders="48, 6")
    response = gm_web.post("/gm/games/new", form)
    assert response.status_code == 302
    game = db.session.scalar(select(Game).where(Game.name == "Ruby"))
    assert response.headers["Location"] == f"/gm/games/{game.id}"
    assert game.game_master_id == gm_account.id and game.language == "de"
    rules = game.ruleset
    assert (rules.rounds, rules.first_bonus_round, rules.bonuses, rules.points_right,
            rules.points_wrong, rules.early_resolution) == (10, 4, (4, 2, 1), 2, -3, True)
    assert game.reminders == [48, 6]
    schedule = Schedule.from_json(game.schedule)
    first, second = (to_local(schedule.deadline(n), "Europe/Berlin") for n in (1, 2))
    # 30 March 2031 is the switch to summer time: still 20:00 local, one hour less in UTC
    assert (first.isoformat(), second.isoformat()) == (
        "2031-03-23T20:00:00+01:00", "2031-03-30T20:00:00+02:00")
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.game_id == game.id))
    assert (entry.action, entry.actor) == ("create_game", GM_EMAIL)
    page = text(gm_web.get(response.headers["Location"]))
    assert "Game created. Now invite the players." in page


def test_a_game_with_a_list_of_deadlines_takes_a_time_zone_typed_in(gm_web):
    form = game_form(schedule_kind="explicit", first_deadline="",
                     deadlines="2031-01-10 20:00\n2031-01-24 19:30",
                     timezone_other="America/Argentina/Buenos_Aires")
    assert gm_web.post("/gm/games/new", form).status_code == 302
    game = db.session.scalar(select(Game).where(Game.name == "Ruby"))
    schedule = Schedule.from_json(game.schedule)
    assert game.timezone == "America/Argentina/Buenos_Aires"
    assert [to_local(d, game.timezone).strftime("%Y-%m-%d %H:%M") for d in schedule.deadlines] \
        == ["2031-01-10 20:00", "2031-01-24 19:30"]


BAD_GAMES = [
    ({"timezone_other": "Europe/Berln"}, "Unknown timezone 'Europe/Berln'. Did you mean "
                                         "'Europe/Berlin'?"),
    ({"first_deadline": ""}, "Give the first deadline (date and time)"),
    ({"first_deadline": "next sunday"}, "'next sunday' is not a date and time"),
    ({"schedule_kind": "explicit", "deadlines": "2031-01-24 20:00\n2031-01-10 20:00"},
     "Deadline 2 (Fri 10 Jan 2031, 20:00 CET) is not after deadline 1"),
    ({"schedule_kind": "explicit", "deadlines": ""}, "The list of deadlines is empty"),
    ({"schedule_kind": "fortnightly"}, "Choose one of the offered values."),
    ({"every_days": "40"}, "The interval must be a whole number of days from 1 to 28"),
    ({"first_bonus_round": "0"}, "the first bonus round is round 1 or later"),
    ({"points_wrong": "1"}, "a wrong tip cannot earn points"),
    ({"bonuses": "1, 2, 3"}, "bonus values must not grow with rank"),
    ({"bonuses": "3, two"}, "bonus values are whole numbers separated by commas"),
    ({"rounds": "60"}, "a game has 1 to 52 rounds"),
    ({"rounds": ""}, "Give a whole number."),
    ({"reminders": "500"}, "reminders are 1 to 336 hours before the deadline"),
    ({"reminders": "soon"}, "reminder times are whole numbers separated by commas"),
    ({"language": "fr"}, "Choose one of the offered values."),
    ({"name": ""}, "This field is required."),
]


def test_bad_game_input_is_refused_with_a_clear_message_and_nothing_is_stored(gm_web):
    for changes, message in BAD_GAMES:
        response = gm_web.post("/gm/games/new", game_form(**changes))
        assert response.status_code == 400, changes
        page = text(response)
        assert message in page, changes
        assert "Please check the marked fields." in page
    assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_second_game_with_a_taken_name_is_refused_and_the_form_keeps_its_input(
        gm_web, gm_setup_game):
    response = gm_web.post("/gm/games/new", game_form(name="emerald", rounds="9"))
    assert response.status_code == 400
    page = text(response)
    assert "a game called 'emerald' exists already; choose another name" in page
    assert 'value="9"' in page
    assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def test_the_game_page_shows_rules_schedule_and_players(gm_web, gm_setup_game):
    page = text(gm_web.get(f"/gm/games/{gm_setup_game.id}"))
    assert re.search(r"every 7 days at \d\d:\d\d Europe/Berlin, first \d{4}-\d\d-\d\d", page)
    assert "Ada" in page and "ada@example.org" in page and "bob@example.org" in page
    assert "+1 right, -2 wrong" in page
    assert 'id="start-game"' in page
    assert f'href="/games/{gm_setup_game.id}"' in page  # the players' view


def test_inviting_a_player_queues_an_invitation_with_a_sign_in_link(gm_web, gm_setup_game):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/players",
                           {"name": "Cleo", "email": "cleo@example.org", "language": "de"})
    assert response.status_code == 302
    cleo = db.session.scalar(select(Player).where(Player.name == "Cleo"))
    assert (cleo.email, cleo.language, cleo.game_id) == ("cleo@example.org", "de",
                                                         gm_setup_game.id)
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.player_id == cleo.id))
    assert mail.kind == "invitation" and "/signin/" in mail.body_text
    assert "Grace" in mail.body_text  # the GM's name
    entry = db.session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
    assert (entry.action, entry.actor) == ("add_player", GM_EMAIL)
    page = text(gm_web.get(response.headers["Location"]))
    assert "Cleo is invited; the invitation is in the outbox." in page


@pytest.mark.parametrize(("name", "email", "message"), [
    ("Cleo", "cleo at example", "'cleo at example' is not an email address"),
    ("ada", "cleo@example.org", "'ada' already plays in 'Emerald'; choose another name"),
    ("Cleo", "ADA@example.org", "ADA@example.org already plays in 'Emerald' as 'Ada'"),
    ("", "cleo@example.org", "This field is required."),
])
def test_a_bad_invitation_is_refused_and_shown(gm_web, gm_setup_game, name, email, message):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/players",
                           {"name": name, "email": email, "language": "en"})
    assert response.status_code == 400
    assert message in text(response)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 2


def test_withdrawing_a_player_marks_them_inactive_once(gm_web, gm_running_game):
    bob = gm_running_game.players[1]
    url = f"/gm/games/{gm_running_game.id}/players/{bob.id}/withdraw"
    assert gm_web.post(url).status_code == 302
    assert fresh(Player, bob.id).active is False
    again = gm_web.post(url)
    assert again.status_code == 409
    assert "'Bob' is already withdrawn" in text(again)
    actions = db.session.scalars(select(AuditEntry.action)).all()
    assert actions.count("withdraw_player") == 1


def test_a_player_of_another_game_is_not_found_here(gm_web, gm_setup_game, gm_account):
    other = games.create_game("Jade", weekly("2031-01-05 20:00", "UTC"),
                              game_master_id=gm_account.id)
    stranger = games.add_player(other, "Zed", "zed@example.org")
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/players/{stranger.id}/withdraw")
    assert response.status_code == 404
    assert fresh(Player, stranger.id).active is True


def test_changing_an_address_keeps_the_player_and_refuses_bad_or_taken_ones(
        gm_web, gm_setup_game):
    ada = gm_setup_game.players[0]
    url = f"/gm/games/{gm_setup_game.id}/players/{ada.id}/email"
    bad = gm_web.post(url, {"email": "ada-at-home"})
    assert bad.status_code == 400 and "'ada-at-home' is not an email address" in text(bad)
    taken = gm_web.post(url, {"email": "bob@example.org"})
    assert taken.status_code == 400 and "bob@example.org already plays in 'Emerald'" in text(taken)
    assert fresh(Player, ada.id).email == "ada@example.org"
    assert gm_web.post(url, {"email": "ada@home.example"}).status_code == 302
    assert fresh(Player, ada.id).email == "ada@home.example"
    entry = db.session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
    assert entry.action == "change_email" and "ada@example.org" in entry.detail


def test_starting_deals_publishes_the_commitment_and_opens_round_one(gm_web, gm_setup_game):
    response = gm_web.post(f"/gm/games/{gm_setup_game.id}/start")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/gm/games/{gm_setup_game.id}/board"
    game = fresh(Game, gm_setup_game.id)
    assert game.state == "running" and game.open_round.number == 1
    board = text(gm_web.get(response.headers["Location"]))
    assert f"The game has started and round 1 is open. Commitment (SHA-256): {game.commitment}" \
        in board
    assert game.commitment in text(gm_web.get(f"/gm/games/{game.id}"))
    opened = db.session.scalars(select(OutboxMessage.to_addr).where(
        OutboxMessage.kind == "round_opened")).all()
    assert sorted(opened) == ["ada@example.org", "bob@example.org"]
    again = gm_web.post(f"/gm/games/{game.id}/start")
    assert again.status_code == 409 and "has started already" in text(again)


def test_a_game_without_players_cannot_start(gm_web, gm_account):
    game = games.create_game("Onyx", weekly("2031-01-05 20:00", "UTC"),
                             game_master_id=gm_account.id)
    page = text(gm_web.get(f"/gm/games/{game.id}"))
    assert 'id="start-game"' not in page and "Invite at least one player to start." in page
    response = gm_web.post(f"/gm/games/{game.id}/start")
    assert response.status_code == 409
    assert "has no players yet; add players first" in text(response)
    assert fresh(Game, game.id).state == "setup"


def test_the_console_speaks_german_when_chosen(gm_web, gm_running_game):
    gm_web.get("/lang/de")
    assert "Neue Partie" in text(gm_web.get("/gm/"))
    board = text(gm_web.get(f"/gm/games/{gm_running_game.id}/board"))
    assert "Statustafel" in board and "Termin verschieben" in board
    assert "Abgabetermin" in board
    assert re.search(r'<span class="left" id="time-left">noch 9 T \d+ Std</span>', board)
    assert "Hausregeln" in text(gm_web.get("/gm/games/new"))
    invited = gm_web.post(f"/gm/games/{gm_running_game.id}/players",
                          {"name": "Cleo", "email": "cleo@example.org", "language": "de"})
    assert "Cleo ist eingeladen; die Einladung liegt im Postausgang." in text(
        gm_web.get(invited.headers["Location"]))
