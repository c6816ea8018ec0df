"""The rules and the help on playing by mail, in the reader's language, from docs/*.md.

The pages are the repository's own Markdown files (the players' rulebook
docs/rulebook.md with its translations docs/rulebook.de.md and
docs/rulebook.es.md, docs/help-mail.md with help-mail.de.md and help-mail.es.md),
so README, the site and the mails all point to one text; a language without its
own file gets the English one. The developers' reference, docs/RULES.md, is not
served. The rulebook states the standard game's numbers through Jinja
(``{{ rules.rounds }}``), filled from the code's default Ruleset, so it cannot
drift from what the service plays.

They are rendered with markdown-it-py: CommonMark to the letter (tables through
its GFM table rule), pure Python, maintained by the Executable Books project;
with ``html`` off, raw HTML in a file is escaped rather than passed through, and
its link check refuses ``javascript:`` and similar URLs, so no sanitizer is
needed after it. Python-Markdown, the other candidate, dropped its safe mode in
3.0 and would need one.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import jinja2
from flask import Blueprint, abort, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

from .. import DATA
from ..i18n import house_rules, translate
from .session import current_language

bp = Blueprint("docs", __name__)
DOCS = DATA / "docs"
# page -> file stem; a translation is <stem>.<lang>.md (rulebook.de.md, help-mail.es.md)
PAGES = {"rules": "rulebook", "mail": "help-mail"}
# Pages whose text is a Jinja template over the standard game's numbers. Undefined
# names fail loudly; the output is Markdown, escaped by markdown-it, so no autoescape.
TEMPLATED = {"rules"}
_JINJA = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                            keep_trailing_newline=True)
_LANG_CODE = re.compile(r"[a-z]{2}")


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("heading_open", _heading_open)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", lambda self, tokens, idx, options, env:
                       "</table></div>\n")
    return md


def _heading_open(self, tokens, idx, options, env) -> str:
    """Headings get ids, so a section can be linked: /rules#house-rules"""
    slug = re.sub(r"[^\w]+", "-", tokens[idx + 1].content.lower()).strip("-") or "section"
    seen = env.setdefault("ids", set())
    unique, n = slug, 1
    while unique in seen:
        n += 1
        unique = f"{slug}-{n}"
    seen.add(unique)
    tokens[idx].attrSet("id", unique)
    if env.get("shift"):  # set inside a page with a heading of its own: one level down
        level = f"h{min(6, int(tokens[idx].tag[1]) + env['shift'])}"
        tokens[idx].tag = tokens[idx + 2].tag = level  # heading_open, inline, heading_close
    return self.renderToken(tokens, idx, options, env)


def _table_open(self, tokens, idx, options, env) -> str:
    """Tables scroll sideways on a phone in a region the keyboard can reach."""
    label = translate(env.get("lang", "en"), "Table")
    return (f'<div class="table-wrap" role="region" tabindex="0" aria-label="{label}">'
            + self.renderToken(tokens, idx, options, env))


MARKDOWN = _renderer()


def source(page: str, lang: str) -> Path:
    """The file of ``page`` in ``lang`` (English where no translation exists)."""
    stem = PAGES[page]
    if lang != "en" and _LANG_CODE.fullmatch(lang):
        translated = DOCS / f"{stem}.{lang}.md"
        if translated.exists():
            return translated
    return DOCS / f"{stem}.md"


def standard_values(lang: str) -> dict:
    """What the rulebook's template reads: the standard game's rules and ways to say them."""
    rules = house_rules.STANDARD
    return {"rules": rules, "signed": house_rules.signed,
            "points": lambda n: house_rules.points(n, lang),
            "listed": lambda numbers: house_rules.listed(numbers, lang),
            # How often a guess must be right to pay: p * right + (1 - p) * wrong > 0.
            "odds": Fraction(-rules.points_wrong, rules.points_right - rules.points_wrong)}


@lru_cache(maxsize=16)
def _rendered(path: Path, mtime: float, lang: str, templated: bool,
              shift: int) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8")
    if templated:
        text = _JINJA.from_string(text).render(standard_values(lang))
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")),
                 path.stem)
    return title, MARKDOWN.render(text, {"lang": lang, "shift": shift})


def render(page: str, lang: str, shift: int = 0) -> tuple[str, Markup]:
    """(title, safe HTML) of a page in ``lang``; re-read when its file changes.

    ``shift``: how many levels down its headings go (1: its title is an h2).
    """
    path = source(page, lang)
    title, html = _rendered(path, path.stat().st_mtime, lang, page in TEMPLATED, shift)
    return title, Markup(html)  # safe: markdown-it escaped any raw HTML in the file


def _page(page: str):
    if page not in PAGES:
        abort(404)
    lang = current_language()
    title, body = render(page, lang)
    return render_template("web/doc.html", page=page, title=title, body=body)


@bp.get("/rules")
def rules():
    """The rulebook of VP-Sleuth for players, with the standard game's numbers."""
    return _page("rules")


@bp.get("/help/mail")
def mail_help():
    """How to play by mail: replying, the turn language, an example."""
    return _page("mail")
