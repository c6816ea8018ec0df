"""Words in the reader's language: gettext catalogues (vpsleuth/translations).

English texts are the message ids; ``translate(lang, text)`` looks ``text`` up
in the catalogue of ``lang`` (compiled ``.mo`` files, committed; see
vpsleuth/i18n/catalogues.py and docs/translating.md). Texts shown later than they
are written are marked with ``N_`` where they are defined.

The floors below give codes, numbers and datetimes; the modules here say them:
dates.py (deadlines, days, numbers, time left, by Babel), schedule_words.py (a
deadline schedule and its errors), house_rules.py (a game's rules as sentences),
story_words.py and story_numbers.py (the story of a finished game).
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

from babel.support import Translations

DIRECTORY = Path(__file__).resolve().parent.parent / "translations"
# The Babel locale each language's dates and numbers are written in.
LOCALES = {"en": "en_GB", "de": "de_DE", "es": "es_ES"}


def locale_of(lang: str) -> str:
    """The Babel locale a language's mails are written in (British English otherwise)."""
    return LOCALES.get(lang, "en_GB")


def N_(text: str) -> str:  # noqa: N802  (gettext's own name for it)
    """Mark ``text`` for the catalogue; it is translated where it is shown."""
    return text


@cache
def catalogue(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (an empty one for English)."""
    if lang == "en":
        return _gettext.NullTranslations()
    return Translations.load(str(DIRECTORY), [lang])


def translate(lang: str, text: str) -> str:
    """``text`` (an English message id) in ``lang``; itself when the catalogue lacks it."""
    if not text or lang == "en":
        return text
    return catalogue(lang).gettext(text)


def ntranslate(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``lang`` (ngettext)."""
    return catalogue(lang).ngettext(singular, plural, n)


def translator(lang: str):
    """A one-argument function for templates: ``t("Round")``."""
    return lambda text: translate(lang, text)
