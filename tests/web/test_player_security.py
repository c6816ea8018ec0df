"""What no player page may reveal or allow: the secret, other turns, forged requests."""

from __future__ import annotations

import re

import pytest

from vpsleuth.services import games, resolution, turns


@pytest.fixture
def mid_game(moonstone):
    """Two resolved rounds and a third with turns standing."""
    ada, ben = games.find_player(moonstone, "Ada"), games.find_player(moonstone, "Ben")
    for _ in range(2):
        turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1, BP2\nTIP X YO3", channel="web")
        turns.submit_turn(ben, "QUESTION A red\nTIP C GO1, RP3", channel="email")
        resolution.resolve_round(moonstone)
    turns.submit_turn(ben, "TIP D YD2, GP2", channel="email")
    return moonstone


def every_page(game) -> list[str]:
    base = f"/games/{game.id}"
    return ["/", "/settings", base, f"{base}/turn", f"{base}/turn?prefill=last", f"{base}/sheet",
            f"{base}/rounds", f"{base}/rounds/1", f"{base}/rounds/2", f"{base}/rounds/1.txt",
            f"{base}/rounds/2.txt", f"{base}/standings", f"{base}/verify",
            f"{base}/feed.atom", f"{base}/calendar.ics"]


def test_no_page_of_a_running_game_shows_the_distribution_the_salt_or_right_tips(mid_game, ada):
    secret = mid_game.secret
    hands = secret.distribution.split(";")
    for path in every_page(mid_game):
        response = ada.get(path)
        assert response.status_code == 200, path
        page = response.get_data(as_text=True)
        assert secret.salt not in page, path
        for hand in hands:
            assert hand not in page, (path, "a whole hand")
            if not hand.startswith("X="):  # X's one gem is just a gem code
                assert hand.split("=")[1] not in page, (path, "a hand's five gems")
        assert not re.search(r"\b(correct|right tips?|wrong tips?)\b\s*[:=]?\s*\d", page), path


def test_a_player_sees_only_their_own_turn(mid_game, ada):
    page = ada.get(f"/games/{mid_game.id}/turn").get_data(as_text=True)
    assert "YD2" not in re.search(r'<section class="standing".*?</section>', page, re.S).group(0)
    assert 'name="tip-YD2" id="tip-YD2-none" value="" checked' in page


def test_the_form_only_ever_changes_the_viewers_own_turn(mid_game, ada):
    page = ada.get(f"/games/{mid_game.id}/turn").get_data(as_text=True)
    ben = games.find_player(mid_game, "Ben")
    before = turns.standing_turn(mid_game.open_round, ben)
    data = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
            "basis": re.search(r'name="basis" value="([^"]+)"', page).group(1),
            "round": "3", "action": "save", "tip-RD1": "G",
            "player_id": str(ben.id), "player": "Ben", "email": ben.email}
    assert ada.post(f"/games/{mid_game.id}/turn", data=data).status_code == 302
    assert turns.standing_turn(mid_game.open_round, ben) == before
    ada_tips = turns.standing_turn(mid_game.open_round, games.find_player(mid_game, "Ada")).tips
    assert {g.code: loc for g, loc in ada_tips.items()} == {"RD1": "G"}


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(mid_game, ada):
    assert ada.application.config.get("WTF_CSRF_ENABLED", True) is True
    page = ada.get(f"/games/{mid_game.id}/turn").get_data(as_text=True)
    basis = re.search(r'name="basis" value="([^"]+)"', page).group(1)
    data = {"basis": basis, "round": "3", "action": "save", "tip-RD1": "G"}
    assert ada.post(f"/games/{mid_game.id}/turn", data=data).status_code == 400
    ada_player = games.find_player(mid_game, "Ada")
    assert turns.standing_turn(mid_game.open_round, ada_player).is_empty
    ada_id = str(ada_player.id)
    assert ada.post("/settings", data={"action": "prefs", "player_id": ada_id,
                                       "language": "de"}).status_code == 400
    assert ada.post("/settings", data={"action": "token", "player_id": ada_id}).status_code == 400
