"""The gettext catalogues: extract, update, fill in, compile, check.

One catalogue per language in ``vpsleuth/translations/<lang>/LC_MESSAGES/``;
the English texts in the code and templates are the message ids. The ``.mo``
files are committed (a test checks they match their ``.po``), so nobody needs a
compile step to run the service. Every command takes a file lock, so several
people (or processes) filling in one catalogue at once don't overwrite each
other.

    vpsleuth translations update        # extract, merge into every .po, compile
    vpsleuth translations set es < es.json   # {"msgid": "msgstr" or [plural forms]}
    vpsleuth translations check         # untranslated/fuzzy entries, stale .mo
"""

from __future__ import annotations

import fcntl
import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
DIRECTORY = Path(__file__).resolve().parents[1] / "translations"
TEMPLATE = DIRECTORY / "messages.pot"
LANGUAGES = ("de", "es")  # English is the source language: no catalogue
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "_l": None,
    "lazy_gettext": None, "lazy_ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "t": None, "translate": (2,), "ntranslate": (2, 3),
}


def po_path(lang: str) -> Path:
    return DIRECTORY / lang / "LC_MESSAGES" / "messages.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


@contextmanager
def locked() -> Iterator[None]:
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    with open(DIRECTORY / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def extract() -> Catalog:
    """Every marked text of the code and templates, as a catalogue template."""
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    template = Catalog(project="vpsleuth", msgid_bugs_address=None, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        template.add(message, None, [(filename, lineno)], auto_comments=comments,
                     context=context)
    return template


def load(path: Path, lang: str | None = None) -> Catalog:
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang)


def save(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=True,
             include_lineno=False)
    path.write_bytes(buffer.getvalue())


def compiled(catalog: Catalog) -> bytes:
    """The .mo bytes of a catalogue (fuzzy entries left out, as msgfmt does)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> None:
    for lang in LANGUAGES:
        if po_path(lang).exists():
            mo_path(lang).write_bytes(compiled(load(po_path(lang), lang)))


def update() -> None:
    """Extract, merge the new template into every catalogue, compile."""
    with locked():
        template = extract()
        save(template, TEMPLATE)
        for lang in LANGUAGES:
            path = po_path(lang)
            catalog = load(path, lang) if path.exists() else Catalog(locale=lang)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            save(catalog, path)
        compile_all()


def set_translations(lang: str, entries: dict[str, str | list[str]]) -> list[str]:
    """Fill in ``entries`` (msgid -> text, or a list of plural forms); returns the
    msgids that are not in the catalogue (run ``update`` first). A pgettext entry
    is keyed "context\x04msgid", gettext's own notation."""
    unknown = []
    with locked():
        catalog = load(po_path(lang), lang)
        for msgid, text in entries.items():
            context, _, bare = msgid.rpartition("\x04")
            message = catalog.get(bare, context=context or None)
            if message is None:
                unknown.append(msgid)
                continue
            message.string = tuple(text) if isinstance(text, list) else text
            message.flags.discard("fuzzy")
        save(catalog, po_path(lang))
        mo_path(lang).write_bytes(compiled(catalog))
    return unknown


def problems(lang: str) -> list[str]:
    """What keeps ``lang`` from being complete: untranslated or fuzzy entries, a
    stale .mo."""
    catalog = load(po_path(lang), lang)
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            found.append(f"{lang}: untranslated: {message.id!r}")
        elif message.fuzzy:
            found.append(f"{lang}: fuzzy: {message.id!r}")
    if not mo_path(lang).exists() or mo_path(lang).read_bytes() != compiled(catalog):
        found.append(f"{lang}: {mo_path(lang).name} does not match its .po (run update)")
    return found

