"""``vpsleuth translations update | set | check``: the gettext catalogues from the shell
(docs/translating.md); what they do is in vpsleuth/i18n/catalogues.py."""

from __future__ import annotations

import json
import sys

import click

from ..i18n.catalogues import LANGUAGES, problems, set_translations, update


@click.group("translations")
def translations_cli() -> None:
    """Gettext catalogues (docs/translating.md)."""


@translations_cli.command("update")
def update_command() -> None:
    """Extract every text, merge it into each catalogue, compile the .mo files."""
    update()
    for lang in LANGUAGES:
        click.echo(f"{lang}: {len(problems(lang))} to do")


@translations_cli.command("set")
@click.argument("lang", type=click.Choice(LANGUAGES))
def set_command(lang: str) -> None:
    """Fill in translations from a JSON object on stdin (msgid -> text)."""
    unknown = set_translations(lang, json.load(sys.stdin))
    for msgid in unknown:
        click.echo(f"not in the catalogue (mark it and run update): {msgid!r}", err=True)
    sys.exit(1 if unknown else 0)


@translations_cli.command("check")
@click.option("--list", "show", is_flag=True, help="Name every entry still to do.")
def check_command(show: bool) -> None:
    """Count (or list) untranslated and fuzzy entries; exit 1 if there are any."""
    total = 0
    for lang in LANGUAGES:
        found = problems(lang)
        total += len(found)
        click.echo(f"{lang}: {len(found)} to do")
        if show:
            for line in found:
                click.echo(f"  {line}")
    sys.exit(1 if total else 0)
