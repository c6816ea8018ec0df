"""The engine on games played by the service: the record read from the database
agrees with the game's own (secret) distribution, and ``vpsleuth analyse`` shows it."""

from __future__ import annotations

import json
import random
from datetime import timedelta

from vpsleuth.engine import possible_places
from vpsleuth.rules import GEMS, Distribution
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, resolution, turns
from vpsleuth.services.demo import random_turn
from vpsleuth.services.record import public_record


def played_game(now, rounds: int, seed: int = 7):
    game = games.create_game(f"Engine {seed}", weekly("2026-12-06 20:00", "Europe/Berlin"))
    players = [games.add_player(game, n, f"{n.lower()}@example.org") for n in ("Ada", "Ben")]
    games.start_game(game, now=now, seed=seed)
    dist = Distribution.from_canonical(game.secret.distribution)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        clock = now + timedelta(days=7 * (number - 1), hours=1)
        for p in players:
            turns.submit_turn(p, random_turn(rng, dist, 0.5), channel="cli", now=clock)
        resolution.resolve_round(game, now=clock)
    return game, dist


def test_the_public_record_of_a_played_game_agrees_with_its_deal(app, now):
    game, dist = played_game(now, rounds=3)
    record = public_record(game)
    assert len(record.rounds) == 3 and all(len(r) == 2 for r in record.rounds)
    assert {a.asked_by for a in record.answers()} == {"Ada", "Ben"}
    for a in record.answers():
        assert a.question.answer(dist) == a.answer
    assert record.rules == game.ruleset
    possible = possible_places(record.answers())
    assert all(dist[g] in possible[g] for g in GEMS)
    assert record.upto(1).rounds == record.rounds[:1]


def test_analyse_prints_json_for_a_round_and_refuses_unknown_games(app, now):
    game, dist = played_game(now, rounds=2, seed=11)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["analyse", str(game.id), "--round", "1", "--format", "json",
                                 "--samples", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["round"] == 1 and len(data["possible"]) == 36
    assert all(dist[g] in data["possible"][g.code] for g in GEMS)
    assert {"count", "exact", "bits", "chances", "relative_error", "certain"} <= set(data)
    for code, chances in data["chances"].items():
        assert abs(sum(chances.values()) - 1) < 1e-9, code
    text = runner.invoke(args=["analyse", game.name, "--samples", "20"])
    assert text.exit_code == 0 and "After round 2:" in text.output and "RD1" in text.output
    too_far = runner.invoke(args=["analyse", game.name, "--round", "3"])
    assert too_far.exit_code != 0 and "round 3 is not resolved" in too_far.output
    unknown = runner.invoke(args=["analyse", "no such game"])
    assert unknown.exit_code != 0 and "no game called" in unknown.output
