"""Mails say when a round closes early, and a report says why a row reads "no turn"."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns

EARLY_EN = "The round closes as soon as everyone has sent a turn: send yours when it is complete."
EARLY_DE = "Die Runde endet, sobald alle einen Zug geschickt haben: Schick deinen, wenn er " \
           "fertig ist."
NO_TURN = "No turn: this player sent no turn this round, so no tips were scored."


def new_game(early: bool, name: str = "Opal"):
    game = games.create_game(name, weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(early_resolution=early))
    games.add_player(game, "Ada", "ada@example.org")
    games.add_player(game, "Bert", "bert@example.org", language="de")
    return game


def mails(kind: str, to: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == kind, OutboxMessage.to_addr == to).order_by(OutboxMessage.id)))


def test_round_mails_say_the_round_closes_when_everyone_has_sent(app, now):
    games.start_game(new_game(early=True), now=now)
    (ada,), (bert,) = mails("round_opened", "ada@example.org"), mails("round_opened",
                                                                      "bert@example.org")
    assert EARLY_EN in ada.body_text and EARLY_EN in ada.body_html
    assert EARLY_DE in bert.body_text and EARLY_DE in bert.body_html
    assert "Deadline:" in ada.body_text.split(EARLY_EN)[0]  # right after the deadline


def test_round_mails_of_a_game_without_early_resolution_say_nothing_of_it(app, now):
    games.start_game(new_game(early=False), now=now)
    for to in ("ada@example.org", "bert@example.org"):
        (mail,) = mails("round_opened", to)
        assert "as soon as everyone" not in mail.body_text
        assert "sobald alle" not in mail.body_text


def test_a_confirmation_says_a_change_counts_only_until_everyone_has_sent(app, now):
    game = new_game(early=True)
    games.start_game(game, now=now)
    turns.submit_turn(game.players[0], "TIP A RD1", channel="web", now=now)
    (mail,) = mails("confirmation", "ada@example.org")
    assert "Once everyone has sent a turn, the round closes at once." in mail.body_text
    assert "Once everyone has sent a turn, the round closes at once." in mail.body_html
    turns.submit_turn(game.players[1], "TIP A RD1", channel="web", now=now)
    (mail,) = mails("confirmation", "bert@example.org")
    assert "Sobald alle einen Zug geschickt haben, endet die Runde sofort." in mail.body_text
    late = new_game(early=False, name="Jade")
    games.start_game(late, now=now)
    turns.submit_turn(late.players[0], "TIP A RD1", channel="web", now=now)
    assert "everyone" not in mails("confirmation", "ada@example.org")[-1].body_text


def test_the_report_mail_explains_a_no_turn_row(app, now):
    game = new_game(early=False)
    games.start_game(game, now=now)
    turns.submit_turn(game.players[0], "TIP A RD1", channel="web", now=now)
    resolution.resolve_round(game, now=now + timedelta(days=6), actor="gm", number=1)
    (report,) = mails("report", "ada@example.org")
    assert NO_TURN in report.body_text and "no turn" in report.body_text
    (bericht,) = mails("report", "bert@example.org")
    assert "Kein Zug: Dieser Spieler hat in dieser Runde keinen Zug geschickt" in bericht.body_text
