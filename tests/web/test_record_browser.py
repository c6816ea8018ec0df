"""The record's pages in Chromium (issue 22, 6): 360 and 1280 px, EN, DE, ES, axe-clean.

One browser for the module, one live server on a SQLite file of its own. The
pages: the archive, a public game, a replay step and the revealed deal, the
leaderboard and a person, the privacy notice, and, signed in, the settings
(display names, the data section) and the deletion page with its warning. Each
is screenshot at both widths in every language (test-artifacts/screenshots/
record-*), must not scroll sideways, and axe-core (WCAG 2.0-2.2 A/AA) finds no
serious or critical violation; the text is in the page's language.
"""

from __future__ import annotations

import pytest
from axe_support import check, preload
from browser_support import (
    SCREENSHOTS,
    chromium,
    follow_sign_in_link,
    live_sqlite,
    shoot_once,
    watch,
)
from record_support import new_game, play, tell

from vpsleuth.extensions import db
from vpsleuth.services import accounts, auth, names

pytestmark = pytest.mark.walk  # one long walk: handed out early (tests/conftest.py)

WIDTHS = {"360": {"width": 360, "height": 780}, "1280": {"width": 1280, "height": 900}}
# A word each page must show in each language: the page is in the reader's language.
WORDS = {"archive": ("Archive", "Archiv", "Archivo"),
         "game": ("Replay the game round by round", "Runde für Runde", "ronda a ronda"),
         "replay": ("The sheet after round", "Das Blatt nach Runde", "La hoja tras la ronda"),
         "reveal": ("The deal revealed", "Die Verteilung aufgedeckt", "El reparto al descubierto"),
         "leaderboard": ("Leaderboard", "Rangliste", "Clasificación general"),
         "person": ("Rated games", "Gewertete Partien", "Partidas puntuables"),
         "privacy": ("Your rights", "Deine Rechte", "Tus derechos"),
         "settings": ("Download my data", "Meine Daten herunterladen", "Descargar mis datos"),
         "delete": ("Warning:", "Achtung:", "Atención:")}
LANGS = ("en", "de", "es")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_sqlite(tmp_path_factory.mktemp("record")) as (app, base):
        with app.app_context():
            gail = accounts.create_game_master("gail@example.org", "Gail")
            people = {"Ada": "ada@example.org", "Ben": "ben@example.org",
                      "Cy": "cy@example.org"}
            game = play(new_game("Zircon Vault", gail, people, public=True, rated=True))
            names.set_display_name(game.players[1], "Benjamin of the Long Name")
            play(new_game("Garnet Row", gail, people, rounds=4), rounds=1)  # Ada plays on
            tell()
            profile = names.profile_of("ada@example.org")
            paths = {"archive": "/archive", "game": f"/archive/{game.id}",
                     "replay": f"/archive/{game.id}/replay/2",
                     "reveal": f"/archive/{game.id}/replay/3", "leaderboard": "/leaderboard",
                     "person": f"/leaderboard/{profile.id}", "privacy": "/privacy",
                     "settings": "/settings", "delete": "/settings/delete"}
            db.session.remove()
        with chromium() as browser:
            yield app, base, browser, paths


def test_every_record_page_reads_well_at_360_and_1280_px_in_three_languages(site):
    app, base, browser, paths = site
    problems = []
    for lang_index, lang in enumerate(LANGS):
        # Each page loaded once, at the first width, and looked at in each: a resize
        # reflows it as a load would, at half the loads.
        context = browser.new_context(viewport=next(iter(WIDTHS.values())))
        preload(context)
        page = watch(context.new_page())
        page.goto(f"{base}/lang/{lang}?next=/")
        signed_in = False
        for name, path in paths.items():
            if name in ("settings", "delete") and not signed_in:
                with app.app_context():
                    token = auth.issue_token("ada@example.org")
                    db.session.commit()
                follow_sign_in_link(page, f"{base}/signin/{token}")
                page.goto(f"{base}/lang/{lang}?next=/")
                signed_in = True
            page.set_viewport_size(next(iter(WIDTHS.values())))
            page.goto(base + path)
            text = page.inner_text("main")
            if WORDS[name][lang_index] not in text:
                problems.append(f"{name} {lang}: no {WORDS[name][lang_index]!r}")
            for width, viewport in WIDTHS.items():
                page.set_viewport_size(viewport)
                shoot_once(page, SCREENSHOTS / f"record-{name}-{lang}-{width}.png",
                           full_page=True)
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                if scroll > viewport["width"]:
                    problems.append(f"{name} {lang} {width}: scrolls sideways ({scroll}px)")
                found = check(page)
                if found.failing:
                    problems.append(f"{name} {lang} {width}: " + "; ".join(found.details[:3]))
        if page.console_errors or page.failed:
            problems.append(f"{lang}: {page.console_errors} {page.failed}")
        context.close()
    assert not problems, "\n".join(problems)
