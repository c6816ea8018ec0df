"""A turn sent after the deadline, before the round is resolved: told so, in its language.

The round is still open then (the resolver has not claimed it yet), but it
takes no more turns: the reply must say the deadline passed and the round is
being resolved, never "round 1 is open until" a time already past. The game
runs on the real clock, because the mail pipeline decides lateness by it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound.pipeline import ingest
from vpsleuth.models import OutboxMessage, utcnow
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, turns
from vpsleuth.services.errors import RoundClosed

PASSED = {"en": "The deadline of round 1 passed at", "de": "Der Abgabetermin von Runde 1 ist am"}
BEING_RESOLVED = {"en": "the round is being resolved and round 2 will open with the report",
                  "de": "die Runde wird ausgewertet, und Runde 2 beginnt mit dem Bericht"}
STILL_OPEN = {"en": "Round 1 is open until", "de": "Runde 1 läuft bis"}


@pytest.fixture
def game(app):
    first = to_local(utcnow() + timedelta(days=7), "Europe/Berlin")
    game = games.create_game("Late", weekly(first.strftime("%Y-%m-%d 20:00"), "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org", language="en")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, seed=5)
    return game


def deadline_passed(game) -> None:
    """The deadline is a minute ago and no resolver has come by yet."""
    game.open_round.deadline = utcnow() - timedelta(minutes=1)
    db.session.commit()


def reply(player, body: str, n: int = 1) -> bytes:
    return (f"From: {player.name} <{player.email}>\r\nTo: <{keys.reply_address(player)}>\r\n"
            f"Subject: Re: Late: round 1\r\nMessage-ID: <late-{player.id}-{n}@example.org>\r\n"
            "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{body}\r\n").encode()


def refusals(player) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.player_id == player.id, OutboxMessage.kind == "refused")
        .order_by(OutboxMessage.id)))


@pytest.mark.parametrize(("name", "lang"), [("Ada", "en"), ("Ben", "de")])
def test_a_late_mail_is_told_the_deadline_passed_not_that_the_round_is_open(game, name, lang):
    player = games.find_player(game, name)
    deadline_passed(game)
    row = ingest(reply(player, "TIP A RD1"), "pipe")
    assert row.status == "refused"
    [mail] = refusals(player)
    for body in (mail.body_text, mail.body_html):
        assert PASSED[lang] in body and BEING_RESOLVED[lang] in body
        assert STILL_OPEN[lang] not in body
    assert turns.standing_turn(game.open_round, player).is_empty


@pytest.mark.parametrize(("name", "lang"), [("Ada", "en"), ("Ben", "de")])
def test_bad_lines_before_the_deadline_are_still_told_until_when_the_round_is_open(
        game, name, lang):
    player = games.find_player(game, name)
    assert ingest(reply(player, "TIP H RD1"), "pipe").status == "refused"
    [mail] = refusals(player)
    assert STILL_OPEN[lang] in mail.body_text and STILL_OPEN[lang] in mail.body_html
    assert PASSED[lang] not in mail.body_text


def test_a_late_mail_with_nothing_in_it_is_not_offered_a_past_deadline(game):
    ada = games.find_player(game, "Ada")
    deadline_passed(game)
    assert ingest(reply(ada, "# nothing"), "pipe").status == "refused"
    [mail] = refusals(ada)
    assert STILL_OPEN["en"] not in mail.body_text


def test_a_late_turn_meant_for_another_round_is_told_the_deadline_passed(game):
    ada = games.find_player(game, "Ada")
    deadline_passed(game)
    with pytest.raises(RoundClosed) as late:
        turns.submit_turn(ada, "TIP A RD1", channel="email", round_number=2)
    assert late.value.sentence("en").startswith(PASSED["en"])
    assert "is open" not in late.value.message
    assert late.value.text("de").startswith(PASSED["de"])
