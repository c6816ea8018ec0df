"""Mails rendered from the template pairs in templates/email/, in the reader's language.

render() makes one mail whole. render_shared() makes it once for every reader
of a language (and zone): only the name is each reader's own, so a round's
mail to a thousand players is rendered a few times, not a thousand; the
outbox stores the shared bodies and splices each name in when it sends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from flask import render_template
from markupsafe import escape

from ..models import Player
from ..models.mail import spliced
from ..services.links import base_url
from .words import Words, mail_language


def render(template: str, lang: str, **context) -> tuple[str, str, str]:
    """(subject, text, html) from templates/email/<template>.txt and .html, in ``lang``.

    One template per mail for every language: its texts go through ``t`` and
    ``ngettext`` (see words.py), looked up in the catalogue of ``lang``. The text
    template's first line is ``Subject: ...``.
    """
    lang = mail_language(lang)
    if "base_url" not in context:  # not computed when given: it may read the database
        context["base_url"] = base_url()
    text = render_template(f"email/{template}.txt", **{**Words(lang, html=False).context(),
                                                       **context})
    first, _, body = text.partition("\n")
    if not first.startswith("Subject: "):
        raise ValueError(f"email/{template}.txt must start with 'Subject: '")
    html = render_template(f"email/{template}.html", **{**Words(lang, html=True).context(),
                                                        **context})
    return first.removeprefix("Subject: ").strip(), body.lstrip("\n"), html


# Printed where the reader's name goes while a mail is rendered once for many. Its
# letters change under a case filter and its "&" under escaping, so a template that
# does not print the name as it is falls back to one rendering per reader.
_NAME = "\x1a&Na Me\x1a"
_NAME_HTML = str(escape(_NAME))
# The name the result is checked with: of another length, so that a layout by the
# name's length (padding, truncating, wrapping) shows.
_PROBE = "Probe Q. Longername-Smith"
# Printed where the reader's board address goes (pass ``board_address=BOARD``), and the
# address the result is checked with.
BOARD = "\x1b&Bo Ard\x1b"
_BOARD_HTML = str(escape(BOARD))
_PROBE_BOARD = "probe+b0.longer-board-address@example.invalid"


@dataclass(frozen=True)
class Shared:
    """One mail rendered once for many readers: the same subject and bodies, with each
    reader's name (escaped in HTML) at ``at_text`` and ``at_html``, where it appears."""

    subject: str
    text: str
    html: str
    at_text: int | None
    at_html: int | None
    # Where the reader's board address goes (offsets in the body without the name).
    board_text: int | None = None
    board_html: int | None = None

    @property
    def personal(self) -> bool:
        return self.at_text is not None or self.at_html is not None

    @property
    def has_board(self) -> bool:
        return self.board_text is not None or self.board_html is not None

    def bodies(self, name: str, board: str = "") -> tuple[str, str]:
        """The text and HTML as one reader gets them."""
        return (spliced(self.text, (self.at_text, name), (self.board_text, board)),
                spliced(self.html, (self.at_html, str(escape(name))),
                        (self.board_html, str(escape(board)))))


def _cut(body: str, first: str, second: str) -> tuple[str, int | None, int | None]:
    """``body`` without the two placeholders, and where each was in what is left."""
    at1, at2 = body.find(first), body.find(second)
    if at1 >= 0 and at2 > at1:
        at2 -= len(first)
    elif at2 >= 0 and at1 > at2:
        at1 -= len(second)
    return (body.replace(first, "").replace(second, ""), at1 if at1 >= 0 else None,
            at2 if at2 >= 0 else None)


class _Reader:
    """Stands in for the player while a mail is rendered once for many: its name is a
    placeholder, and whatever else the templates read of it is counted."""

    def __init__(self, player: Player, name: str = _NAME) -> None:
        self._player, self._name, self.reads = player, name, Counter()

    @property
    def name(self) -> str:
        self.reads["name"] += 1
        return self._name

    def __getattr__(self, attribute: str):
        self.reads[attribute] += 1
        return getattr(self._player, attribute)

    def __str__(self) -> str:
        self.reads["str"] += 1
        return str(self._player)


def render_shared(template: str, lang: str, reader: Player, **context) -> Shared | None:
    """Render a mail once for every player of a language (and zone, where the context
    differs by zone): only the name in it is each player's own.

    None when the templates read more of the player than the name, or print it
    other than as it is (then each mail is rendered whole, as before). The
    result is checked against the mail rendered whole for a name of another
    length.
    """
    if "base_url" not in context:
        context["base_url"] = base_url()  # once for both renderings
    stand_in = _Reader(reader)
    subject, text, html = render(template, lang, player=stand_in, **context)
    in_text, in_html = text.count(_NAME), html.count(_NAME_HTML)
    if (set(stand_in.reads) - {"name"} or _NAME in subject or in_text > 1 or in_html > 1
            or stand_in.reads["name"] != in_text + in_html or BOARD in subject
            or text.count(BOARD) > 1 or html.count(_BOARD_HTML) > 1):
        return None
    text, at_text, board_text = _cut(text, _NAME, BOARD)
    html, at_html, board_html = _cut(html, _NAME_HTML, _BOARD_HTML)
    shared = Shared(subject, text, html, at_text, at_html, board_text, board_html)
    if context.get("board_address") == BOARD:
        context["board_address"] = _PROBE_BOARD
    whole = render(template, lang, player=_Reader(reader, _PROBE), **context)
    return shared if (shared.subject, *shared.bodies(_PROBE, _PROBE_BOARD)) == whole else None
