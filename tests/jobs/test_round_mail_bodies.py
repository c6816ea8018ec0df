"""A round's mail is rendered once per language and zone and stored once; only the name in
its greeting is each player's own, and every player still gets the whole mail, as sent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from jinja2 import ChoiceLoader, DictLoader
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import keys, notify, outbox, render
from vpsleuth.models import MailBody, OutboxMessage, Player
from vpsleuth.rules import Turn
from vpsleuth.services import games, resolution

ODD = 'Ann "&" <Lee>'  # a name that HTML must escape


def rows(kind: str) -> list[OutboxMessage]:
    db.session.expire_all()
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                   .order_by(OutboxMessage.id)))


def whole(player: Player) -> tuple[str, str, str]:
    """The player's round mail rendered alone, the obvious way."""
    game, round_ = player.game, player.game.open_round
    return render.render("round_opened", player.language, game=game, player=player,
                         round=round_, deadline=notify._deadline(player, round_),
                         turn_template=notify.turn_template(player, round_, Turn()),
                         board_address=keys.board_address(player),
                         unsubscribe_kind="round")  # the foot names what its link turns off


def test_a_rounds_mail_is_stored_once_per_language_and_reaches_each_player_whole(
        app, sink, new_game, now):
    game = new_game(players=("Ada", "Bob"), start=False)
    games.add_player(game, ODD, "ann@example.org", now=now)
    games.add_player(game, "Dora", "dora@example.org", language="de", now=now)
    games.start_game(game, now=now, seed=7)
    opened = rows("round_opened")
    assert len(opened) == 4 and len({r.body_id for r in opened}) == 2  # English, German
    jobs.send_outbox(app, now)
    got = {message["Message-ID"]: message for _, message in sink.received}
    for row in opened:
        player = db.session.get(Player, row.player_id)
        subject, text, html = whole(player)
        assert (row.subject, row.body_text, row.body_html) == (subject, text, html)
        message = got[row.message_id]
        assert message["Subject"] == subject
        sent_text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
        sent_html = message.get_body(("html",)).get_content().replace("\r\n", "\n")
        assert sent_text.strip() == text.strip() and sent_html.strip() == html.strip()
        greeting = "Hallo" if player.language == "de" else "Hello"
        assert f"{greeting} {player.name}," in sent_text
    ann = next(r for r in opened if r.to_addr == "ann@example.org")
    assert "Hello Ann &#34;&amp;&#34; &lt;Lee&gt;," in ann.body_html
    assert ann.slot == ODD and ODD not in db.session.get(MailBody, ann.body_id).text


def test_players_in_another_zone_get_a_body_of_their_own(app, new_game, now):
    game = new_game(players=("Ada", "Bob", "Cyd"), start=False)
    bob = games.find_player(game, "Bob")
    bob.timezone = "America/New_York"
    db.session.commit()
    games.start_game(game, now=now, seed=7)
    opened = {r.player_id: r for r in rows("round_opened")}
    assert len({r.body_id for r in opened.values()}) == 2
    assert "EST" in opened[bob.id].body_text and "CET" not in opened[bob.id].body_text


def test_report_and_next_round_mail_stay_whole_after_a_resolution(app, new_game, now):
    game = new_game()
    resolution.resolve_round(game, now=now + timedelta(days=8), number=1)
    opened = rows("round_opened")[-3:]
    assert len({r.body_id for r in opened}) == 1
    for row in opened:
        player = db.session.get(Player, row.player_id)
        assert (row.subject, row.body_text, row.body_html) == whole(player)
    assert len({r.body_id for r in rows("report")}) == 1


@pytest.fixture
def probe(app):
    """Install templates email/probe.txt and .html for one test."""
    original = app.jinja_env.loader

    def install(text: str, html: str) -> None:
        app.jinja_env.loader = ChoiceLoader([DictLoader({
            "email/probe.txt": text, "email/probe.html": html}), original])
        app.jinja_env.cache.clear()

    yield install
    app.jinja_env.loader = original
    app.jinja_env.cache.clear()


@pytest.mark.parametrize("text, html", [
    ("Subject: s\n\nHi {{ player.name }}, {{ player.email }}", "<p>x</p>"),  # more than the name
    ("Subject: s\n\nHI {{ player.name|upper }}", "<p>x</p>"),  # not printed as it is
    ("Subject: s\n\n{{ player.name|e }}", "<p>x</p>"),  # escaped in plain text
    ("Subject: s\n\n{{ player.name }} and {{ player.name }}", "<p>x</p>"),  # twice
    ("Subject: s {{ player.name }}\n\nx", "<p>x</p>"),  # in the subject
    ("Subject: s\n\n{% if player.name|length > 3 %}long{% endif %}", "<p>x</p>"),  # as a test
    ("Subject: s\n\n{{ player }}", "<p>x</p>"),  # the object itself
    ("Subject: s\n\n{{ '%-12s|' % player.name }}", "<p>x</p>"),  # laid out by its length
    ("Subject: s\n\n{{ player.name|truncate(12) }}", "<p>x</p>"),  # cut by its length
])
def test_a_template_that_uses_the_player_otherwise_is_rendered_whole(app, new_game, probe,
                                                                       text, html):
    probe(text, html)
    ada = new_game(start=False).players[0]
    assert render.render_shared("probe", "en", ada) is None


def test_a_template_that_greets_by_name_is_rendered_once(app, new_game, probe):
    probe("Subject: s\n\nHi {{ player.name }}!\n", "<p>Dear {{ player.name }}</p>")
    game = new_game(start=False)
    shared = render.render_shared("probe", "en", game.players[0])
    assert (shared.text, shared.html) == ("Hi !", "<p>Dear </p>")
    for player in game.players:
        assert (shared.subject, *shared.bodies(player.name)) == render.render(
            "probe", "en", player=player)


def test_a_mail_of_a_batch_is_the_mail_message_writes(app, new_game, now):
    game = new_game(players=("Ada",))
    games.add_player(game, ODD, "ann@example.org", now=now)
    ada = game.players[0]
    shared = render.render_shared("round_opened", "en", ada, game=game, round=game.open_round,
                                  deadline="soon", turn_template="TIP A RD1")
    for player, mail in zip(game.players, outbox.personal("round_opened", game, [
            (p, shared) for p in game.players]), strict=True):
        alone = outbox.message("round_opened", player.email, "round_opened", "en", game=game,
                               player=player, shared=shared)
        assert {k: v for k, v in mail.items() if k != "message_id"} == {
            k: v for k, v in alone.items() if k != "message_id"}
        assert mail["message_id"] != alone["message_id"]
