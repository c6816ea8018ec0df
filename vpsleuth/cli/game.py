"""``vpsleuth game ...``: a GM creates, starts, watches, resolves and exports games
from the shell, through the same services as the web and mail entrances."""

from __future__ import annotations

import json
import sys
from datetime import timedelta

import click
from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..i18n.dates import deadline_text
from ..i18n.schedule_words import schedule_text
from ..models import MISSED_TURN_RULES, WEBHOOK_FORMATS, Game, utcnow
from ..notices import webhook as webhook_channel
from ..rules import Ruleset
from ..rules.schedule import parse_schedule_spec, to_local
from ..services import board, games, reports, resolution, standing_turns, transfer, webhooks
from .common import gm_command


@click.group("game")
def game_cli() -> None:
    """Create, start, list and watch games."""


@gm_command(game_cli, "create")
@click.argument("name")
@click.option("--first-deadline", help="Local time of round 1's deadline, 'YYYY-MM-DD HH:MM' "
              "(default: 20:00 seven days from now).")
@click.option("--timezone", help="IANA time zone of the deadlines, e.g. Europe/Berlin.")
@click.option("--every", default="7d", show_default=True, help="Interval: 7d, 1w, 14d.")
@click.option("--deadlines", help="Explicit local deadlines instead, comma-separated.")
@click.option("--rounds", type=int, default=12, show_default=True)
@click.option("--first-bonus-round", type=int, default=5, show_default=True)
@click.option("--bonus", default="3,2,1", show_default=True, help="Bonus values by rank.")
@click.option("--right", type=int, default=1, show_default=True, help="Points per right tip.")
@click.option("--wrong", type=int, default=-2, show_default=True, help="Points per wrong tip.")
@click.option("--early/--no-early", default=False, show_default=True,
              help="Resolve once every active player has a turn in.")
@click.option("--after-early", type=click.Choice(["calendar", "fresh"]), default="calendar",
              show_default=True, help="After a round closes early, the next deadline keeps "
              "the calendar or is a whole interval from the close.")
@click.option("--aid/--no-aid", default=False, show_default=True,
              help="House rule: the players' sheet shows what the public record rules out.")
@click.option("--missed-turn", type=click.Choice(list(MISSED_TURN_RULES)), default="none",
              show_default=True, help="House rule: a player with no turn at the deadline "
              "plays no tips (none), last round's tips (repeat), or those only while an "
              "announced absence covers the deadline (repeat-when-absent).")
@click.option("--language", type=click.Choice(list(games.LANGUAGES)), default="en",
              show_default=True)
def create_game(name, first_deadline, timezone, every, deadlines, rounds, first_bonus_round,
                bonus, right, wrong, early, after_early, aid, missed_turn, language):
    """Create a game with its house rules and deadline schedule."""
    timezone = timezone or current_app.config["DEFAULT_TIMEZONE"]
    if not first_deadline and not deadlines:
        day = to_local(utcnow() + timedelta(days=7), timezone).date()
        first_deadline = f"{day.isoformat()} 20:00"
    schedule = parse_schedule_spec(first_deadline, timezone, every, deadlines)
    try:
        bonuses = tuple(int(b) for b in bonus.split(",") if b.strip())
    except ValueError:
        raise click.BadParameter("bonus values are whole numbers like 3,2,1") from None
    rules = Ruleset(rounds, first_bonus_round, bonuses, right, wrong, early)
    game = games.create_game(name, schedule, rules, language=language, actor="cli",
                             after_early=after_early, deduction_aid=aid,
                             missed_turn_rule=missed_turn)
    click.echo(f"Created game {game.id} {game.name!r}: {schedule_text(schedule, language)}")


@gm_command(game_cli, "list")
def list_games():
    """List the games with their state and open round."""
    for g in db.session.scalars(select(Game).order_by(Game.id)):
        open_round = g.open_round
        extra = (f"round {open_round.number} until "
                 f"{deadline_text(open_round.deadline, g.timezone)}") if open_round else ""
        click.echo(f"{g.id:>4}  {g.name:<24} {g.state:<9} {len(g.active_players):>2} players  "
                   f"{extra}{'  (practice)' if g.practice else ''}")


@gm_command(game_cli, "start")
@click.argument("game")
@click.option("--seed", type=int, hidden=True, help="Reproducible deal, for tests only.")
def start_game(game, seed):
    """Deal the gems, publish the commitment and open round 1."""
    g = games.find_game(game)
    first = games.start_game(g, seed=seed, actor="cli")
    click.echo(f"Started {g.name!r}. Commitment (SHA-256): {g.commitment}")
    click.echo(f"Round 1 is open until {deadline_text(first.deadline, g.timezone)}.")


@gm_command(game_cli, "status")
@click.argument("game")
def status(game):
    """Who has a turn in for the open round (counts only, no tip contents)."""
    g = games.find_game(game)
    round_ = g.open_round
    if round_ is None:
        raise click.ClickException(f"{g.name!r} has no open round (state: {g.state})")
    click.echo(f"{g.name}: round {round_.number}, deadline "
               f"{deadline_text(round_.deadline, g.timezone)}")
    for row in standing_turns.round_status(g):
        when = deadline_text(row.last_at, g.timezone) if row.last_at else "-"
        click.echo(f"  {'yes' if row.submitted else 'no ':<4} {row.player.name:<20} "
                   f"question: {'yes' if row.has_question else 'no ':<4} tips: {row.tips:>2}  "
                   f"{row.channel or '':<6} {when}")


