"""The information sheet: every public answer by placeholder and attribute, own tips per round."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import RoundResult, StandingQuestion
from vpsleuth.services import games, resolution, turns


@pytest.fixture
def two_rounds(moonstone):
    """Round 1: Ada asks E blue, Ben asks A cluster diamond. Round 2: Ada asks E blue again."""
    ada, ben = games.find_player(moonstone, "Ada"), games.find_player(moonstone, "Ben")
    turns.submit_turn(ada, "QUESTION E blue\nTIP A RD1, BP2\nTIP X YO3", channel="web")
    turns.submit_turn(ben, "QUESTION A cluster diamond\nTIP C GO1", channel="email")
    resolution.resolve_round(moonstone)
    turns.submit_turn(ada, "QUESTION E blue\nTIP B RD1", channel="web")
    resolution.resolve_round(moonstone)
    turns.submit_turn(ada, "TIP G GP3", channel="web")
    return moonstone


def answers(round_number: int, game) -> dict[str, int]:
    rows = db.session.execute(select(StandingQuestion.question, StandingQuestion.answer)
                              .where(StandingQuestion.round_id == game.round(round_number).id))
    return dict(rows.all())


def cell(page: str, codes: str, placeholder: str) -> list[str]:
    """The words of one cell of the answers matrix: the row of ``codes``, the column of A-G."""
    row = re.search(rf'<tr[^>]*data-codes="{codes}">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    return re.sub(r"<[^>]+>", " ", cells["ABCDEFG".index(placeholder)]).split()


def test_the_matrix_lists_each_answer_with_round_and_asker(two_rounds, ada):
    page = ada.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    assert answers(1, two_rounds)["E:B"] == answers(2, two_rounds)["E:B"]
    assert cell(page, "B", "E") == [str(answers(1, two_rounds)["E:B"]), "R1", "Ada", "R2", "Ada"]
    assert cell(page, "B", "A") == [] and cell(page, "R", "E") == []


def test_the_matrix_has_a_column_per_placeholder_so_it_fits_a_phone(two_rounds, ada):
    page = ada.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    matrix = re.search(r'<table class="matrix".*?</table>', page, re.S).group(0)
    assert re.findall(r'<th scope="col" class="place">(\w)</th>', matrix) == list("ABCDEFG")


def test_an_asked_combination_gets_a_row_of_its_own(two_rounds, ada):
    page = ada.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    rows = re.findall(r'<tr( class="combo")? data-codes="(\w+)">\s*<th scope="row" class="attr">'
                      r'(?:<span class="swatch[^>]*></span>)?([^<]+)</th>', page)
    assert [label for _, _, label in rows][:10] == [
        "red gems", "blue gems", "green gems", "yellow gems", "diamonds", "pearls", "opals",
        "solitaires", "pairs", "clusters"]
    assert rows[10] == (' class="combo"', "3D", "cluster diamonds")
    assert cell(page, "3D", "A") == [str(answers(1, two_rounds)["A:3D"]), "R1", "Ben"]


@pytest.mark.parametrize(("lang", "labels"), [
    ("de", ["rote Steine", "blaue Steine", "grüne Steine", "gelbe Steine", "Diamanten",
            "Perlen", "Opale", "Einer", "Zweier", "Dreier", "Dreier-Diamanten"]),
    ("es", ["gemas rojas", "gemas azules", "gemas verdes", "gemas amarillas", "diamantes",
            "perlas", "ópalos", "solitarios", "parejas", "grupos", "diamantes en grupo"]),
])
def test_the_rows_say_what_they_count_as_the_reports_questions_do(two_rounds, ada, lang,
                                                                   labels):
    ada.get(f"/lang/{lang}")
    page = ada.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    rows = re.findall(r'<tr(?: class="combo")? data-codes="\w+">\s*<th scope="row" '
                      r'class="attr">(?:<span class="swatch[^>]*></span>)?([^<]+)</th>', page)
    assert rows == labels


def test_own_tips_are_shown_per_round_with_each_rounds_tip_score_only(two_rounds, ada):
    page = ada.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    table = re.search(r'<table class="my-tips".*?</table>', page, re.S).group(0)
    heads = re.findall(r'<th scope="col" class="loc">(.*?)</th>', table)
    assert [re.sub(r"<[^>]+>", "", h) for h in heads] == ["R1", "R2", "now"]
    rd1 = re.search(r'RD1</span>.*?</tr>', table, re.S).group(0)
    assert re.findall(r'<td class="num loc">([^<]*)</td>', rd1) == ["A", "B", ""]
    gp3 = re.search(r'GP3</span>.*?</tr>', table, re.S).group(0)
    assert re.findall(r'<td class="num loc">([^<]*)</td>', gp3) == ["", "", "G"]
    ada_id = games.find_player(two_rounds, "Ada").id
    scores = [db.session.scalar(select(RoundResult.tip_score).where(
        RoundResult.round_id == two_rounds.round(n).id, RoundResult.player_id == ada_id))
        for n in (1, 2)]
    footer = re.search(r'<tr id="tip-scores">(.*?)</tr>', table, re.S).group(1)
    assert [f"{s:+d}" for s in scores] == re.findall(r'<td class="num">([+-]\d+)</td>', footer)


def test_the_sheet_shows_no_other_players_tips(two_rounds, signed_in):
    ben = signed_in("ben@example.org")
    page = ben.get(f"/games/{two_rounds.id}/sheet").get_data(as_text=True)
    table = re.search(r'<table class="my-tips".*?</table>', page, re.S).group(0)
    rd1 = re.search(r'RD1</span>.*?</tr>', table, re.S).group(0)
    assert re.findall(r'<td class="num loc">([^<]*)</td>', rd1) == ["", "", ""]
    go1 = re.search(r'GO1</span>.*?</tr>', table, re.S).group(0)
    assert re.findall(r'<td class="num loc">([^<]*)</td>', go1) == ["C", "", ""]


def test_before_any_resolution_the_sheet_says_no_round_is_resolved(moonstone, ada):
    page = ada.get(f"/games/{moonstone.id}/sheet").get_data(as_text=True)
    assert 'id="no-answers"' in page and "No round has been resolved yet." in page
