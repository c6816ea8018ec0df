"""A round that closed before its deadline says so in its report: on the web, as text,
in the report mails (text and HTML), in the players' languages."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, utcnow
from vpsleuth.rules import Ruleset
from vpsleuth.services import games, resolution, turns

EARLY = re.compile(r"This round closed early, on \w{3} \d+ \w{3} \d{4}, \d\d:\d\d CET: every "
                   r"player had sent a turn \(the deadline was \w{3} \d+ \w{3} \d{4}, "
                   r"\d\d:\d\d CET\)\.")
EARLY_DE = "Diese Runde endete vorzeitig"
EARLY_ES = "Esta ronda se cerró antes de tiempo"


def report_mail(to: str) -> OutboxMessage:
    return db.session.scalar(select(OutboxMessage).where(
        OutboxMessage.kind == "report", OutboxMessage.to_addr == to))


def plain(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(
        as_text=True))))


def test_a_round_closed_early_says_so_on_every_channel(make_game, signed_in):
    game = make_game("Early", rules=Ruleset(early_resolution=True))
    games.find_player(game, "Ben").language = "de"
    games.find_player(game, "Cleo").language = "es"
    db.session.commit()
    for name in ("Ada", "Ben", "Cleo"):
        turns.submit_turn(games.find_player(game, name), "TIP A RD1", channel="web")
    [done] = resolution.resolve_due()
    assert done.resolved_at < done.deadline
    ada = signed_in("ada@example.org")
    page = plain(ada.get(f"/games/{game.id}/rounds/1"))
    assert EARLY.search(page), page[:600]
    assert EARLY.search(ada.get(f"/games/{game.id}/rounds/1.txt").get_data(as_text=True))
    mail = report_mail("ada@example.org")
    assert EARLY.search(mail.body_text) and EARLY.search(html.unescape(mail.body_html))
    assert EARLY_DE in report_mail("ben@example.org").body_text
    assert EARLY_ES in report_mail("cleo@example.org").body_text
    ada.get("/lang/de")
    assert "Diese Runde endete vorzeitig, am " in plain(ada.get(f"/games/{game.id}/rounds/1"))


def test_a_round_the_game_master_resolved_before_its_deadline_says_who(make_game, signed_in):
    game = make_game("Manual")
    resolution.resolve_round(game, actor="gm@example.org")
    page = plain(signed_in("ada@example.org").get(f"/games/{game.id}/rounds/1"))
    assert "The game master resolved this round on " in page
    assert ", before its deadline (" in page and "closed early" not in page


def test_a_round_resolved_at_its_deadline_says_nothing_of_it(make_game, signed_in):
    game = make_game("OnTime", rules=Ruleset(early_resolution=True))
    turns.submit_turn(games.find_player(game, "Ada"), "TIP A RD1", channel="web")
    resolution.resolve_due(utcnow() + timedelta(days=4))
    assert game.round(1).state == "resolved"
    page = signed_in("ada@example.org").get(f"/games/{game.id}/rounds/1").get_data(
        as_text=True)
    assert 'id="closed-early"' not in page and "before its deadline" not in page
    assert "closed early" not in report_mail("ada@example.org").body_text
