"""A practice game read as a game: its name, its timing, the round a turn resolved, bots that play.

Everything through real HTTP (the Flask test client): the form, the turn page
and its redirect, the overview, the report.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest
from babel.dates import format_date
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, RoundResult, StandingQuestion, TurnVersion
from vpsleuth.rules import GEM_BY_CODE, Distribution, Question, Ruleset, score_tips
from vpsleuth.services import practice

RESOLVED_AT_ONCE = {"en": "The round is resolved as soon as you send your turn.",
                    "de": "Die Runde wird ausgewertet, sobald du deinen Zug schickst.",
                    "es": "La ronda se resuelve en cuanto envíes tu turno."}
NAMES = {"en": "Practice with Ada, Babbage and Clue, {day}",
         "de": "Übungspartie mit Ada, Babbage und Clue vom {day}",
         "es": "Práctica con Ada, Babbage y Clue del {day}"}
LOCALES = {"en": "en_GB", "de": "de_DE", "es": "es_ES"}
ROUND_RESOLVED = {"en": "Round 1 is resolved", "de": "Runde 1 ist ausgewertet",
                  "es": "Ronda 1 resuelta"}


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(response.get_data(as_text=True)))
                    .split())


def start(client, lang: str = "en") -> Game:
    """Start a practice game from the form, as a player does, in ``lang``."""
    client.get(f"/lang/{lang}")
    response = client.post("/practice", data={"bots": "3", "level": "medium", "name": "Zoe"})
    assert response.status_code == 302, words(response)
    return db.session.scalars(select(Game).where(Game.practice).order_by(Game.id.desc())).first()


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_a_practice_game_is_named_after_its_bots_and_the_day(gm_web_as, gm_setup_game, lang):
    ada = gm_web_as("ada@example.org")
    day = format_date(datetime.now(UTC), "medium", locale=LOCALES[lang])
    first, second = start(ada, lang), start(ada, lang)
    assert first.name == NAMES[lang].format(day=day)
    assert second.name == NAMES[lang].format(day=day) + " (2)"  # names are unique
    assert first.name in words(ada.get("/"))


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_practice_pages_say_the_round_is_resolved_by_your_turn_not_a_deadline(
        gm_web_as, gm_setup_game, lang):
    ada = gm_web_as("ada@example.org")
    game = start(ada, lang)
    deadline_words = {"en": "Deadline", "de": "Abgabetermin", "es": "Plazo"}[lang]
    for path in (f"/games/{game.id}/turn", f"/games/{game.id}", "/"):
        page = words(ada.get(path))
        assert RESOLVED_AT_ONCE[lang] in page, path
        assert f"{deadline_words}:" not in page, path
    overview = words(ada.get(f"/games/{game.id}"))
    assert "closes as soon as everyone" not in overview
    assert "After an early close" not in overview
    assert 'id="calendar-link"' not in ada.get(f"/games/{game.id}").get_data(as_text=True)
    ada.get("/lang/en")
    ada.post(f"/games/{game.id}/turn", data={"action": "text", "round": "1",
                                            "text": "QUESTION C red"})
    assert "Next deadline" not in words(ada.get(f"/games/{game.id}/rounds/1"))


def test_an_ordinary_game_still_shows_its_deadline(gm_web_as, gm_running_game):
    page = words(gm_web_as("ada@example.org").get(f"/games/{gm_running_game.id}/turn"))
    assert "Deadline:" in page and RESOLVED_AT_ONCE["en"] not in page


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_after_a_practice_turn_the_page_shows_the_round_it_resolved(gm_web_as, gm_setup_game,
                                                                    lang):
    ada = gm_web_as("ada@example.org")
    game = start(ada, lang)
    saved = ada.post(f"/games/{game.id}/turn", data={
        "action": "text", "round": "1", "text": "QUESTION A blue\nTIP X RD1, A BD1"})
    assert saved.status_code == 303
    assert saved.headers["Location"].endswith(f"/games/{game.id}/turn?after=1#just-resolved")
    db.session.rollback()
    game = db.session.get(Game, game.id)
    deal = Distribution.from_canonical(game.secret.distribution)
    answer = Question.from_codes("A:B").answer(deal)
    you = practice.human_of(game)
    tips = {GEM_BY_CODE["RD1"]: "X", GEM_BY_CODE["BD1"]: "A"}
    points = score_tips(tips, deal, Ruleset()).score
    page = ada.get(saved.headers["Location"])
    text = words(page)
    assert ROUND_RESOLVED[lang] in text
    asked = {"en": "How many blue gems does A hold?", "de": "Wie viele blaue Steine hat A?",
             "es": "¿Cuántas gemas azules tiene A?"}[lang]
    assert f"{asked} " in text
    assert re.search(r'id="your-answer">.*<strong>[^<]*: ' + str(answer) + "</strong>",
                     page.get_data(as_text=True))
    mine = db.session.scalar(select(RoundResult).where(
        RoundResult.player_id == you.id, RoundResult.round_id == game.round(1).id))
    assert mine.tip_score == points
    assert re.search(r'id="your-points">[^<]*<strong>' + re.escape(f"{points:+d}") + "</strong>",
                     page.get_data(as_text=True))
    assert f'href="/games/{game.id}/rounds/1"' in page.get_data(as_text=True)
    for bot in ("Ada", "Babbage", "Clue"):
        assert f"{bot} (" in text  # the bots' questions and standings, marked as bots
    assert "RD1" not in text.split(ROUND_RESOLVED[lang])[1].split("Zoe")[0]  # sums only
    # The form below is the next round's, ready for the next turn.
    assert 'name="round" value="2"' in page.get_data(as_text=True)
    assert ROUND_RESOLVED[lang] not in words(ada.get(f"/games/{game.id}/turn"))


def test_the_round_resolved_is_shown_only_for_a_round_that_is(gm_web_as, gm_setup_game):
    ada = gm_web_as("ada@example.org")
    game = start(ada)
    page = ada.get(f"/games/{game.id}/turn?after=5")
    assert page.status_code == 200 and 'id="just-resolved"' not in page.get_data(as_text=True)


QUESTIONS = ("A red", "B blue", "C green", "D yellow", "E diamond", "F pearl", "G opal",
             "A solitaire", "B pair", "C cluster", "D red pearl", "E blue opal")


def default_level(client) -> str:
    form = client.get("/practice").get_data(as_text=True)
    return re.search(r'<option value="(\w+)" selected>', form).group(1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_practice_game_at_the_default_level_has_bots_that_tip_and_score(
        gm_web_as, gm_setup_game, seed):
    ada = gm_web_as("ada@example.org")
    level = default_level(ada)
    game = practice.create_practice("ada@example.org", name="Zoe", bots=3, level=level,
                                    seed=seed)
    game_id = game.id
    for number, question in enumerate(QUESTIONS, start=1):
        saved = ada.post(f"/games/{game_id}/turn", data={
            "action": "text", "round": str(number), "text": f"QUESTION {question}"})
        assert saved.status_code == 303, words(saved)
    last = words(ada.get(saved.headers["Location"]))
    assert "Round 12 is resolved" in last and "The game has ended" in last
    db.session.rollback()
    game = db.session.get(Game, game_id)
    assert game.state == "finished" and len(game.rounds_) == 12
    bots = [p for p in game.players if p.is_bot]
    texts = db.session.scalars(select(TurnVersion.text).where(
        TurnVersion.player_id.in_([b.id for b in bots]), TurnVersion.status == "accepted")).all()
    assert any("\nTIP " in t for t in texts), "no bot placed a tip in 12 rounds"
    totals = [r.total for r in db.session.scalars(select(RoundResult).where(
        RoundResult.round_id == game.round(12).id, RoundResult.player_id.in_(
            [b.id for b in bots])))]
    assert any(totals), totals
    for round_ in game.rounds_:
        asked = db.session.scalars(select(StandingQuestion.question).where(
            StandingQuestion.round_id == round_.id,
            StandingQuestion.player_id.in_([b.id for b in bots]))).all()
        assert len(asked) == 3 and len(set(asked)) == 3, (round_.number, asked)
