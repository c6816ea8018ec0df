"""The gettext catalogues are complete, and the pages speak es like en and de.

Completeness covers every text of the code and templates (pages, mails,
services, the turn parser): no untranslated or fuzzy entry in de or es, and
each compiled .mo matches its .po.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import sign_in

from vpsleuth.i18n import ntranslate, translate
from vpsleuth.i18n.catalogues import extract, load, po_path, problems
from vpsleuth.i18n.dates import day_text, moment_text, number_text, short_time_left, time_left
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SPANISH_BROWSER = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}


@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_catalogue_is_complete_and_compiled(lang):
    assert problems(lang) == []


@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_extracted_text_is_in_the_catalogue(lang):
    catalogue = load(po_path(lang), lang)
    missing = [m.id for m in extract() if m.id and catalogue.get(m.id, context=m.context) is None]
    assert missing == []


def test_the_hand_kept_tables_are_gone():
    import vpsleuth.i18n as i18n

    assert not hasattr(i18n, "TABLES") and not hasattr(i18n, "add")
    assert translate("de", "a text no catalogue has") == "a text no catalogue has"


def test_plural_forms_follow_each_language():
    assert ntranslate("es", "{n} day", "{n} days", 1).format(n=1) == "1 día"
    assert ntranslate("es", "{n} day", "{n} days", 3).format(n=3) == "3 días"
    assert ntranslate("de", "{n} hour", "{n} hours", 2).format(n=2) == "2 Stunden"
    assert ntranslate("en", "{n} minute", "{n} minutes", 1).format(n=1) == "1 minute"


def test_time_left_in_three_languages():
    later = NOW + timedelta(days=2, hours=1)
    assert time_left(later, NOW, "en") == "2 days 1 hour left"
    assert time_left(later, NOW, "de") == "noch 2 Tage 1 Stunde"
    assert time_left(later, NOW, "es") == "quedan 2 días 1 hora"
    assert time_left(NOW, NOW, "es") == "el plazo ha vencido"
    assert short_time_left(NOW + timedelta(minutes=30), "es", NOW) == "quedan 30 min"


def test_dates_and_numbers_are_formatted_for_the_locale():
    assert moment_text(NOW, "Europe/Berlin", "en") == "Mon 30 Nov 2026, 13:00 CET"
    assert moment_text(NOW, "Europe/Berlin", "de") == "Mo. 30. Nov. 2026, 13:00 MEZ"
    assert moment_text(NOW, "Europe/Madrid", "es") == "lun 30 nov 2026, 13:00 CET"
    assert moment_text(NOW, "Asia/Tokyo", "es").endswith("21:00 JST")
    assert day_text(NOW.date(), "de") == "30.11.2026"
    assert day_text(NOW.date(), "es") == "30 nov 2026"
    assert number_text(1234.5, "en") == "1,234.5" and number_text(1234.5, "de") == "1.234,5"


def test_a_spanish_browser_gets_spanish_pages_before_sign_in(client):
    page = client.get("/signin", headers=SPANISH_BROWSER).get_data(as_text=True)
    assert '<html lang="es">' in page and "Iniciar sesión" in page
    assert 'aria-current="true">ES</a>' in page


def test_the_header_offers_three_languages_and_remembers_the_choice(client):
    assert client.get("/lang/es").status_code == 302
    page = client.get("/signin").get_data(as_text=True)
    assert re.findall(r">(EN|DE|ES)</a>", page) == ["EN", "DE", "ES"]
    assert '<html lang="es">' in page


def test_the_language_setting_offers_spanish_stores_it_and_uses_it(app, client):
    game = games.create_game("Moonstone", weekly("2030-01-10 20:00", "Europe/Berlin"))
    player = games.add_player(game, "Ada", "ada@example.org", language="en")
    games.start_game(game, seed=3)
    sign_in(client, "ada@example.org")
    page = client.get("/settings").get_data(as_text=True)
    assert ">English</option>" in page and ">Deutsch</option>" in page
    assert ">Español</option>" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = client.post("/settings", data={
        "csrf_token": token, "action": "prefs", "player_id": player.id, "language": "es",
        "timezone": "",
        "wants_round_mail": "on"})
    assert response.status_code in (200, 302)
    from vpsleuth.extensions import db

    db.session.expire_all()
    assert games.find_player(game, "Ada").language == "es"
    home = client.get("/").get_data(as_text=True)
    assert '<html lang="es">' in home and "Tus partidas" in home


def test_a_game_master_may_choose_spanish_as_the_game_language(gm_web):
    form = gm_web.get("/gm/games/new").get_data(as_text=True)
    assert 'value="es"' in form and "Español" in form
