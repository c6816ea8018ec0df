"""The game told afterwards speaks as a player thinks, on the page and in the final report.

Gems certain and deals still possible after each round ("one in 679", never
"-0.00"), the question that told the most, which answers proved each gem, and
each player's part in words, with the plural forms of English, German and
Spanish; bits only as a detail, explained once. Real HTTP through the test
client; the final report as it is queued in the outbox, text and HTML.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlalchemy import select
from story_support import READERS, ended_game, nothing_proved_game

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage

NEGATIVE_ZERO = re.compile(r"-0[.,]0")
POWER = r"\d[.,]\d\s×\s10[⁰¹²³⁴⁵⁶⁷⁸⁹]+"

# What each language must say about the game of story_support.ended_game.
SAYS = {
    "en": {
        "none_certain": "no gem certain", "three_certain": "3 gems certain",
        "one_in": r"Together, this round's answers left only one in \d+ of the deals that "
                  r"were possible before it\.",
        "round_2": rf"Round 2: 3 gems certain \(new: RD1, RD2, RD3\); deals still possible: "
                   rf"about {POWER}",
        "most": "Told the most: “How many red diamonds does B hold?”, asked by Ada "
                "(answer: 3).",
        "nothing_new": "told nothing new",
        "players": ["Ada: 2 safe tips; 1 guess (1 right, 0 wrong); 1 proved gem not tipped "
                    "(1 point missed).",
                    "Cruz: 1 safe tip; 1 guess (0 right, 1 wrong); 2 proved gems not tipped "
                    "(2 points missed)."],
        "bit": r"\bbits?\b", "never": "The answers never proved where any gem lay.",
    },
    "de": {
        "none_certain": "kein Stein sicher", "three_certain": "3 Steine sicher",
        "one_in": r"Zusammen ließen die Antworten dieser Runde nur eine von \d+ der "
                  r"Verteilungen übrig, die davor möglich waren\.",
        "round_2": rf"Runde 2: 3 Steine sicher \(neu: RD1, RD2, RD3\); noch mögliche "
                   rf"Verteilungen: etwa {POWER}",
        "most": "Am meisten verriet „Wie viele rote Diamanten hat B?“, gefragt von Ada "
                "(Antwort: 3).",
        "nothing_new": "verriet nichts Neues",
        "players": ["Ada: 2 sichere Tipps; 1 geratener Tipp (1 richtig, 0 falsch); "
                    "1 bewiesener Stein nicht getippt (1 Punkt verschenkt).",
                    "Cruz: 1 sicherer Tipp; 1 geratener Tipp (0 richtig, 1 falsch); "
                    "2 bewiesene Steine nicht getippt (2 Punkte verschenkt)."],
        "bit": r"\bBit\b", "never": "Die Antworten bewiesen für keinen Stein, wo er lag.",
    },
    "es": {
        "none_certain": "ninguna gema segura", "three_certain": "3 gemas seguras",
        "one_in": r"De los repartos posibles antes de esta ronda, sus respuestas juntas solo "
                  r"dejaron uno de cada \d+\.",
        "round_2": rf"Ronda 2: 3 gemas seguras \(nuevas: RD1, RD2, RD3\); repartos aún "
                   rf"posibles: alrededor de {POWER}",
        "most": "La que más reveló: «¿Cuántos diamantes rojos tiene B?», de Ada "
                "(respuesta: 3).",
        "nothing_new": "no reveló nada nuevo",
        "players": ["Ada: 2 apuestas seguras; 1 conjetura (1 acertada, 0 falladas); "
                    "1 gema probada sin apostar (1 punto perdido).",
                    "Cruz: 1 apuesta segura; 1 conjetura (0 acertadas, 1 fallada); "
                    "2 gemas probadas sin apostar (2 puntos perdidos)."],
        "bit": r"\bbits?\b",
        "never": "Las respuestas no llegaron a probar dónde estaba ninguna gema.",
    },
}


def story_page(signed_in, game, lang: str) -> str:
    """The story page as Ada reads it with the site set to ``lang``."""
    client = signed_in(READERS["en"][1])
    client.get(f"/lang/{lang}")
    response = client.get(f"/games/{game.id}/story")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def final_report(lang: str) -> OutboxMessage:
    """The final report mail of the player who reads ``lang``."""
    return db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_addr == READERS[lang][1],
        OutboxMessage.kind == "final_report")).one()


def flat(html: str) -> str:
    """The text of an HTML body on one line, as a reader sees it."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split()).replace(" :", ":")


def empty_tables(html: str) -> list[str]:
    """The ids of the tables with no row of data."""
    return [re.search(r'id="([^"]*)"', t).group(1) if 'id="' in t else t[:40]
            for t in re.findall(r"<table.*?</table>", html, re.S)
            if not re.search(r"<tbody>\s*<tr", t)]


@pytest.mark.parametrize("lang", SAYS)
def test_the_story_page_says_what_was_certain_and_how_many_deals_were_left(
        app, signed_in, lang):
    says = SAYS[lang]
    html = story_page(signed_in, ended_game(), lang)
    text = flat(html)
    assert not NEGATIVE_ZERO.search(html)
    rounds = re.findall(r'<h3 id="story-round-\d">.*?</h3>', html, re.S)
    assert says["none_certain"] in rounds[0] and says["three_certain"] in rounds[1]
    assert len(re.findall(says["one_in"], text)) == 3  # every round left one in so many
    assert says["most"] in text
    ben_again = re.findall(r"<li>Ben: .*?</li>", html, re.S)[1]  # round 2: asked again
    assert says["nothing_new"] in ben_again
    assert empty_tables(html) == []
    assert re.search(rf"{POWER}", re.search(r'<p id="story-start">.*?</p>', html, re.S)[0])


@pytest.mark.parametrize("lang", SAYS)
def test_the_story_page_keeps_bits_to_one_explained_detail(app, signed_in, lang):
    html = story_page(signed_in, ended_game(), lang)
    inside = re.search(r'<details class="paste" id="story-bits">.*?</details>', html, re.S)[0]
    outside = html.replace(inside, "")
    assert not re.search(SAYS[lang]["bit"], flat(outside)), "bits outside their detail"
    assert len(re.findall(r"2ⁿ", html)) == 1  # explained once
    assert re.search(r'<td class="num">\d+[.,]\d</td>', inside)  # the bits left, per round


@pytest.mark.parametrize("lang", SAYS)
def test_the_final_report_tells_the_story_in_words_in_text_and_html(app, lang):
    says = SAYS[lang]
    ended_game()
    mail = final_report(lang)
    text, html = mail.body_text, flat(mail.body_html)
    for body in (text, html):
        assert not NEGATIVE_ZERO.search(body)
        assert not re.search(r"\d+ / \d+-\d+ / \d+, \d+", body)  # the old "5 / 137-58 / 9, 9"
        assert len(re.findall(says["one_in"], body)) == 3
        assert says["most"] in body
        assert re.search(says["round_2"], body)
        for sentence in says["players"]:
            assert sentence in body
        assert len(re.findall(r"2ⁿ", body)) == 1
    assert empty_tables(mail.body_html) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_game_that_proved_nothing_says_so_and_shows_no_empty_table(app, signed_in, lang):
    game = nothing_proved_game()
    html = story_page(signed_in, game, lang)
    assert SAYS[lang]["never"] in html
    assert 'id="story-gems"' not in html and empty_tables(html) == []
    mail = final_report(lang)
    assert SAYS[lang]["never"] in mail.body_text and SAYS[lang]["never"] in mail.body_html
