"""No API answer reveals the deal or which tips were right before the game ends."""

from __future__ import annotations

from vpsleuth.rules import GEMS, Distribution, verify_commitment
from vpsleuth.services import accounts

from .helpers import all_keys, dumped, make_game


def every_read(api, cast, game_id: int, rounds: int) -> None:
    """Every GET a player or the GM can make, except the GM's explicit look at the secret."""
    for who in ("ada", "ben", "gm"):
        for path in ("/me", "/games", f"/games/{game_id}", f"/games/{game_id}/rounds",
                     f"/games/{game_id}/standings"):
            assert api.get(path, cast[who]).status_code == 200
        for number in range(1, rounds + 1):
            for lang in ("en", "de"):
                url = f"/games/{game_id}/rounds/{number}/report?lang={lang}"
                assert api.get(url, cast[who]).status_code == 200
    for who in ("ada", "ben"):
        api.get(f"/games/{game_id}/turn", cast[who])
    for path in ("status", "audit"):
        assert api.get(f"/games/{game_id}/{path}", cast["gm"]).status_code == 200


def assert_no_secret(seen: list, distribution: str, salt: str) -> None:
    text = dumped(seen)
    assert distribution not in text
    assert salt not in text
    assert {"correct", "wrong"} & all_keys(seen) == set()
    for part in distribution.split(";"):  # not even one placeholder's gems
        assert part not in text


def test_no_answer_of_a_running_game_reveals_the_deal_salt_or_tip_correctness(api, cast):
    game = cast.game
    secret = game.secret
    dealt = Distribution.from_canonical(secret.distribution)
    right = {gem.code: dealt[gem] for gem in GEMS[:6]}
    url = f"/games/{game.id}/turn"
    assert api.put(url, cast["ada"], {"tips": right, "question": {
        "placeholder": "A", "attributes": ["R"]}}).status_code == 200
    wrong = {code: ("B" if loc == "A" else "A") for code, loc in right.items()}
    assert api.put(url, cast["ben"], {"tips": wrong}).status_code == 200
    api.post(f"/games/{game.id}/resolve", cast["gm"], {"round": 1})
    api.put(url, cast["ada"], {"repeat": True})
    api.post(f"/games/{game.id}/resolve", cast["gm"], {"round": 2})
    every_read(api, cast, game.id, rounds=2)
    assert game.state == "running"
    assert len(api.seen) >= 30
    assert_no_secret(api.seen, secret.distribution, secret.salt)
    standings = api.get(f"/games/{game.id}/standings", cast["ada"]).get_json()
    assert [(r["player"], r["total"]) for r in standings["rows"]] == [("Ada", 12), ("Ben", -12)]


def test_the_final_report_reveals_the_distribution_and_salt(api, cast):
    game = make_game("Short", cast.game.game_master_id, [("Ada", "ada@example.org")],
                     rounds=1)
    _, raw = accounts.issue_api_token(player=game.players[0])
    api.put(f"/games/{game.id}/turn", raw, {"tips": {"RD1": "A"}})
    before = api.get(f"/games/{game.id}", raw)
    assert game.secret.salt not in before.get_data(as_text=True)
    api.post(f"/games/{game.id}/resolve", cast["gm"], {"round": 1})
    report = api.get(f"/games/{game.id}/rounds/1/report", raw).get_json()
    assert report["final"] is True
    assert report["distribution"] == game.secret.distribution
    assert report["salt"] == game.secret.salt
    assert report["winners"] == ["Ada"]
    assert verify_commitment(report["distribution"], report["salt"], report["commitment"])
