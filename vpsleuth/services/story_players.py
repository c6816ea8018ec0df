"""The players' part of the game told afterwards: tips measured against what was proved.

Tips are secret while a game runs (RULES.md section 4): only its GM, or
everyone after the end, may read this. A tip of round ``n`` was placed before
round ``n``'s deadline, when the record held the answers of rounds 1 to n-1.
"""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models import Game, Player, Round, StandingTip
from ..rules import GEM_BY_CODE, Distribution, Gem
from .reports import resolved_rounds


def players_story(game: Game, told: dict) -> list[dict]:
    """Per player: safe tips (proved when placed), guesses, points left on the table.

    ``told``: the record's story (story.record_story), whose gems say when each was proved.

    * ``safe_tips``: tips at the one place the record had left for the gem;
    * ``guesses``: every other tip, split by the revealed deal into right and wrong;
    * ``left_on_table``: gems the record had proved before a round's deadline
      that the player did not tip right that round, and ``points_left``, their
      worth at the game's points per right tip.
    """
    truth = (Distribution.from_canonical(game.secret.distribution)
             if game.secret is not None else None)
    proved = {r.number: _proved_before(told, r.number) for r in resolved_rounds(game)}
    out = []
    for player in game.players:
        counts = {"safe_tips": 0, "guesses": 0, "right_guesses": 0, "wrong_guesses": 0,
                  "left_on_table": 0}
        for round_ in resolved_rounds(game):
            if not _played(player, round_):
                continue
            tips = _tips(player, round_)
            known = proved[round_.number]
            for gem, place in tips.items():
                if known.get(gem) == place:
                    counts["safe_tips"] += 1
                    continue
                counts["guesses"] += 1
                if truth is not None:
                    counts["right_guesses" if truth[gem] == place else "wrong_guesses"] += 1
            counts["left_on_table"] += sum(1 for gem, place in known.items()
                                           if tips.get(gem) != place)
        rules = game.ruleset
        out.append({"player": player.name, **counts,
                    "safe_points": counts["safe_tips"] * rules.points_right,
                    "guess_points": (counts["right_guesses"] * rules.points_right
                                     + counts["wrong_guesses"] * rules.points_wrong),
                    "points_left": counts["left_on_table"] * rules.points_right})
    return out


def _proved_before(told: dict, number: int) -> dict[Gem, str]:
    """The gems the story had proved before round ``number``'s deadline, and where."""
    return {GEM_BY_CODE[e["gem"]]: e["location"] for e in told["gems"]
            if e["certain_in_round"] is not None and e["certain_in_round"] < number}


def _played(player: Player, round_: Round) -> bool:
    """Whether the player was in the game during the round (invited before, not withdrawn)."""
    if round_.resolved_at is None:
        return False
    if player.withdrawn_at is not None and player.withdrawn_at <= round_.resolved_at:
        return False
    return player.joined_at is None or player.joined_at <= round_.resolved_at


def _tips(player: Player, round_: Round) -> dict[Gem, str]:
    rows = db.session.execute(select(StandingTip.gem, StandingTip.location).where(
        StandingTip.round_id == round_.id, StandingTip.player_id == player.id)).all()
    return {GEM_BY_CODE[gem]: location for gem, location in rows}
