"""Absences on the web (issue 20): "I'm away" on the game's page, the GM's absences page,
"away until" for the others (never the note); and the missed-turn house rule, set by
the GM (form, CLI) in setup only and shown with the other house rules."""

from __future__ import annotations

import html
from datetime import timedelta

from conftest import CSRF
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.i18n.dates import day_text
from vpsleuth.models import Absence, AuditEntry, Game, OutboxMessage, utcnow
from vpsleuth.services import games
from vpsleuth.services.absence import local_day

NOTE = "my sister's wedding in Porto"


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def stored() -> list[Absence]:
    db.session.expire_all()
    return list(db.session.scalars(select(Absence).order_by(Absence.id)))


def day(player, ahead: int):
    return local_day(player, utcnow()) + timedelta(days=ahead)


def announce(client, game, values: dict):
    token = CSRF.search(client.get(f"/games/{game.id}").get_data(as_text=True)).group(1)
    return client.post(f"/games/{game.id}/absences", data={"csrf_token": token, **values})


def test_a_player_announces_an_absence_and_the_others_see_only_until_when(moonstone,
                                                                          signed_in):
    ada_player = games.find_player(moonstone, "Ada")
    first, last = day(ada_player, 0), day(ada_player, 6)
    ada = signed_in("ada@example.org")
    done = announce(ada, moonstone, {"starts": first.isoformat(), "ends": last.isoformat(),
                                     "note": NOTE})
    assert done.status_code == 302 and done.headers["Location"].endswith("#absence")
    [noted] = stored()
    assert (noted.starts, noted.ends, noted.note, noted.channel) == (first, last, NOTE, "web")
    own = text(ada.get(f"/games/{moonstone.id}"))
    assert f"Noted: you are away from {day_text(first)} until {day_text(last)}." in own
    assert 'id="my-absences"' in own and NOTE in own
    ben = signed_in("ben@example.org")
    page = text(ben.get(f"/games/{moonstone.id}"))
    assert f"(away until {day_text(last)})" in page
    assert NOTE not in page and "wedding" not in page
    assert 'id="my-absences"' not in page


def test_the_overview_says_it_in_german(moonstone, signed_in):
    ada_player = games.find_player(moonstone, "Ada")
    ada_player.language = "de"
    db.session.commit()
    ada = signed_in("ada@example.org")
    ada.get("/lang/de")
    assert announce(ada, moonstone, {"starts": day(ada_player, 1).isoformat(),
                                     "ends": day(ada_player, 2).isoformat()}).status_code == 302
    page = text(ada.get(f"/games/{moonstone.id}"))
    assert "Ich bin weg" in page and "Diese Abwesenheit absagen" in page


def test_bad_days_are_refused_on_the_page_with_the_form_kept(moonstone, signed_in):
    player = games.find_player(moonstone, "Ada")
    ada = signed_in("ada@example.org")
    cases = [
        ({"starts": day(player, 5).isoformat(), "ends": day(player, 2).isoformat()},
         f"An absence cannot end ({day_text(day(player, 2))}) before it begins "
         f"({day_text(day(player, 5))})."),
        ({"starts": day(player, -9).isoformat(), "ends": day(player, -2).isoformat()},
         f"That absence ended on {day_text(day(player, -2))}, in the past;"),
        ({"starts": day(player, 1).isoformat(), "ends": day(player, 130).isoformat()},
         "An absence lasts at most 120 days"),
        ({"starts": "soon", "ends": day(player, 2).isoformat(), "note": NOTE},
         "Give the days as dates, such as 2026-12-20."),
    ]
    for values, said in cases:
        answer = announce(ada, moonstone, values)
        assert answer.status_code == 400, values
        page = text(answer)
        assert said in page, values
        assert 'id="absence-error" role="alert"' in page
        assert f'value="{values["ends"]}"' in page  # the form keeps what was typed
    assert stored() == []


def test_a_start_before_today_counts_from_today_and_says_so(moonstone, signed_in):
    player = games.find_player(moonstone, "Ada")
    ada = signed_in("ada@example.org")
    announce(ada, moonstone, {"starts": day(player, -4).isoformat(),
                              "ends": day(player, 2).isoformat()})
    assert stored()[0].starts == day(player, 0)
    assert "A first day in the past counts from today." in text(ada.get(f"/games/{moonstone.id}"))


def test_a_player_cancels_their_own_absence_and_no_one_else_can(moonstone, signed_in):
    player = games.find_player(moonstone, "Ada")
    ada, ben = signed_in("ada@example.org"), signed_in("ben@example.org")
    announce(ada, moonstone, {"starts": day(player, 1).isoformat(),
                              "ends": day(player, 3).isoformat()})
    [noted] = stored()
    token = CSRF.search(ben.get(f"/games/{moonstone.id}").get_data(as_text=True)).group(1)
    url = f"/games/{moonstone.id}/absences/{noted.id}/cancel"
    assert ben.post(url, data={"csrf_token": token}).status_code == 404
    assert stored()[0].cancelled_at is None
    token = CSRF.search(ada.get(f"/games/{moonstone.id}").get_data(as_text=True)).group(1)
    assert ada.post(url, data={"csrf_token": token}).status_code == 302
    assert stored()[0].cancelled_at is not None
    assert "away until" not in text(ben.get(f"/games/{moonstone.id}"))


