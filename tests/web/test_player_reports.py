"""Round reports as pages and text, standings with a chart, and the final reveal."""

from __future__ import annotations

import hashlib
import html
import re
import xml.dom.minidom

import pytest

from vpsleuth.rules import Ruleset
from vpsleuth.services import games, reports, resolution, turns


@pytest.fixture
def played(moonstone):
    """Two resolved rounds with questions and tips."""
    ada, ben = games.find_player(moonstone, "Ada"), games.find_player(moonstone, "Ben")
    turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1, BP2", channel="web")
    turns.submit_turn(ben, "QUESTION G solitaire\nTIP C GO1", channel="email")
    resolution.resolve_round(moonstone)
    turns.submit_turn(ada, "TIP A RD1", channel="web")
    resolution.resolve_round(moonstone)
    return moonstone


@pytest.fixture
def finished(make_game):
    """A two-round game that has ended."""
    game = make_game("Short", rules=Ruleset(rounds=2, first_bonus_round=2))
    turns.submit_turn(games.find_player(game, "Ada"), "TIP A RD1\nQUESTION B red", channel="web")
    resolution.resolve_round(game)
    resolution.resolve_round(game)
    assert game.state == "finished"
    return game


def test_a_round_report_shows_questions_answers_scores_totals_and_ranks(played, ada):
    report = reports.build_report(played, 1)
    page = ada.get(f"/games/{played.id}/rounds/1").get_data(as_text=True)
    for q in report.questions:
        assert re.search(rf"<td>{q.asker}</td><td>{re.escape(q.text)}</td>"
                         rf'<td class="num"><strong>{q.answer}</strong>', page)
    for row in report.rows:
        tip = f"{row.tip_score:+d}" if row.submitted else "no turn"
        assert re.search(rf'<td class="num rank">{row.rank}</td>'
                         rf'<td class="name">{row.player}</td>\s*'
                         rf'<td class="num">(<span class="muted">)?{re.escape(tip)}', page)
    assert "Next deadline" in page and 'rel="prev"' not in page
    assert f'href="/games/{played.id}/rounds/2" rel="next"' in page


def test_the_text_report_is_the_zine_style_text_of_the_service(played, ada):
    response = ada.get(f"/games/{played.id}/rounds/2.txt")
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    expected = reports.render_text(reports.build_report(played, 2), "Europe/Berlin")
    assert response.get_data(as_text=True) == expected
    assert "VP-SLEUTH  Moonstone" in expected


def test_a_round_not_resolved_yet_is_not_found(played, ada):
    assert ada.get(f"/games/{played.id}/rounds/3").status_code == 404
    assert ada.get(f"/games/{played.id}/rounds/3.txt").status_code == 404


def test_the_standings_page_has_an_accessible_svg_chart_and_a_table(played, ada):
    page = ada.get(f"/games/{played.id}/standings").get_data(as_text=True)
    svg = re.search(r"<svg .*?</svg>", page, re.S).group(0)
    dom = xml.dom.minidom.parseString(svg)
    assert dom.documentElement.getAttribute("role") == "img"
    assert dom.getElementsByTagName("title")[0].firstChild.data == "Total points after each round"
    assert "Ada:" in dom.getElementsByTagName("desc")[0].firstChild.data
    series = [g.getAttribute("data-player") for g in dom.getElementsByTagName("g")
              if g.getAttribute("class") == "series"]
    assert sorted(series) == ["Ada", "Ben", "Cleo"]
    history = reports.build_report(played).history
    for name, totals in history.items():
        assert re.search(rf'<th scope="row" class="name">{name}</th>' + "".join(
            rf'<td class="num[^"]*">{t}</td>' for t in totals), page)


def test_the_final_report_reveals_the_distribution_salt_and_how_to_check_them(finished, ada):
    secret = finished.secret
    page = ada.get(f"/games/{finished.id}/rounds/2").get_data(as_text=True)
    assert "Final report" in page and f'<code id="salt">{secret.salt}</code>' in page
    command = f"printf '%s' '{secret.salt}:{secret.distribution}' | sha256sum"
    assert f'<pre id="check-command">{command}</pre>' in html.unescape(page)
    digest = hashlib.sha256(f"{secret.salt}:{secret.distribution}".encode()).hexdigest()
    assert digest == finished.commitment and finished.commitment in page
    placed_a = secret.distribution.split(";")[0].removeprefix("A=").split(",")
    row = re.search(r'<th scope="row">A</th><td>(.*?)</td>', page).group(1)
    assert re.findall(r'class="gem gem-.">(\w+)</span>', row) == placed_a


def test_the_verify_form_confirms_the_commitment_and_catches_a_changed_distribution(finished,
                                                                                      ada):
    secret = finished.secret
    query = {"distribution": secret.distribution, "salt": secret.salt,
             "commitment": finished.commitment}
    page = ada.get(f"/games/{finished.id}/verify", query_string=query).get_data(as_text=True)
    assert "It matches" in page
    a, b = secret.distribution.split(";")[:2]
    swapped = secret.distribution.replace(a, "A=" + b[2:]).replace(b, "B=" + a[2:], 1)
    query["distribution"] = swapped
    page = ada.get(f"/games/{finished.id}/verify", query_string=query).get_data(as_text=True)
    assert "It does not match" in page


def test_the_report_of_a_running_game_offers_no_reveal(played, ada):
    page = ada.get(f"/games/{played.id}/rounds/2").get_data(as_text=True)
    assert 'id="reveal"' not in page and "sha256sum" not in page
