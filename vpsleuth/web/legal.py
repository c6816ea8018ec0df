"""The privacy notice (/privacy) and the imprint (/imprint), from the operator's files.

The operator names Markdown files in the settings (PRIVACY_FILE, IMPRINT_FILE),
with a translation beside each as NAME.de.md and NAME.es.md. Without a privacy
file, /privacy shows the notice written from what the service stores
(services/privacy.py: the same facts as docs/privacy.md) in the reader's
language, naming PRIVACY_CONTACT as the one responsible; without an imprint
file there is no imprint page (and no link to one): `vpsleuth check` warns
when a public site lacks either. Markdown is rendered as on the rules page
(raw HTML escaped), and the operator's files are never read as templates.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
from flask import abort, current_app, render_template
from markupsafe import Markup

from ..services import privacy
from .docs import DOCS, MARKDOWN, bp
from .session import current_language

_JINJA = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                            keep_trailing_newline=True)


def operator_file(setting: str, lang: str) -> Path | None:
    """The operator's file for ``setting`` in ``lang`` (its own if there is none), or None."""
    name = current_app.config.get(setting)
    if not name:
        return None
    path = Path(name)
    translated = path.with_name(f"{path.stem}.{lang}{path.suffix}")
    return translated if lang != "en" and translated.is_file() else path


@lru_cache(maxsize=16)
def _markdown(path: Path, mtime: float) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")),
                 path.stem)
    return title, MARKDOWN.render(text)


def _page(path: Path, page: str):
    if not path.is_file():
        abort(404)  # `vpsleuth check` names the missing file
    title, html = _markdown(path, path.stat().st_mtime)
    return render_template("web/doc.html", page=page, title=title, body=Markup(html))


def default_notice(lang: str) -> tuple[str, Markup]:
    """The notice written from the facts, in ``lang`` (English where no translation exists)."""
    source = DOCS / f"privacy-notice.{lang}.md"
    if lang == "en" or not source.is_file():
        source = DOCS / "privacy-notice.md"
    text = _JINJA.from_string(source.read_text(encoding="utf-8")).render(
        facts=privacy.table(lang), contact=current_app.config.get("PRIVACY_CONTACT") or "",
        imprint=bool(current_app.config.get("IMPRINT_FILE")), days=privacy.periods())
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")),
                 "Privacy")
    return title, Markup(MARKDOWN.render(text, {"lang": lang}))


@bp.get("/privacy")
def privacy_page():
    """What the service stores about people, why, how long, and their rights."""
    lang = current_language()
    path = operator_file("PRIVACY_FILE", lang)
    if path is not None:
        return _page(path, "privacy")
    title, body = default_notice(lang)
    return render_template("web/doc.html", page="privacy", title=title, body=body)


@bp.get("/imprint")
def imprint():
    """Who runs this site (the operator's own file)."""
    path = operator_file("IMPRINT_FILE", current_language())
    if path is None:
        abort(404)
    return _page(path, "imprint")
