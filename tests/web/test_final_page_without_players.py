"""The final report on the web when no active player was left (RULES.md 6)."""

from __future__ import annotations

import hashlib
import html

from vpsleuth.services import games, resolution


def test_withdrawn_players_read_the_final_report_with_the_reveal_and_no_winner(moonstone, ada):
    for player in moonstone.players:
        games.withdraw_player(player)
    resolution.resolve_round(moonstone)
    assert moonstone.state == "finished"
    secret = moonstone.secret
    page = html.unescape(ada.get(f"/games/{moonstone.id}/rounds/1").get_data(as_text=True))
    assert "Final report" in page
    assert "The game has ended. No player was left in the game, so nobody wins." in page
    assert "Winner:" not in page
    assert 'id="distribution"' in page and f'<code id="salt">{secret.salt}</code>' in page
    assert hashlib.sha256(f"{secret.salt}:{secret.distribution}".encode()).hexdigest() \
        == moonstone.commitment
    text = ada.get(f"/games/{moonstone.id}/rounds/1.txt").get_data(as_text=True)
    assert "nobody wins" in text and secret.salt in text