def test_the_gm_enters_an_absence_sees_its_note_and_the_board_says_away(gm_web,
                                                                        gm_running_game):
    game = gm_running_game
    ada = games.find_player(game, "Ada")
    url = f"/gm/games/{game.id}/absences"
    bad = gm_web.post(url, {"player": str(ada.id), "starts": day(ada, 4).isoformat(),
                            "ends": day(ada, 1).isoformat(), "note": NOTE})
    assert bad.status_code == 400 and "cannot end" in text(bad)
    assert stored() == []
    done = gm_web.post(url, {"player": str(ada.id), "starts": day(ada, 0).isoformat(),
                             "ends": day(ada, 5).isoformat(), "note": NOTE})
    assert done.status_code == 302
    [noted] = stored()
    assert noted.channel == "gm" and noted.entered_by == "gm@example.org"
    [told] = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "absence_entered")).all()
    assert told.to_addr == "ada@example.org"
    assert (f"The game master noted that you are away from {day_text(day(ada, 0))} until "
            f"{day_text(day(ada, 5))}.") in told.body.text
    assert NOTE not in told.body.text and NOTE not in told.body.html
    page = text(gm_web.get(url))
    assert NOTE in page and f'id="absence-{noted.id}"' in page
    board = text(gm_web.get(f"/gm/games/{game.id}/board"))
    assert f"away until {day_text(day(ada, 5))}" in board and NOTE not in board
    audit = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.game_id == game.id)).all()
    assert "absence_entered" in audit
    assert "absence entered" in text(gm_web.get(f"/gm/games/{game.id}/audit"))
    assert gm_web.post(f"{url}/{noted.id}/cancel").status_code == 302
    assert stored()[0].cancelled_at is not None and "absence_cancelled" in \
        db.session.scalars(select(AuditEntry.action)).all()


def test_the_missed_turn_rule_is_chosen_in_setup_and_fixed_once_the_game_runs(
        gm_web, gm_setup_game, signed_in):
    url = f"/gm/games/{gm_setup_game.id}/missed-turn"
    assert gm_web.post(url, {"missed_turn_rule": "sometimes"}).status_code == 400
    assert gm_web.post(url, {"missed_turn_rule": "repeat"}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Game, gm_setup_game.id).missed_turn_rule == "repeat"
    page = text(gm_web.get(f"/gm/games/{gm_setup_game.id}"))
    assert 'name="missed_turn_rule" value="repeat" checked' in page
    games.start_game(db.session.get(Game, gm_setup_game.id), seed=3)
    assert gm_web.post(url, {"missed_turn_rule": "none"}).status_code == 409
    db.session.expire_all()
    assert db.session.get(Game, gm_setup_game.id).missed_turn_rule == "repeat"
    assert "last round's tips again" in text(gm_web.get(f"/gm/games/{gm_setup_game.id}"))
    ada = signed_in("ada@example.org")
    overview = text(ada.get(f"/games/{gm_setup_game.id}"))
    assert 'id="rule-missed-turn">last round\'s tips again<' in overview
    rules = text(ada.get(f"/games/{gm_setup_game.id}/rules"))
    assert "A missed turn" in rules and "last round's tips again" in rules


def test_the_new_game_form_and_the_cli_set_the_rule(gm_web, runner):
    form = {"name": "Echo", "language": "en", "rounds": "12", "first_bonus_round": "5",
            "bonuses": "3, 2, 1", "points_right": "1", "points_wrong": "-2",
            "reminders": "24, 4", "schedule_kind": "weekly",
            "first_deadline": "2031-03-23T20:00", "every_days": "7",
            "timezone": "Europe/Berlin", "deadlines": "", "missed_turn_rule":
            "repeat-when-absent"}
    assert gm_web.post("/gm/games/new", form).status_code == 302
    assert 'name="missed_turn_rule" value="none" checked' in text(gm_web.get("/gm/games/new"))
    result = runner.invoke(args=["game", "create", "Cli Echo", "--first-deadline",
                                 "2031-03-23 20:00", "--timezone", "UTC", "--missed-turn",
                                 "repeat"])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    rules = dict(db.session.execute(select(Game.name, Game.missed_turn_rule)).all())
    assert rules["Echo"] == "repeat-when-absent" and rules["Cli Echo"] == "repeat"
    bad = runner.invoke(args=["game", "create", "Cli Bad", "--missed-turn", "always"])
    assert bad.exit_code != 0 and "always" in bad.output


def test_the_web_report_marks_a_repeated_line_in_each_language(make_game, signed_in):
    from vpsleuth.services import resolution, turns

    game = make_game("Echoes", start=False)
    game.missed_turn_rule = "repeat"
    db.session.commit()
    games.start_game(game, seed=7)
    ada, ben, cleo = game.players
    turns.submit_turn(ada, "TIP A RD1\nTIP B BP2", channel="web")
    resolution.resolve_round(game)
    turns.submit_turn(ben, "QUESTION A red", channel="web")
    turns.submit_turn(cleo, "DROP ALL", channel="web")
    resolution.resolve_round(game)
    reader = signed_in("ben@example.org")
    for lang, mark in (("en", "(repeated automatically)"), ("de", "(automatisch wiederholt)"),
                       ("es", "(repetido automáticamente)")):
        reader.get(f"/lang/{lang}")
        page = text(reader.get(f"/games/{game.id}/rounds/2"))
        assert page.count(mark) == 1, lang
        row = next(r for r in page.split("<tr") if mark in r)
        assert ">Ada<" in row.replace(f" <span class=\"muted repeated\">{mark}</span>", "")
        assert "RD1" not in page and "BP2" not in page  # the tips stay secret
        plain = reader.get(f"/games/{game.id}/rounds/2.txt").get_data(as_text=True)
        assert sum(mark in ln and "Ada" in ln for ln in plain.splitlines()) == 1
