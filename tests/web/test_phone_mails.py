"""The HTML mails of a real game, rendered in headless Chromium at 360 px: none is wider.

A game in English, German and Spanish (one player each, with a long name) is
started, played by mail and the web and ended; every mail a player gets on the
way (the round opened, a reminder, the confirmation of a turn, a round's report,
the final report) is opened as it was queued, and its HTML must fit a phone's
360 px without scrolling sideways: tables of their own, and long tokens (the
commitment, the salt, the check command) wrapped. The text parts are what they
were: the report's text still comes from reports/round.txt. Screenshots of each
at 360 and 1280 px go to test-artifacts/screenshots/mail-*.png, beside the HTML.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from browser_support import SCREENSHOTS, chromium, shoot_once
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reminders, reports, resolution, turns

PLAYERS = {"en": ("Bartholomew Featherstonehaugh", "bart@example.org"),
           "de": ("Maximiliane von Hohenstein", "max@example.org"),
           "es": ("María de los Ángeles Fernández", "maria@example.org")}
KINDS = ("round_opened", "reminder", "confirmation", "report", "final_report")
WIDTHS = (360, 1280)


@pytest.fixture
def mails(app):
    """Every mail of a two-round game, by kind and language (the newest of each)."""
    first = (datetime.now(UTC) + timedelta(days=3)).astimezone(ZoneInfo("Europe/Berlin"))
    game = games.create_game("Long Court of the Sleuths",
                             weekly(first.strftime("%Y-%m-%d %H:%M"), "Europe/Berlin"),
                             Ruleset(rounds=2, first_bonus_round=1))
    for lang, (name, email) in PLAYERS.items():
        games.add_player(game, name, email, language=lang)
    games.start_game(game, seed=9)
    reminders.send_reminders(now=game.open_round.deadline - timedelta(hours=20))
    bart, maxi, maria = game.players
    for number in (1, 2):
        turns.submit_turn(bart, "QUESTION E blue opal\nTIP A RD1, BP2\nTIP X YO3",
                          channel="email")
        turns.submit_turn(maxi, "FRAGE A Diamant\nTIPP B GO1", channel="email")
        turns.submit_turn(maria, "PREGUNTA C perla roja\nPISTA C YD2", channel="email")
        resolution.resolve_round(game, number=number)
    db.session.commit()
    jobs.run_all(app)  # as the scheduler would next: the final report may wait for a job
    db.session.expire_all()
    found = {}
    for mail in db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
        lang = next((lang for lang, (_, email) in PLAYERS.items() if email == mail.to_addr),
                    None)
        if lang and mail.kind in KINDS:
            found[mail.kind, lang] = mail
    return game, found


def test_every_html_mail_of_a_game_fits_a_phone_and_the_text_stays_as_it_was(mails):
    game, found = mails
    assert sorted(found) == sorted((k, lang) for k in KINDS for lang in PLAYERS)
    wide = {}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        page = browser.new_page()
        for (kind, lang), mail in sorted(found.items()):
            (SCREENSHOTS / f"mail-{kind}-{lang}.html").write_text(mail.body_html)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 800})
                page.set_content(mail.body_html)
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                if scroll > width:
                    wide[f"{kind} {lang} at {width}"] = scroll
                shoot_once(page, SCREENSHOTS / f"mail-{kind}-{lang}-{width}.png",
                           full_page=True)
            if kind in ("report", "final_report"):
                # real tables, not a preformatted block of the text
                assert page.locator("pre").count() == (1 if kind == "final_report" else 0)
                assert page.locator("#mail-results tbody tr").count() == 3
                assert page.locator("#mail-history tbody tr").count() == 3
    assert wide == {}, f"HTML mails wider than the screen: {wide}"
    # The text part of a report is the report's text, as before.
    report = found["report", "de"]
    built = reports.build_report(game, 1, "de")
    assert reports.render_text(built, "Europe/Berlin", "de") in report.body_text
