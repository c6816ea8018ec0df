"""What the walk over every web route needs: odd values, forms read off pages, a log of reads.

Odd values are written as they go on the wire (percent escapes in a query string
or a form body), so invalid UTF-8 reaches the server as bytes, not as text a
client library would have cleaned up first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, quote, urljoin, urlsplit

from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.utils import cached_property

# name -> the value as sent, percent-encoded where it must be.
ODD = {
    "nul": "a%00b",
    "crlf": "%2F%0D%0ASet-Cookie%3A%20stolen%3D1",
    "newline": "%2Fa%0Ab",
    "escape": "%1B%5B2J%1B%5D0%3Bx%07",
    "overlong": "A" * 100_000,
    "bad-utf8": "%ff%fe",
    "overlong-utf8": "%c0%af%e0%80%af",
    "mixed-normalisation": "Cafe%CC%81%20Caf%C3%A9%20%EF%BC%A1%E2%80%AE%E2%80%A8",
    "huge-number": "9" * 40,
    "other-digits": "%C2%B2%D9%A3",  # a superscript two and an Arabic-Indic three
}
# The same in a path segment (no slash may end it early; %2F stays inside the segment).
ODD_SEGMENTS = {name: value if name != "overlong" else "A" * 5_000 for name, value in ODD.items()}


def encode(fields: dict[str, str], odd: dict[str, str] | None = None) -> str:
    """A query string or form body: ``fields`` encoded, then ``odd`` as sent (raw)."""
    parts = [f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in fields.items()
             if k not in (odd or {})]
    parts += [f"{quote(k, safe='')}={v}" for k, v in (odd or {}).items()]
    return "&".join(parts)


@dataclass
class Form:
    """A form as a page offers it: where it goes, and each field with its value."""

    method: str
    action: str  # a path (and query) of ours
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple:
        return self.method, self.action, tuple(sorted(self.fields))


class _PageParser(HTMLParser):
    """The forms of a page and the query strings of its links."""

    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url, self.forms, self.links = page_url, [], []
        self._form: Form | None = None
        self._textarea: str | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            action = urljoin(self.page_url, a.get("action") or self.page_url)
            self._form = Form(a.get("method", "get").upper(), _local(action))
            self.forms.append(self._form)
        elif tag == "a" and "?" in a.get("href", ""):
            self.links.append(_local(urljoin(self.page_url, a["href"])))
        elif self._form is None or "name" not in a:
            return
        elif tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                self._form.fields.setdefault(a["name"], "")
                return
            if kind != "submit" or a["name"] not in self._form.fields:
                self._form.fields[a["name"]] = a.get("value", "on" if kind == "checkbox" else "")
        elif tag == "button" and a.get("value"):
            self._form.fields.setdefault(a["name"], a["value"])
        elif tag == "textarea":
            self._textarea = a["name"]
            self._form.fields[a["name"]] = ""
        elif tag == "select":
            self._select = a["name"]
            self._form.fields.setdefault(a["name"], "")
        elif tag == "option" and self._select and ("selected" in a
                                                    or not self._form.fields[self._select]):
            self._form.fields[self._select] = a.get("value", "")

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea:
            self._form.fields[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None


def _local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def read_page(page_url: str, html: str) -> tuple[list[Form], list[str]]:
    """(forms, links with a query) of a page of ours, as paths with their queries."""
    parser = _PageParser(page_url)
    parser.feed(html)
    forms = [f for f in parser.forms if not urlsplit(f.action).netloc]
    return forms, parser.links


def query_of(link: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))


class _Reading(ImmutableMultiDict):
    """Request parameters that note each name a view reads."""

    def __init__(self, data, note) -> None:
        super().__init__(data)
        self._note = note

    def get(self, key, default=None, type=None):  # noqa: A002 - werkzeug's own signature
        self._note(key)
        return super().get(key, default, type)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def getlist(self, key, type=None):  # noqa: A002
        self._note(key)
        return super().getlist(key, type)

    def __contains__(self, key) -> bool:
        self._note(key)
        return super().__contains__(key)


def reading_request(base: type, reads: dict[tuple[str, str], set[tuple[str, str]]]) -> type:
    """``base`` (the app's request class), noting in ``reads`` what each route reads.

    reads[(method, rule)] gets ("args", name) and ("form", name) for every name a
    view (or anything it calls) asked for, whether or not the request had it.
    """
    class Reading(base):
        def _noter(self, kind: str):
            def note(name: str) -> None:
                rule = self.url_rule.rule if self.url_rule is not None else "?"
                reads.setdefault((self.method, rule), set()).add((kind, name))
            return note

        @cached_property
        def args(self):
            return _Reading(super().args, self._noter("args"))

        @cached_property
        def form(self):
            return _Reading(super().form, self._noter("form"))

    return Reading


PATH_VARIABLE = re.compile(r"<(?:([^:<>]+):)?([^<>]+)>")


def fill(rule: str, values: dict[str, str]) -> str:
    """``rule`` with each variable replaced by values[name] (KeyError names a missing one)."""
    return PATH_VARIABLE.sub(lambda m: str(values[m.group(2)]), rule)


def converters(rule: str) -> dict[str, str]:
    """Each variable of ``rule`` and its converter's name ("default" where none is named)."""
    return {m.group(2): m.group(1) or "default" for m in PATH_VARIABLE.finditer(rule)}
