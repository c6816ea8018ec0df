"""A finished game shows its result wherever it is listed, and its turn tab no form."""

from __future__ import annotations

import html
import re

import pytest

from vpsleuth.extensions import db
from vpsleuth.rules import GEMS, Distribution, Ruleset
from vpsleuth.services import games, resolution, turns
from vpsleuth.services.outcome import ordinal


def plain(response) -> str:
    """The page's text without tags, entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(
        as_text=True))))


def tips(game, right: int, wrong: int = 0) -> str:
    """A turn with ``right`` right tips and ``wrong`` wrong ones (right +1, wrong -2)."""
    deal = Distribution.from_canonical(game.secret.distribution)
    lines = [f"TIP {deal[gem]} {gem.code}" for gem in GEMS[:right]]
    for gem in GEMS[right:right + wrong]:
        lines.append(f"TIP {'A' if deal[gem] != 'A' else 'B'} {gem.code}")
    return "\n".join(lines)


def play_out(game, scores: dict[str, tuple[int, int]]) -> None:
    """Every round of ``game`` with these (right, wrong) tips per player, to its end."""
    while game.state != "finished":
        for name, (right, wrong) in scores.items():
            player = games.find_player(game, name)
            if player.active and (right or wrong):
                turns.submit_turn(player, tips(game, right, wrong), channel="web")
        resolution.resolve_round(game)


def test_ordinals_in_three_languages():
    assert [ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    assert ordinal(2, "de") == "2." and ordinal(2, "es") == "2.º"


def test_the_home_page_shows_who_won_and_my_place(make_game, signed_in):
    game = make_game("Opal", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (10, 0), "Ben": (20, 0), "Cleo": (5, 0)})
    card = plain(signed_in("ada@example.org").get("/"))
    assert "Opal finished · won by Ben (20 points) · you: 2nd of 3, 10 points" in card
    assert "Final report" in card
    ben = plain(signed_in("ben@example.org").get("/"))
    assert "Opal finished · you won (20 points)" in ben and "won by" not in ben


def test_a_shared_win_and_a_shared_place_say_so(make_game, signed_in):
    game = make_game("Pearl", rules=Ruleset(rounds=1),
                     players={"Ada": "ada@example.org", "Ben": "ben@example.org",
                              "Cleo": "cleo@example.org", "Dora": "dora@example.org"})
    play_out(game, {"Ada": (9, 0), "Ben": (9, 0), "Cleo": (4, 0), "Dora": (4, 0)})
    cleo = plain(signed_in("cleo@example.org").get("/"))
    assert "won jointly by Ada and Ben (9 points each) · you: joint 3rd of 4, 4 points" in cleo
    ada = plain(signed_in("ada@example.org").get("/"))
    assert "won jointly by Ada and Ben (9 points each) · you: joint 1st of 4, 9 points" in ada


def test_a_withdrawn_player_sees_the_winner_and_their_own_points(make_game, signed_in):
    game = make_game("Garnet", rules=Ruleset(rounds=2))
    turns.submit_turn(games.find_player(game, "Cleo"), tips(game, 3, 1), channel="web")
    resolution.resolve_round(game)  # Cleo: +3 -2 = 1 point
    games.withdraw_player(games.find_player(game, "Cleo"))
    play_out(game, {"Ada": (7, 0), "Ben": (2, 0)})
    cleo = plain(signed_in("cleo@example.org").get("/"))
    assert "won by Ada (7 points) · you: withdrawn, 1 point" in cleo


def test_one_point_is_singular_and_a_game_nobody_finished_says_nobody_won(make_game,
                                                                        signed_in):
    game = make_game("Topaz", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (1, 0)})
    assert "won by Ada (1 point) " in plain(signed_in("ben@example.org").get("/"))
    empty = make_game("Beryl", rules=Ruleset(rounds=3))
    for p in empty.players:
        games.withdraw_player(p)
    resolution.resolve_round(empty)
    card = plain(signed_in("ada@example.org").get("/"))
    assert "Beryl finished · nobody won: no player was left in the game · you: withdrawn" \
        in card


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "Opal beendet · gewonnen hat Ben (20 Punkte) · du: Platz 2 von 3, 10 Punkte"),
    ("es", "Opal terminada · ha ganado Ben (20 puntos) · tú: puesto 2 de 3, 10 puntos"),
])
def test_the_result_in_german_and_spanish(make_game, signed_in, lang, expected):
    game = make_game("Opal", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (10, 0), "Ben": (20, 0), "Cleo": (1, 0)})
    ada = signed_in("ada@example.org")
    ada.get(f"/lang/{lang}")
    assert expected in plain(ada.get("/"))


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "gewonnen haben Ada und Ben (je 9 Punkte) · du: Platz 1 von 3 (geteilt), 9 Punkte"),
    ("es", "han ganado Ada y Ben, empatados a 9 puntos · tú: puesto 1 de 3 (compartido), "
           "9 puntos"),
])
def test_ties_in_german_and_spanish(make_game, signed_in, lang, expected):
    game = make_game("Jade", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (9, 0), "Ben": (9, 0), "Cleo": (1, 0)})
    ada = signed_in("ada@example.org")
    ada.get(f"/lang/{lang}")
    assert expected in plain(ada.get("/"))


def test_the_overview_shows_the_result_and_the_final_report(make_game, signed_in):
    game = make_game("Onyx", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (10, 0), "Ben": (20, 0), "Cleo": (1, 0)})
    response = signed_in("cleo@example.org").get(f"/games/{game.id}")
    assert "The game has ended. Won by Ben (20 points); you: 3rd of 3, 1 point. Final report" \
        in plain(response)
    assert f'href="/games/{game.id}/rounds/1"' in response.get_data(as_text=True)


def test_the_turn_tab_of_a_finished_game_shows_the_result_and_no_form(make_game, signed_in):
    game = make_game("Agate", rules=Ruleset(rounds=1))
    play_out(game, {"Ada": (10, 0), "Ben": (20, 0), "Cleo": (1, 0)})
    response = signed_in("ada@example.org").get(f"/games/{game.id}/turn")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "The game has ended; no more turns. Won by Ben (20 points); you: 2nd of 3, 10 points." \
        in plain(response)
    assert f'id="final-report-link" href="/games/{game.id}/rounds/1"' in page \
        or f'href="/games/{game.id}/rounds/1" id="final-report-link"' in page
    assert 'id="turn-form"' not in page and "Save turn" not in page
    assert 'type="submit"' not in page.split("<main>")[1].split("</main>")[0]


def test_the_gm_lists_and_board_show_the_winner(make_game, gm_account, gm_web):
    game = make_game("Amber", rules=Ruleset(rounds=1))
    game.game_master_id = gm_account.id
    db.session.commit()
    play_out(game, {"Ada": (10, 0), "Ben": (20, 0), "Cleo": (1, 0)})
    listing = plain(gm_web.get("/gm/"))
    assert "The game has ended. Won by Ben (20 points). Final report" in listing
    assert "you:" not in listing
    assert "Won by Ben (20 points)." in plain(gm_web.get(f"/gm/games/{game.id}/board"))


def test_a_gm_who_plays_sees_their_place_under_games_they_play_in(make_game, gm_web):
    game = make_game("Coral", rules=Ruleset(rounds=1),
                     players={"Ada": "ada@example.org", "Gina": "gm@example.org"})
    play_out(game, {"Ada": (10, 0), "Gina": (4, 0)})
    listing = plain(gm_web.get("/gm/"))
    assert "Coral finished · won by Ada (10 points) · you: 2nd of 2, 4 points" in listing
