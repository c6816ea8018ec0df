"""``vpsleuth backup`` and ``vpsleuth restore``: the whole database, for the operator.

Thin over services/backup.py. Neither checks the schema first as the GM's
commands do: a backup reads the database as it is, and a restore brings the
schema up to date itself.
"""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from ..services import backup


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace TARGET if it exists.")
@with_appcontext
def backup_command(target: Path, force: bool) -> None:
    """Write a consistent copy of the whole database to TARGET, while the service runs.

    SQLite: the online backup API, one file. PostgreSQL: pg_dump --format=custom.
    Bring it back with `vpsleuth restore TARGET`.
    """
    try:
        done = backup.back_up(target, force=force)
    except backup.BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Wrote {done.path}: {size_text(done.size)}, {plural(done.games, 'game')} "
               f"(schema {done.revision}), taken {done.taken_at:%Y-%m-%d %H:%M:%S} UTC "
               f"in {done.seconds:.2f} s.")


@click.command("restore")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True,
              help="Restore even into a database that has games: all it holds is replaced.")
@with_appcontext
def restore_command(source: Path, force: bool) -> None:
    """Restore a backup made by `vpsleuth backup` into the configured database.

    Stop the web server and the scheduler first. The database must have no games (a
    new SQLite file; for PostgreSQL an empty database, made with createdb) unless
    --force. The schema is then upgraded to this version's, and mails left being
    sent at the backup go again, with the same Message-ID.
    """
    try:
        done = backup.restore(source, force=force)
    except backup.BackupError as exc:
        raise click.ClickException(str(exc)) from None
    schema = (f"schema {done.head}" if done.revision == done.head
              else f"schema upgraded from {done.revision} to {done.head}")
    click.echo(f"Restored {source}: {plural(done.games, 'game')}, {schema}, "
               f"in {done.seconds:.2f} s.")
    if done.mails or done.notices:
        click.echo(f"Being sent at the backup, now due again: {plural(done.mails, 'mail')} "
                   f"(same Message-ID), {plural(done.notices, 'notice')}.")
    click.echo("Check each game with `vpsleuth game reverify GAME`.")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def size_text(size: int) -> str:
    """Bytes as a person reads them: 912 bytes, 48.0 kB, 3.2 MB."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"
