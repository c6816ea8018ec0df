"""``vpsleuth demo``: a sample game with random legal turns, resolved at once.

Its players live at the reserved domain demo.invalid (RFC 2606), for which no mail
is ever queued (mail.notify.has_mailbox): a demo leaves nothing in the outbox waiting
to go to strangers, now or when the scheduler later resolves a round it left open.
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import click
from flask import current_app

from .models import utcnow
from .orders import format_turn
from .rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, Distribution, make_question
from .schedule import to_local, weekly
from .services import games, reports, resolution, turns

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


@click.command("demo")
@click.option("--players", type=click.IntRange(2, len(DEMO_PLAYERS)), default=4,
              show_default=True)
@click.option("--rounds", type=click.IntRange(1, 12), default=12, show_default=True,
              help="How many rounds to resolve now.")
@click.option("--seed", type=int, help="Make the demo reproducible.")
@click.option("--all-reports", is_flag=True, help="Print every round's report, not just the last.")
def demo(players, rounds, seed, all_reports):
    """Set up a sample game, play random legal turns and print real reports."""
    from .cli import ensure_schema

    ensure_schema()
    rng = random.Random(seed)
    game = _sample_game(players, None if seed is None else rng.randrange(2**32))
    distribution = Distribution.from_canonical(game.secret.distribution)
    for number in range(1, rounds + 1):
        for i, player in enumerate(game.active_players):
            skill = min(0.97, 0.25 + 0.08 * number + 0.03 * i)
            text = random_turn(rng, distribution, skill, player.language)
            turns.submit_turn(player, text, channel="cli", entered_by="demo")
        resolution.resolve_round(game, actor="demo")
        if all_reports or number == rounds or game.state == "finished":
            click.echo(reports.render_text(reports.build_report(game, number), game.timezone))
        if game.state == "finished":
            break
    click.echo(f"Demo game {game.id} {game.name!r} is in the database; try "
               f"'vpsleuth game report {game.id} --round 1'.")


def _sample_game(players: int, deal_seed: int | None):
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
