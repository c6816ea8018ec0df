"""The HTML mails of issue 20 (board, absences, seats), rendered in headless Chromium.

test_phone_mails.py covers the round's mails; this covers the rest of a season's
mails. A game in English, German and Spanish (one player each, with a long name)
is played through the real services and the real mail pipeline:

* each player mails a post to their board address (vpsleuth.mail.inbound.ingest):
  the answer "posted" to the author ("board_answer"), the post at once to the
  players whose board mail is "each" ("board_post"); a mail of nothing but a quote
  is refused, and that answer is a "board_answer" too;
* the GM announces (services/board.announce): "board_announcement" to everybody;
* with the board mail set to "digest", two players and the GM post
  (services/board.post) and the morning's digests go out (services/board_digest);
* each player mails ABSENT lines, one good and one bad ("absence"), and the GM
  enters an absence for each (services/absence.announce, channel "gm":
  "absence_entered");
* each seat is handed on (services/seats.replace_player): the newcomer's
  invitation ("invitation", template seat_invitation) and the word to the old
  address ("seat_handed_on").

Every queued HTML body is opened as it was queued, at 360 and 1280 px: nothing is
wider than a 360 px phone, the mail is in its reader's language, the posts' (and
the absence note's) "<b>x</b>" and link show as text, not as markup, and axe-core
finds nothing serious or critical. Screenshots: test-artifacts/screenshots/mail-*.png.
The mails are the same on either database, so this runs on SQLite only.
"""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from axe_support import check
from browser_support import SCREENSHOTS, chromium, shoot_once
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import OutboxMessage
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import absence, board, board_digest, games, preferences, seats

PLAYERS = {"en": ("Bartholomew Featherstonehaugh", "bart@example.org"),
           "de": ("Maximiliane von Hohenstein", "max@example.org"),
           "es": ("María de los Ángeles Fernández", "maria@example.org")}
# Who takes each seat over, in another language than the one who leaves it.
NEWCOMERS = {"en": ("Konstanze Wilhelmine Schwarzenberg-Liechtenstein", "konstanze@example.org",
                    "de"),
             "de": ("Guadalupe Inmaculada Echeverría-Villalobos", "guadalupe@example.org", "es"),
             "es": ("Cornelius Peregrine Fotheringham-Whitcombe", "cornelius@example.org", "en")}
GM = "gm@example.org"
ABSENT = {"en": "ABSENT", "de": "ABWESEND", "es": "AUSENTE"}
# Markup and a link a player writes: a mail prints them as text, never as HTML.
MARKUP = '<b>x</b> and <a href="https://evil.example/">a link</a>'
EVIL = 'a[href^="https://evil.example"]'
HELLO = {"en": "Hello ", "de": "Hallo ", "es": "Hola, "}
# kind -> how many each language's reader gets
KINDS = {"board_post": 2, "board_answer": 2, "board_announcement": 1, "board_digest": 1,
         "absence": 1, "absence_entered": 1, "invitation": 1, "seat_handed_on": 1}
WITH_MARKUP = ("board_post", "board_announcement", "board_digest", "absence")
WIDTHS = (360, 1280)


