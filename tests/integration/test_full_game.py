"""A whole 12-round game through the services, on SQLite and PostgreSQL.

Expected results are worked out here from the turns' construction (how many
tips each player placed right and wrong), not by calling the rules core.
"""

from __future__ import annotations

from datetime import timedelta

from vpsleuth.rules import GEMS, LOCATIONS, Distribution, verify_commitment
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reports, resolution, turns

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]


def plan(number: int) -> dict[str, tuple[int, int] | None]:
    """(right tips, wrong tips) per player in a round; None: no turn at all."""
    return {
        "Ada": (3 * number, 0),
        "Ben": (2 * number, 1),
        "Cleo": (2 * number, 0),
        "Dan": (number, 2) if number % 2 == 0 else None,
    }


def expected_bonus(number: int) -> dict[str, int]:
    # From round 5 the counts are Ada 3n > Ben = Cleo 2n > Dan n (even rounds) or 0.
    if number < 5:
        return dict.fromkeys(PLAYERS, 0)
    return {"Ada": 3, "Ben": 2, "Cleo": 2, "Dan": 1 if number % 2 == 0 else 0}


def turn_text(dist: Distribution, right: int, wrong: int, asker: int, number: int) -> str:
    gems = sorted(GEMS, key=lambda g: g.code)
    lines = [f"QUESTION {'ABCDEFG'[(asker + number) % 7]} {['red', 'opal', 'pair'][number % 3]}"]
    for gem in gems[:right]:
        lines.append(f"TIP {dist[gem]} {gem.code}")
    for gem in gems[right:right + wrong]:
        wrong_place = next(loc for loc in LOCATIONS if loc != dist[gem])
        lines.append(f"TIP {wrong_place} {gem.name('de')}")
    return "\n".join(lines)


def test_a_twelve_round_game_scores_every_round_as_the_rules_say(app, now):
    game = games.create_game("Full game", weekly("2026-12-06 20:00", "Europe/Berlin"))
    players = {n: games.add_player(game, n, f"{n.lower()}@example.org") for n in PLAYERS}
    games.start_game(game, now=now, seed=2026)
    dist = Distribution.from_canonical(game.secret.distribution)
    totals = dict.fromkeys(PLAYERS, 0)

    for number in range(1, 13):
        clock = now + timedelta(days=7 * (number - 1), hours=1)
        assert game.open_round.number == number
        for i, (name, spec) in enumerate(plan(number).items()):
            if spec is not None:
                turns.submit_turn(players[name], turn_text(dist, *spec, i, number),
                                  channel="cli", now=clock)
        assert resolution.resolve_round(game, now=clock) is not None
        report = reports.build_report(game, number)
        rows = {row.player: row for row in report.rows}
        for name, spec in plan(number).items():
            right, wrong = spec or (0, 0)
            tip_score = right - 2 * wrong
            bonus = expected_bonus(number)[name]
            totals[name] += tip_score + bonus
            assert (rows[name].tip_score, rows[name].bonus) == (tip_score, bonus), (number, name)
            assert rows[name].points == tip_score + bonus
            assert rows[name].total == totals[name]
            assert rows[name].submitted is (spec is not None)
        ranking = sorted(totals.values(), reverse=True)
        assert {n: rows[n].rank for n in PLAYERS} == {
            n: ranking.index(t) + 1 for n, t in totals.items()}
        for q in report.questions:
            place, attrs = q.placeholder, q.attributes
            assert q.answer == sum(1 for g in dist.holding(place)
                                   if all(a in g.code for a in attrs))
        assert len(report.questions) == sum(1 for s in plan(number).values() if s)
        assert report.history["Ada"][-1] == totals["Ada"]

    assert game.state == "finished"
    assert game.open_round is None
    final = reports.build_report(game)
    assert final.final and final.winners == ["Ada"]
    assert verify_commitment(final.distribution, final.salt, game.commitment)
    assert reports.build_report(game, 11).distribution is None


def test_the_game_ends_early_once_every_active_player_has_located_all_gems(app, now):
    game = games.create_game("Early end", weekly("2026-12-06 20:00", "Europe/Berlin"))
    ada = games.add_player(game, "Ada", "ada@example.org")
    ben = games.add_player(game, "Ben", "ben@example.org")
    quitter = games.add_player(game, "Quitter", "q@example.org")
    games.start_game(game, now=now, seed=5)
    dist = Distribution.from_canonical(game.secret.distribution)
    everything = "\n".join(f"TIP {dist[g]} {g.code}" for g in GEMS)

    turns.submit_turn(ada, everything, channel="cli", now=now)
    resolution.resolve_round(game, now=now)
    assert game.state == "running", "Ben has not solved it yet"

    games.withdraw_player(quitter)
    for player in (ada, ben):
        turns.submit_turn(player, everything, channel="cli", now=now)
    resolution.resolve_round(game, now=now)
    assert game.state == "finished"
    report = reports.build_report(game)
    assert {r.player: r.tip_score for r in report.rows} == {"Ada": 36, "Ben": 36}
    assert report.final and sorted(report.winners) == ["Ada"]
    assert report.rows[0].total == 72


def test_house_rules_change_points_and_the_first_bonus_round(app, now):
    from vpsleuth.rules import Ruleset

    rules = Ruleset(rounds=3, first_bonus_round=2, bonuses=(5, 1), points_right=2,
                    points_wrong=-1)
    game = games.create_game("House", weekly("2026-12-06 20:00", "UTC"), rules)
    ada = games.add_player(game, "Ada", "ada@example.org")
    ben = games.add_player(game, "Ben", "ben@example.org")
    games.start_game(game, now=now, seed=9)
    dist = Distribution.from_canonical(game.secret.distribution)
    for number in (1, 2, 3):
        turns.submit_turn(ada, turn_text(dist, 4, 1, 0, number), channel="cli", now=now)
        turns.submit_turn(ben, turn_text(dist, 2, 3, 1, number), channel="cli", now=now)
        resolution.resolve_round(game, now=now)
        rows = {r.player: r for r in reports.build_report(game, number).rows}
        assert rows["Ada"].tip_score == 4 * 2 - 1 and rows["Ben"].tip_score == 2 * 2 - 3
        assert (rows["Ada"].bonus, rows["Ben"].bonus) == ((5, 1) if number >= 2 else (0, 0))
    assert game.state == "finished", "three rounds by house rule"
    assert reports.build_report(game).rows[0].total == 3 * 7 + 5 + 5