@gm_command(game_cli, "resolve")
@click.argument("game")
def resolve_now(game):
    """Resolve the open round now, whatever its deadline."""
    g = games.find_game(game)
    done = resolution.resolve_round(g, actor="cli")
    if done is None:
        raise click.ClickException(f"{g.name!r} has no open round to resolve (state: {g.state})")
    click.echo(reports.render_text(reports.build_report(g, done.number, g.language),
                                   g.timezone, g.language))


@gm_command(game_cli, "announce")
@click.argument("game")
@click.option("--file", "source", type=click.File("r", encoding="utf-8"), required=True,
              help="The announcement, plain text (at most 2,000 characters); '-' reads stdin.")
def announce(game, source):
    """Pin an announcement on the game's board; it is mailed to every player."""
    g = games.find_game(game)
    post = board.announce(g, source.read(), actor="cli", channel="cli")
    click.echo(f"Announced on the board of {g.name!r} (post {post.id}); every player gets it "
               "by mail.")


@gm_command(game_cli, "webhook")
@click.argument("game")
@click.option("--url", help="The chat's incoming-webhook address: https, public internet; "
              "'-' reads it from stdin (out of the shell's history).")
@click.option("--format", "fmt", type=click.Choice(list(WEBHOOK_FORMATS)), default="discord",
              show_default=True, help="The chat's kind (matrix: hookshot's generic webhooks).")
@click.option("--remove", is_flag=True, help="Remove the game's webhook.")
@click.option("--test", "send_test", is_flag=True, help="Queue a test message to the chat.")
def webhook(game, url, fmt, remove, send_test):
    """Set, show, test or remove the game's chat webhook (docs/webhooks.md)."""
    g = games.find_game(game)
    if remove and url:
        raise click.UsageError("give --url or --remove, not both")
    if remove:
        gone = webhooks.clear_webhook(g, actor="cli")
        click.echo(f"Removed the chat webhook of {g.name!r}." if gone else
                   f"{g.name!r} has no chat webhook.")
        return
    if url:
        url = sys.stdin.readline().strip() if url == "-" else url
        webhooks.set_webhook(g, url, fmt, actor="cli")
    if send_test:
        webhook_channel.queue_test(g)
        db.session.commit()
        click.echo("A test message is queued; the scheduler sends it.")
    hook = webhooks.of(g)
    if hook is None:
        click.echo(f"{g.name!r} has no chat webhook.")
        return
    last = (f"{'delivered' if hook.last_ok else 'not delivered'} "
            f"{deadline_text(hook.last_at, g.timezone)}: {hook.last_result}"
            if hook.last_at else "nothing sent yet")
    click.echo(f"{g.name}: {hook.format} webhook {webhooks.masked(hook.url)}; last: {last}")


@gm_command(game_cli, "report")
@click.argument("game")
@click.option("--round", "number", type=int, help="Round number (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--language", type=click.Choice(list(games.LANGUAGES)))
def report(game, number, fmt, language):
    """Print a round report as text or JSON."""
    g = games.find_game(game)
    lang = language or g.language
    rep = reports.build_report(g, number, lang)
    if fmt == "json":
        click.echo(json.dumps(rep.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(reports.render_text(rep, g.timezone, lang))


@gm_command(game_cli, "secret")
@click.argument("game")
@click.option("--yes", is_flag=True, help="Confirm that you are the GM and want to see it.")
def secret(game, yes):
    """Print the distribution and salt (GM only; recorded in the audit log)."""
    g = games.find_game(game)
    if g.secret is None:
        raise click.ClickException(f"{g.name!r} has not been dealt yet")
    if not yes and not click.confirm("Show the secret distribution?"):
        raise click.Abort()
    games.audit(g, "cli", "view_distribution")
    db.session.commit()
    click.echo(f"distribution: {g.secret.distribution}\nsalt: {g.secret.salt}")


@gm_command(game_cli, "export")
@click.argument("game")
@click.option("--with-secret", is_flag=True,
              help="Include the distribution and salt (GM only; audited).")
def export(game, with_secret):
    """Write a whole game as JSON to standard output."""
    g = games.find_game(game)
    if with_secret:
        games.audit(g, "cli", "export_with_secret")
        db.session.commit()
    click.echo(transfer.dumps(transfer.export_game(g, with_secret=with_secret)))


@gm_command(game_cli, "import")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@click.option("--name", help="Import under another name.")
def import_(source, name):
    """Recreate a game from an export (new ids; reply keys change)."""
    try:
        data = json.load(source)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"not JSON: {exc}") from None
    try:
        g = transfer.import_game(data, name=name)
    except (KeyError, TypeError, ValueError) as exc:
        db.session.rollback()
        raise click.ClickException(f"the export is incomplete or damaged: {exc!r}") from None
    click.echo(f"Imported game {g.id} {g.name!r} ({len(g.players)} players, "
               f"{len(g.rounds_)} rounds)")


@gm_command(game_cli, "reverify")
@click.argument("game")
def reverify(game):
    """Recompute every resolved round and compare with the published results."""
    g = games.find_game(game)
    found = transfer.reverify(g)
    for m in found:
        click.echo(f"round {m.round} {m.player}: {m.what} published {m.published}, "
                   f"recomputed {m.recomputed}", err=True)
    if found:
        raise click.ClickException(f"{len(found)} differences")
    done = sum(1 for r in g.rounds_ if r.state == "resolved")
    click.echo(f"OK: the commitment and all {done} resolved rounds agree.")
