"""The words of a mail in its reader's language, for the one template per mail.

Templates call ``t("Round {number} is open until {deadline}.", number=..., deadline=...)``
and ``ngettext("{num} hour left", "{num} hours left", n, ...)``: the English text
is the message id (extracted by ``vpsleuth translations update``), looked up in
the catalogue of the mail's language, then filled in. Nothing reads the request,
so a mail renders the same from a web request, a job or the command line.

In HTML the translated text is escaped and the values are escaped as they go
in, so a value may carry its own markup (``strong(game.name)``) and a name with
"<" in it stays text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..i18n import N_, ntranslate, translate

LANGUAGES = ("en", "de", "es")

# How a confirmation names where a turn came from.
CHANNELS = {"email": N_("email"), "web": N_("web"), "api": N_("API"),
            "gm": N_("game master"), "bot": N_("bot"), "cli": N_("command line"),
            "repeat": N_("repeated automatically")}


def mail_language(lang: str | None) -> str:
    """The language a mail is written in: ``lang`` if mails speak it, else English."""
    return lang if lang in LANGUAGES else "en"


@dataclass(frozen=True)
class Words:
    """The helpers one rendering passes to its templates (``**words.context()``)."""

    lang: str
    html: bool

    def t(self, text: str, **values) -> str:
        found = translate(self.lang, text)
        return self._fill(found, values)

    def ngettext(self, singular: str, plural: str, n: int, **values) -> str:
        found = ntranslate(self.lang, singular, plural, n)
        return self._fill(found, {"num": n, **values})

    def _fill(self, text: str, values: dict) -> str:
        if self.html:
            return Markup(escape(text)).format(**values) if values else Markup(escape(text))
        return text.format(**values) if values else text

    def channel(self, channel: str) -> str:
        """Where a turn came from, in words: "email", "game master", ..."""
        return self.t(CHANNELS.get(channel, channel))

    def context(self) -> dict[str, Callable | str]:
        return {"t": self.t, "ngettext": self.ngettext, "channel_name": self.channel,
                "strong": strong, "code": code, "lang": self.lang}


def strong(value: object) -> Markup:
    """``value`` in bold, for a value put into an HTML sentence."""
    return Markup("<strong>{}</strong>").format(value)


def code(value: object) -> Markup:
    """``value`` as code (a line of the turn language) in an HTML sentence."""
    return Markup("<code>{}</code>").format(value)
