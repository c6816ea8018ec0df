"""The one-click unsubscribe pages, the reply address on the game's page and the mail's foot,
in Chromium at 360 and 1280 px, in English, German and Spanish, axe-core clean.

A reader opens the link of their round mail without signing in: the page asks
in their language (a GET changes nothing), the button turns round mails off
and says so, with the way back to the mail settings. A forged link is refused
plainly, in the browser's language. With round mails off, the game's page still shows the address to
mail a turn to, and the round mail's HTML foot (screenshots mail-foot-*.png)
links to the game's mail settings and says what its unsubscribe link does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import check, looked_at
from browser_support import SCREENSHOTS, browser_fixtures, shoot_once, signed_in_page, watch
from playwright.sync_api import expect
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import OutboxMessage, Player
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, unsubscribe

live_fixture, browser_fixture, ctx_fixture = browser_fixtures("unsubscribe")
WIDTHS = (360, 1280)
READERS = {"en": ("Ada", "ada@example.org"), "de": ("Bert", "bert@example.org"),
           "es": ("Carmen", "carmen@example.org")}
WORDS = {  # asked, done, the game page's reply address, the mail's foot
    "en": ("Turn off round mails?", "Round mails are off", "Or by mail, to your own reply address",
           "You can turn off round mails for this game"),
    "de": ("Rundenmails abschalten?", "Rundenmails sind abgeschaltet",
           "Oder per Mail, an deine eigene Antwortadresse",
           "Rundenmails für diese Partie kannst du"),
    "es": ("¿Desactivar los correos de ronda?", "Los correos de ronda están desactivados",
           "O por correo, a tu propia dirección de respuesta",
           "Puedes desactivar los correos de ronda de esta partida"),
}
REFUSED = {"en": "This link does not work", "de": "Dieser Link funktioniert nicht",
           "es": "Este enlace no funciona"}


@pytest.fixture(scope="module")
def game_id(live):
    app, _ = live
    with app.app_context():
        first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
        game = games.create_game("Lantern Row", weekly(first.strftime("%Y-%m-%d %H:%M"),
                                                       "Europe/Berlin"))
        for lang, (name, email) in READERS.items():
            games.add_player(game, name, email, language=lang)
        games.start_game(game, seed=4)
        return game.id


def seat(game_id: int, lang: str) -> Player:
    db.session.expire_all()
    return next(p for p in games.find_game(game_id).players if p.email == READERS[lang][1])


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_link_asks_turns_round_mails_off_and_the_turn_still_has_its_address(
        live, ctx, browser, game_id, lang):
    _, base = live
    asked, done, reply_label, foot = WORDS[lang]
    player = seat(game_id, lang)
    link = f"/unsubscribe/{unsubscribe.token(player, 'round')}"
    forged = link[:-3] + ("xyz" if not link.endswith("xyz") else "abc")
    for width in WIDTHS:
        viewport = {"width": width, "height": 900}
        # The browser asks for the reader's language: a forged link, which names nobody,
        # is refused in it.
        page = watch(browser.new_context(viewport=viewport, locale=lang).new_page())
        page.goto(base + link)
        expect(page.locator("h1")).to_have_text(asked)
        expect(page.locator("#unsubscribe-for")).to_contain_text("Lantern Row")
        assert seat(game_id, lang).wants_round_mail  # the GET changed nothing
        looked_at(page, f"unsubscribe-ask-{lang}", width)
        page.click("#unsubscribe")
        expect(page.locator("h1")).to_have_text(done)
        expect(page.locator("#turn-back-on a")).to_have_attribute(
            "href", f"/settings#game-{game_id}")
        assert not seat(game_id, lang).wants_round_mail
        looked_at(page, f"unsubscribe-done-{lang}", width)
        page.goto(base + forged)
        expect(page.locator("h1")).to_have_text(REFUSED[lang])
        looked_at(page, f"unsubscribe-refused-{lang}", width, refused=forged)
        page.context.close()

        # Round mails off: the game's page still shows where to mail a turn.
        page = signed_in_page(browser, base, READERS[lang][1], viewport)
        page.goto(f"{base}/lang/{lang}")
        page.goto(f"{base}/games/{game_id}")
        line = page.locator("#reply-address")
        expect(line).to_contain_text(reply_label)
        expect(line.locator("code")).to_have_text(keys.reply_address(seat(game_id, lang)))
        looked_at(page, f"game-reply-address-{lang}", width)
        page.context.close()
        player = seat(game_id, lang)
        player.wants_round_mail = True  # for the next width
        db.session.commit()


def test_the_round_mails_foot_links_the_mail_settings_in_each_language(ctx, browser, game_id):
    mails = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "round_opened", OutboxMessage.game_id == game_id)).all()
    assert len(mails) == 3
    page = browser.new_page()
    for mail in mails:
        lang = next(lang for lang, (_, email) in READERS.items() if email == mail.to_addr)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            page.set_content(mail.body_html)
            settings = page.locator(f"a[href$='/settings#game-{game_id}']")
            expect(settings).to_have_count(1)
            expect(page.locator("body")).to_contain_text(WORDS[lang][3])
            shoot_once(page, SCREENSHOTS / f"mail-foot-{lang}-{width}.png", full_page=True)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            found = check(page)
            assert found.failing == 0, (lang, width, found.details)
        assert WORDS[lang][3] in mail.body_text
        assert f"/settings#game-{game_id}" in mail.body_text
    page.close()
