"""The GM's audit log says each action's details in words, in the GM's language:
never a Python repr or raw JSON."""

from __future__ import annotations

import html
import json
import re

from conftest import GM_EMAIL, gm_deadline

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, gm


def details(response) -> list[str]:
    """The Details cell of each row, newest first, as text."""
    page = response.get_data(as_text=True)
    cells = re.findall(r'<div class="details">(.*?)</div>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", " | ", c)).replace(" |  | ", " | ").strip(" |")
            for c in cells]


def no_code(cells: list[str]) -> None:
    for cell in cells:
        assert "Ruleset(" not in cell and "{" not in cell and '"' not in cell, cell
        assert "True" not in cell and "False" not in cell and "+00:00" not in cell, cell


def test_house_rules_and_moves_are_said_in_words(gm_web, gm_account, gm_later):
    game = games.create_game("Ruby", weekly(gm_deadline(), "Europe/Berlin"),
                             Ruleset(rounds=6, points_wrong=-3, early_resolution=True),
                             actor=GM_EMAIL, game_master_id=gm_account.id, deduction_aid=True)
    games.add_player(game, "Ada", "ada@example.org", actor=GM_EMAIL)
    games.start_game(game, seed=3, actor=GM_EMAIL)
    assert gm_web.post(f"/gm/games/{game.id}/deadline",
                       {"deadline": gm_later(20)}).status_code == 302
    cells = details(gm_web.get(f"/gm/games/{game.id}/audit"))
    no_code(cells)
    created = cells[-1]
    assert created.startswith("6 rounds | right +1, wrong −3 | bonus 3, 2, 1 from round 5 | "
                              "the round closes as soon as everyone has sent a turn | "
                              "deadlines: every 7 days at "), created
    assert created.endswith("after an early close: the next deadline keeps the calendar | "
                            "deduction aid: on | a missed turn: no turn, no tips")
    assert cells[-2] == "Ada <ada@example.org>"
    assert cells[-3].startswith("first deadline: ")
    assert re.fullmatch(r"round 1: from \w{3} \d+ \w{3} \d{4}, \d\d:\d\d CE[S]?T to "
                        r"\w{3} \d+ \w{3} \d{4}, \d\d:\d\d CE[S]?T", cells[0]), cells[0]


def test_an_old_entry_with_the_rulesets_repr_is_said_in_words_in_german(gm_web,
                                                                      gm_running_game):
    db.session.add(AuditEntry(game_id=gm_running_game.id, actor=GM_EMAIL, action="create_game",
                              detail=json.dumps({
                                  "rules": "Ruleset(rounds=6, first_bonus_round=4, "
                                           "bonuses=(3, 2, 1), points_right=1, "
                                           "points_wrong=-2, early_resolution=False)",
                                  "schedule": {"kind": "weekly", "timezone": "Europe/Berlin",
                                               "first": "2027-01-10T20:00:00",
                                               "every_days": 7}})))
    gm.pause_game(gm_running_game, actor=GM_EMAIL)
    gm.resume_game(gm_running_game, actor=GM_EMAIL)
    db.session.commit()
    gm_web.get("/lang/de")
    cells = details(gm_web.get(f"/gm/games/{gm_running_game.id}/audit"))
    no_code(cells)
    assert cells[0].startswith("0 Minuten lang angehalten | neuer Abgabetermin: ")
    assert cells[2].startswith("6 Runden | richtig +1, falsch −2 | Bonus 3, 2, 1 ab Runde 4 | "
                               "die Runde endet zum Abgabetermin | Abgabetermine: "), cells[2]
