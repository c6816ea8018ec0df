"""The rulebook at /rules is written for players, and each game's rules page sets its
house rules beside the standard game's, for its players and GM alone."""

from __future__ import annotations

import html
import re

import pytest
from conftest import PLAYERS

from vpsleuth.i18n import house_rules
from vpsleuth.rules import Ruleset
from vpsleuth.web import docs

BROWSER = {"en": "en-GB,en;q=0.9", "de": "de-DE,de;q=0.9", "es": "es-ES,es;q=0.9"}
# Words of the developers' reference that a player's rulebook never says.
DEVELOPER_WORDS = ("seed", ".md", "Decision", "Entscheidung", "Decisión",
                   "reference for the project", "docs/", "RULES", "the project")
# The sections a rulebook has, in this order: what the game is, the gems, the deal,
# a turn (a question, tips), scoring with its example, bonuses, the end, a seat that
# changes hands, being away, house rules.
SECTIONS = {
    "en": ["The game in brief", "The gems", "The deal", "Your turn", "Answers and scoring",
           "Bonus points", "The end of the game", "A seat that changes hands",
           "When you are away", "House rules"],
    "de": ["Das Spiel in Kürze", "Die Edelsteine", "Das Verteilen", "Dein Zug",
           "Antworten und Wertung", "Bonuspunkte", "Spielende", "Ein Platz wechselt die Hand",
           "Wenn du weg bist", "Hausregeln"],
    "es": ["El juego en pocas palabras", "Las gemas", "El reparto", "Tu turno",
           "Respuestas y puntuación", "Puntos extra", "El final de la partida",
           "Un puesto que cambia de manos", "Cuando estás fuera", "Reglas de la casa"],
}
# How each rulebook states the standard game's numbers (of ``rules``).
STATED = {
    "en": lambda r: [f"The game lasts {r.rounds} rounds at most.",
                     f"a <strong>right</strong> tip earns {r.points_right} point",
                     f"From round {r.first_bonus_round} on, the players are also ranked",
                     f"the number of rounds (standard: {r.rounds})"],
    "de": lambda r: [f"Das Spiel dauert höchstens {r.rounds} Runden.",
                     f"ein <strong>richtiger</strong> Tipp bringt {r.points_right} Punkt",
                     f"Ab Runde {r.first_bonus_round} werden die Spieler außerdem",
                     f"die Zahl der Runden (Standard: {r.rounds})"],
    "es": lambda r: [f"La partida dura como mucho {r.rounds} rondas.",
                     f"cada apuesta <strong>acertada</strong> suma {r.points_right} punto",
                     f"A partir de la ronda {r.first_bonus_round}, además",
                     f"el número de rondas (estándar: {r.rounds})"],
}


def served(client, lang: str) -> str:
    response = client.get("/rules", headers={"Accept-Language": BROWSER[lang]})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    return page[page.index("<main"):page.index("</main>")]


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_served_rulebook_names_no_file_seed_decision_or_reference(client, lang):
    text = html.unescape(served(client, lang))
    for word in DEVELOPER_WORDS:
        assert word not in text, word


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_rulebook_has_the_sections_of_a_rulebook_in_order(client, lang):
    page = served(client, lang)
    assert re.findall(r"<h2 [^>]*>(.*?)</h2>", page) == SECTIONS[lang]
    assert page.count("<h1") == 1
    # Scoring and bonuses each come with a worked example.
    example = {"en": "Example.", "de": "Beispiel.", "es": "Ejemplo."}[lang]
    assert page.count(f"<strong>{example}</strong>") == 2


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_rulebook_states_the_standard_game_of_the_code(client, lang):
    page = served(client, lang)
    standard = Ruleset()
    for sentence in STATED[lang](standard):
        assert sentence in page, sentence
    # The worked example adds up under the code's numbers: 9 right and 3 wrong.
    score = 9 * standard.points_right + 3 * standard.points_wrong
    assert f"= <strong>{house_rules.signed(score)}</strong>" in page
    assert house_rules.listed(standard.bonuses, lang) in page


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_other_defaults_in_the_code_would_change_the_rulebook_with_them(
        client, monkeypatch, lang):
    other = Ruleset(rounds=9, first_bonus_round=4, bonuses=(6, 4, 2), points_right=3,
                    points_wrong=-4)
    monkeypatch.setattr(house_rules, "STANDARD", other)
    docs._rendered.cache_clear()
    try:
        page = served(client, lang)
    finally:
        monkeypatch.undo()
        docs._rendered.cache_clear()
    for sentence in STATED[lang](other):
        assert sentence in page, sentence
    assert "= <strong>+15</strong>" in page  # 9 x (+3) + 3 x (-4)
    assert re.search(r"\b4\b\D{1,20}\b7\b", html.unescape(page))  # right > 4 times in 7
    assert house_rules.listed((6, 4, 2), lang) in page
    for sentence in STATED[lang](Ruleset()):  # nothing of the real defaults is left
        assert sentence not in page, sentence


