"""A sample game with random legal turns, resolved at once (``vpsleuth demo``).

Its players live at the reserved domain demo.invalid (RFC 2606), for which no mail
is ever queued (mail.notify.has_mailbox): a demo leaves nothing in the outbox waiting
to go to strangers, now or when the scheduler later resolves a round it left open.
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

from flask import current_app

from ..models import Game, utcnow
from ..orders import format_turn
from ..rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, Distribution, make_question
from ..rules.schedule import to_local, weekly
from . import games, resolution, turns

DEMO_DOMAIN = "demo.invalid"
DEMO_PLAYERS = [("Ada", "de"), ("Bertha", "en"), ("Clemens", "de"), ("Dora", "en"),
                ("Emil", "en"), ("Frieda", "de")]


def random_turn(rng: random.Random, distribution: Distribution, skill: float,
                lang: str = "en") -> str:
    """A legal turn: one question, and tips that are right with probability ``skill``."""
    first = rng.choice(ATTRIBUTES)
    others = [a for a in ATTRIBUTES if a.category != first.category]
    attrs = [first] + ([rng.choice(others)] if rng.random() < 0.6 else [])
    question = make_question(rng.choice(PLACEHOLDERS), attrs)
    tips = {}
    for gem in rng.sample(GEMS, rng.randint(0, len(GEMS))):
        right = distribution[gem]
        tips[gem] = right if rng.random() < skill else rng.choice(
            [loc for loc in LOCATIONS if loc != right])
    return format_turn(question, tips, lang)


def play_round(game: Game, number: int, rng: random.Random) -> None:
    """Every active player sends a random legal turn, better each round; then the
    round is resolved."""
    distribution = Distribution.from_canonical(game.secret.distribution)
    for i, player in enumerate(game.active_players):
        skill = min(0.97, 0.25 + 0.08 * number + 0.03 * i)
        text = random_turn(rng, distribution, skill, player.language)
        turns.submit_turn(player, text, channel="cli", entered_by="demo")
    resolution.resolve_round(game, actor="demo")


def sample_game(players: int, deal_seed: int | None) -> Game:
    """A started game of the first ``players`` demo players, its first deadline a week
    from now; the deal reproducible by ``deal_seed``."""
    now = utcnow()
    tz = current_app.config["DEFAULT_TIMEZONE"]
    first = to_local(now + timedelta(days=7), tz).replace(hour=20, minute=0, second=0,
                                                       microsecond=0, tzinfo=None)
    game = games.create_game(f"Demo {now:%Y-%m-%d %H:%M:%S} {uuid.uuid4().hex[:4]}",
                             weekly(first, tz), actor="demo")
    for who, lang in DEMO_PLAYERS[:players]:
        games.add_player(game, who, f"{who.lower()}@{DEMO_DOMAIN}", language=lang, actor="demo",
                         invite=False)
    games.start_game(game, seed=deal_seed, actor="demo")
    return game