@pytest.fixture
def app(app_on):
    """The usual emptied app, on SQLite only: what is checked is the HTML of the mails."""
    with app_on("sqlite") as app:
        yield app


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def mail(player, to: str, body: str, subject: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{os.urandom(8).hex()}@example.org>"
    msg.set_content(body)
    return bytes(msg)


def board_mail(player, setting: str) -> None:
    preferences.update_preferences(player, wants_round_mail=True, wants_reminders=True,
                                   wants_confirmations=True, language=player.language,
                                   timezone=None, board_mail=setting)


def markup_as_text(page, text: str) -> bool:
    """Whether the page shows MARKUP as written, with no bold and no link made of it."""
    return ("<b>x</b>" in text and '<a href="https://evil.example/">' in text
            and page.locator(f"b, {EVIL}").count() == 0)


@pytest.fixture
def mails(app):
    """Every mail of the season's kinds, by (kind, language): a list, oldest first."""
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game("Long Court of the Sleuths",
                             weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             Ruleset(rounds=2, first_bonus_round=1))
    for lang, (name, email) in PLAYERS.items():
        games.add_player(game, name, email, language=lang)
    games.start_game(game, seed=9)
    db.session.commit()
    players = list(game.players)

    # Each post at once, and the answers to posts sent by mail (posted; refused: empty).
    for player in players:
        board_mail(player, "each")
    for player in players:
        row = ingest(mail(player, keys.board_address(player),
                          f"A clue for all: {MARKUP}\nhttps://example.org/clue?a=1&b=2\n",
                          "A word to all"), "pipe")
        assert row.status == "applied", row.error
        row = ingest(mail(player, keys.board_address(player),
                          "> only the mail I answer\n> quoted\n", "Re: a word"), "pipe")
        assert row.status == "refused", row.error
    board.announce(game, f"Announcement: {MARKUP}", actor=GM, channel="web")

    # The daily digest, the next morning.
    for player in players:
        board_mail(player, "digest")
    bart, _, maria = players
    board.post(game, f"Digest news: {MARKUP}", player=bart, channel="web")
    board.post(game, f"Más noticias: {MARKUP}", player=maria, channel="web")
    board.post(game, "A word of the GM, not pinned", channel="web", actor=GM)
    morning = (datetime.now(UTC) + timedelta(days=1)).astimezone(ZoneInfo("Europe/Berlin"))
    told = board_digest.send_digests(morning.replace(hour=9, minute=30).astimezone(UTC))
    assert len(told) == 3

    # Absences: by mail (one good line, one bad), and one the GM enters.
    for player in players:
        start = absence.local_day(player, datetime.now(UTC)) + timedelta(days=10)
        end = start + timedelta(days=4)
        body = (f"{ABSENT[player.language]} {start.isoformat()} {end.isoformat()} "
                f"skiing {MARKUP}\n{ABSENT[player.language]} 31.02.2027 soon\n")
        row = ingest(mail(player, keys.reply_address(player), body, "Away"), "pipe")
        assert "line 1: noted; absence line 2: refused" in row.error
        absence.announce(db.session.merge(player), start + timedelta(days=10),
                         start + timedelta(days=12), "told the GM by phone", channel="gm",
                         entered_by=GM)

    # Every seat handed on.
    for lang, player in zip(PLAYERS, players, strict=True):
        name, email, language = NEWCOMERS[lang]
        seats.replace_player(game, db.session.merge(player), name, email, actor=GM,
                             language=language)

    db.session.expire_all()
    reader = {email: lang for lang, (_, email) in PLAYERS.items()}
    newcomer = {email: language for _, email, language in NEWCOMERS.values()}
    found = defaultdict(list)
    for row in db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
        # (the game's own invitations, of the first players, are test_phone_mails' part)
        lang = (newcomer if row.kind == "invitation" else reader | newcomer).get(row.to_addr)
        if row.kind in KINDS and lang:
            found[row.kind, lang].append(row)
    return found


def test_the_seasons_html_mails_fit_a_phone_speak_the_readers_language_and_pass_axe(
        mails, browser):
    assert {key: len(rows) for key, rows in mails.items()} == {
        (kind, lang): n for kind, n in KINDS.items() for lang in PLAYERS}
    wide, axe, wrong_language, markup = {}, {}, [], []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page()
    for (kind, lang), rows in sorted(mails.items()):
        for n, row in enumerate(rows, start=1):
            label = "seat_invitation" if kind == "invitation" else kind  # the template's name
            name = f"mail-{label}-{lang}" + (f"-{n}" if len(rows) > 1 else "")
            html = row.body_html
            (SCREENSHOTS / f"{name}.html").write_text(html)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 800})
                page.set_content(html)
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                if scroll > width:
                    wide[f"{name} at {width}"] = scroll
                shoot_once(page, SCREENSHOTS / f"{name}-{width}.png", full_page=True)
                found = check(page)
                if found.failing:
                    axe[f"{name} at {width}"] = found.details
            text = page.inner_text("body")
            if page.get_attribute("html", "lang") != lang or HELLO[lang] not in text \
                    or (lang != "en" and "Hello" in text):
                wrong_language.append(name)
            quotes_a_post = kind in WITH_MARKUP or (kind == "board_answer" and n == 1)
            if quotes_a_post and not markup_as_text(page, text):
                markup.append(name)
            if kind == "board_answer" and n == 2:
                assert "<b>x</b>" not in text  # the refusal: nothing posted, nothing quoted
    page.close()
    assert wide == {}, f"HTML mails wider than the screen: {wide}"
    assert axe == {}, f"serious or critical axe findings: {axe}"
    assert wrong_language == [], f"not in the reader's language: {wrong_language}"
    assert markup == [], f"a post's markup shown as HTML, or not shown: {markup}"
    # The seat's mails name who left and who came, each in their own language.
    [invitation] = mails["invitation", "de"]
    assert invitation.to_addr == NEWCOMERS["en"][1]
    assert NEWCOMERS["en"][0] in invitation.body_html
    [handed_on] = mails["seat_handed_on", "en"]
    assert handed_on.to_addr == PLAYERS["en"][1] and "vpsleuth+" not in handed_on.headers
