"""Export, import and re-verification of whole games."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import RoundResult, StandingQuestion
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reports, resolution, transfer, turns
from vpsleuth.services.errors import Invalid


def played_game(now, rounds=3, finish=True):
    game = games.create_game("Exported", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(rounds=rounds, first_bonus_round=2))
    ada = games.add_player(game, "Ada", "ada@example.org")
    ben = games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, now=now, seed=11)
    for number in range(1, rounds + 1 if finish else rounds):
        turns.submit_turn(ada, "QUESTION A red\nTIP A RD1, BP2\nTIP X YO3", channel="email",
                          now=now)
        turns.submit_turn(ben, "FRAGE B Opal\nTIPP C RD1\n# Kommentar ÄÖÜ \x00", channel="web",
                          now=now) if number != 2 else None
        resolution.resolve_round(game, now=now, number=number)
    return game


def test_a_running_games_export_keeps_the_secret_unless_the_gm_asks(app, now):
    game = played_game(now, finish=False)
    public = json.dumps(transfer.export_game(game))
    assert game.secret.distribution not in public and game.secret.salt not in public
    assert '"correct"' not in public and '"wrong"' not in public
    private = transfer.export_game(game, with_secret=True)
    assert private["secret"]["salt"] == game.secret.salt
    assert "correct" in private["rounds"][0]["results"][0]


def test_a_finished_game_survives_export_and_import_and_still_verifies(app, now):
    game = played_game(now)
    data = json.loads(transfer.dumps(transfer.export_game(game)))
    copy = transfer.import_game(data, name="Imported")
    assert copy.id != game.id and copy.state == "finished"
    assert transfer.reverify(copy) == []
    original, imported = reports.build_report(game), reports.build_report(copy)
    assert imported.rows == original.rows and imported.questions == original.questions
    assert imported.distribution == original.distribution
    texts = [v["text"] for v in transfer.export_game(copy)["turn_versions"]]
    assert any("\x00" in t and "ÄÖÜ" in t for t in texts), "turn texts verbatim"


def test_reverify_finds_a_tampered_result_and_a_changed_secret(app, now):
    game = played_game(now)
    assert transfer.reverify(game) == []
    result = db.session.scalars(select(RoundResult).order_by(RoundResult.id)).first()
    result.tip_score += 1
    db.session.commit()
    found = transfer.reverify(game)
    assert [(m.round, m.what) for m in found] == [(1, "tip_score")]
    question = db.session.scalars(select(StandingQuestion)).first()
    question.answer = (question.answer or 0) + 5
    game.secret.salt = "0" * 32
    db.session.commit()
    assert [m.what for m in transfer.reverify(game)] == ["commitment"]


def test_import_refuses_foreign_data_a_missing_secret_and_a_taken_name(app, now):
    game = played_game(now, finish=False)
    with pytest.raises(Invalid, match="not a vpsleuth game export"):
        transfer.import_game({"format": "something else"})
    with pytest.raises(Invalid, match="no secret"):
        transfer.import_game(transfer.export_game(game))
    with pytest.raises(Invalid, match="exists already"):
        transfer.import_game(transfer.export_game(game, with_secret=True))


def test_the_cli_exports_imports_and_reverifies(app, runner, now, tmp_path):
    game = played_game(now)
    out = runner.invoke(args=["game", "export", str(game.id)])
    assert out.exit_code == 0, out.output
    path = tmp_path / "game.json"
    path.write_text(out.output)
    done = runner.invoke(args=["game", "import", str(path), "--name", "Copy"])
    assert done.exit_code == 0 and "Imported game" in done.output, done.output
    check = runner.invoke(args=["game", "reverify", "Copy"])
    assert check.exit_code == 0 and "all 3 resolved rounds agree" in check.output
    path.write_text("{not json")
    bad = runner.invoke(args=["game", "import", str(path)])
    assert bad.exit_code == 1 and "not JSON" in bad.output