def test_a_game_of_standard_rules_says_so_on_its_rules_page(make_game, ada):
    game = make_game("Beryl")
    page = ada.get(f"/games/{game.id}/rules").get_data(as_text=True)
    assert "This game plays the standard rules." in page
    assert 'class="changed"' not in page
    assert page.count("<h1") == 1 and "<h2 id=\"the-rules-of-vp-sleuth\"" in page


def test_the_rules_page_sets_changed_house_rules_beside_the_standard_in_german(
        make_game, signed_in):
    from vpsleuth.services import games

    game = make_game("Spinell", rules=Ruleset(rounds=6, bonuses=(), points_wrong=0),
                     start=False, players={})
    games.add_player(game, "Bert", "bert@example.org", language="de")
    games.start_game(game, seed=2)
    page = signed_in("bert@example.org").get(f"/games/{game.id}/rules").get_data(as_text=True)
    assert "Dieses Spiel ändert 3 Regeln des Standardspiels; sie sind unten markiert." in page
    rows = dict(re.findall(r'<tr id="rule-(\w+)" class="changed">(.*?)</tr>', page, re.S))
    assert set(rows) == {"rounds", "points_wrong", "bonus"}
    assert "<strong>keine</strong>" in rows["bonus"] and "3, 2 und 1, ab Runde 5" in rows["bonus"]
    assert "<strong>0</strong>" in rows["points_wrong"] and "−2" in rows["points_wrong"]


def test_every_page_of_a_game_links_its_rules(moonstone, ada):
    for path in ("", "/turn", "/sheet", "/standings", "/rounds", "/rules"):
        page = ada.get(f"/games/{moonstone.id}{path}").get_data(as_text=True)
        assert f'href="/games/{moonstone.id}/rules" id="game-rules-link"' in page, path


def test_its_game_master_reads_a_games_rules_too(app, make_game, signed_in):
    from vpsleuth.extensions import db
    from vpsleuth.models import Game
    from vpsleuth.services import accounts

    gm = accounts.create_game_master("gina@example.org", "Gina")
    game = make_game("Onyx", rules=Ruleset(rounds=7))
    db.session.get(Game, game.id).game_master_id = gm.id
    db.session.commit()
    page = signed_in("gina@example.org").get(f"/games/{game.id}/rules")
    assert page.status_code == 200 and "<strong>7</strong>" in page.get_data(as_text=True)


def test_nobody_else_sees_a_games_house_rules(make_game, signed_in, client):
    mine = make_game("Jasper", rules=Ruleset(rounds=5))
    make_game("Agate", players={"Dora": "dora@example.org"})
    stranger = signed_in("dora@example.org")
    assert stranger.get(f"/games/{mine.id}/rules").status_code == 404
    assert stranger.get("/games/999/rules").status_code == 404  # as for no game at all
    signed_out = client.get(f"/games/{mine.id}/rules")
    assert signed_out.status_code == 302 and "/signin" in signed_out.headers["Location"]
    assert signed_in(PLAYERS["Ada"]).get(f"/games/{mine.id}/rules").status_code == 200
