"""Mails in each player's language, through the real SMTP sink: Spanish, the round mail
rendered once per language and zone, and the sign-in link in the address's own language."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import notify
from vpsleuth.models import OutboxMessage
from vpsleuth.services import accounts, games


def bodies(message) -> tuple[str, str]:
    """The text (with the wire's CRLF as newlines) and the HTML of a received mail."""
    return (message.get_body(("plain",)).get_content().replace("\r\n", "\n"),
            message.get_body(("html",)).get_content())


def test_a_spanish_player_gets_the_invitation_and_the_round_mail_in_spanish(
        app, sink, new_game, now):
    game = new_game(players=(), start=False)
    ana = games.add_player(game, "Ana", "ana@example.org", language="es", now=now)
    games.add_player(game, "Ben", "ben@example.org", language="de", now=now)
    games.start_game(game, now=now, seed=7)  # the invitations, then the round's mail
    db.session.commit()
    assert jobs.send_outbox(app, now) >= 4
    subjects = {m["Subject"]: m for m in sink.to(ana.email)}
    invitation = subjects["Te invitan a la partida de VP-Sleuth «Winter»"]
    text, html = bodies(invitation)
    assert text.startswith("Hola, Ana:\n\n")
    assert "También puedes jugar solo por correo" in " ".join(text.split())
    assert 'lang="es"' in html and "Entrar y ver la partida" in html
    round_mail = subjects["Winter: la ronda 1 está abierta hasta el dom 6 dic 2026, 20:00 CET"]
    text, html = bodies(round_mail)
    assert "PREGUNTA E ópalos azules\nAPUESTA A RD1\n" in text
    assert "Plazo: <strong>dom 6 dic 2026, 20:00 CET</strong>." in html
    german = [m["Subject"] for m in sink.to("ben@example.org")]
    assert "Winter: Runde 1 läuft bis So. 6. Dez. 2026, 20:00 MEZ" in german


def test_the_round_mail_is_rendered_once_per_language_and_zone(app, new_game, now):
    game = new_game(players=(), start=False)
    for name, lang in (("Ana", "es"), ("Eva", "es"), ("Ben", "de"), ("Ada", "en"),
                       ("Leo", "es")):
        games.add_player(game, name, f"{name.lower()}@example.org", language=lang, now=now)
    games.start_game(game, now=now, seed=7)
    leo = games.find_player(game, "Leo")
    leo.timezone = "America/Mexico_City"  # as set on the settings page
    db.session.commit()
    notify.round_opened(game, game.open_round)
    db.session.commit()
    rows = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "round_opened", OutboxMessage.created_at.is_not(None))
        .order_by(OutboxMessage.id)).all()  # the newest five last (PostgreSQL keeps no order)
    latest = rows[-5:]
    assert {r.to_addr for r in latest} == {"ana@example.org", "eva@example.org",
                                           "ben@example.org", "ada@example.org",
                                           "leo@example.org"}
    assert len({r.body_id for r in latest}) == 4  # es Berlin, es Mexico, de, en
    by_address = {r.to_addr: r for r in latest}
    assert by_address["ana@example.org"].body_id == by_address["eva@example.org"].body_id
    assert "13:00 CST" in by_address["leo@example.org"].subject


def test_a_sign_in_link_follows_the_address_not_the_browser(app, new_game, now):
    accounts.create_game_master("gil@example.org", "Gil", language="es")
    game = new_game(players=(), start=False)
    games.add_player(game, "Ben", "Ben@Example.org", language="de", now=now)
    db.session.commit()
    notify.sign_in("gil@example.org", "t1", "de")  # a GM account in Spanish
    notify.sign_in("ben@example.org", "t2", "es")  # a player in German
    notify.sign_in("new@example.org", "t3", "es")  # nothing stored: the browser's
    db.session.commit()
    subjects = dict(db.session.execute(select(OutboxMessage.to_addr, OutboxMessage.subject)
                                       .where(OutboxMessage.kind == "sign_in")).all())
    assert subjects == {"gil@example.org": "Tu enlace de acceso a VP-Sleuth",
                        "ben@example.org": "Dein Anmeldelink für VP-Sleuth",
                        "new@example.org": "Tu enlace de acceso a VP-Sleuth"}


def test_the_sign_in_page_sends_the_link_in_the_players_language_whatever_the_browser(
        app, new_game, now):
    game = new_game(players=(), start=False)
    games.add_player(game, "Ana", "ana@example.org", language="es", now=now)
    db.session.commit()
    client = app.test_client()
    page = client.get("/signin", headers={"Accept-Language": "de"}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post("/signin", data={"email": "ana@example.org", "csrf_token": token},
                headers={"Accept-Language": "de"})
    mail = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "sign_in", func.lower(OutboxMessage.to_addr) == "ana@example.org"
    )).one()
    assert mail.subject == "Tu enlace de acceso a VP-Sleuth"
    assert "Aquí tienes tu enlace para entrar en VP-Sleuth." in mail.body.text
