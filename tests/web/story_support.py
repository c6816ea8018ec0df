"""A finished game to tell afterwards, for the story's page, mail and browser tests.

Three players reading English, German and Spanish. Round 1 proves nothing; in
round 2 Ada's question proves the red diamonds at B and tells the most, while
Ben asks again what round 1 answered (nothing new: the "-0.00" of old); in
round 3 Cruz tips one proved gem and Ada two.
"""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, GameMaster
from vpsleuth.rules import GEMS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, resolution, stories, turns

GM = "gm@example.org"
READERS = {"en": ("Ada", "ada@example.org"), "de": ("Ben", "ben@example.org"),
           "es": ("Cruz", "cruz@example.org")}


def crafted_deal() -> Distribution:
    """B holds the three red diamonds; the rest fills up in sheet order."""
    fixed = {"RD1": "B", "RD2": "B", "RD3": "B"}
    free = iter(loc for loc, n in [("A", 5), ("B", 2), ("C", 5), ("D", 5), ("E", 5),
                                   ("F", 5), ("G", 5), ("X", 1)] for _ in range(n))
    return Distribution({g: fixed.get(g.code) or next(free) for g in GEMS})


def play(game: Game, number: int, turns_of: dict[str, str]) -> None:
    """Each named player sends a turn, then round ``number`` is resolved."""
    for name, text in turns_of.items():
        turns.submit_turn(games.find_player(game, name), text, channel="web")
    resolution.resolve_round(game, number=number, actor=GM)


def new_game(name: str, rounds: int) -> Game:
    """A started game of the three readers, with the crafted deal."""
    gm = (db.session.scalar(select(GameMaster).where(GameMaster.email == GM))
          or accounts.create_game_master(GM, "Grace"))
    game = games.create_game(name, weekly("2031-01-05 20:00", "UTC"), Ruleset(rounds=rounds),
                             actor=GM, game_master_id=gm.id)
    for lang, (player, email) in READERS.items():
        games.add_player(game, player, email, language=lang, actor=GM)
    games.start_game(game, seed=1, actor=GM)
    game.secret.distribution = crafted_deal().canonical()
    db.session.commit()
    return game


def ended_game() -> Game:
    """The three rounds above, the game ended and its story told by the job."""
    game = new_game("Told in words", 3)
    play(game, 1, {"Ben": "QUESTION C yellow", "Cruz": "QUESTION A blue\nTIP A RD1"})
    play(game, 2, {"Ada": "QUESTION B red diamond\nTIP B RD1", "Ben": "QUESTION C yellow"})
    play(game, 3, {"Ada": "TIP B RD1, RD2", "Cruz": "QUESTION D pearl\nTIP B RD1"})
    assert game.state == "finished"
    assert stories.tell_queued() == [game.id]
    return game


def nothing_proved_game() -> Game:
    """One round with one weak question: the game ends with no gem proved."""
    game = new_game("Nothing proved", 1)
    play(game, 1, {"Ada": "QUESTION C yellow"})
    assert game.state == "finished"
    assert stories.tell_queued() == [game.id]
    return game
