"""HTML mail to plain lines, with the stdlib ``html.parser``.

Why not html2text (which the project also depends on): it writes Markdown, so it
escapes characters at the start of a line (``\\-``, ``1\\.``), adds trailing
double spaces for ``<br>`` and runs table cells together; each of those changes
what the turn parser sees. A turn needs only the lines of text, block elements
as line breaks and ``<blockquote>`` as ``> `` quoting (so the reply stripper can
drop the quoted original), which this small converter does exactly.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "ol", "p", "pre",
    "section", "table", "tbody", "thead", "tfoot", "tr", "ul",
})
_CELL = frozenset({"td", "th"})
# Elements whose content is never text a person wrote (Outlook adds <xml> blocks).
_SKIP = frozenset({"head", "noscript", "script", "style", "template", "title", "xml"})
# Containers the mail programs put around a signature: their text is cut off
# like the lines below "-- " (Gmail, Thunderbird, Outlook web and mobile, Yahoo,
# Proton, Samsung Mail). Not iOS's AppleMailSignature: the footer rule knows its
# "Sent from my iPhone", and a player who edits the footer away could type there.
_SIGNATURE_CLASSES = frozenset({"gmail_signature", "moz-signature", "protonmail_signature_block",
                                "signature"})
_SIGNATURE_IDS = frozenset({"signature", "ms-outlook-mobile-signature",
                            "ymail_android_signature", "ymail_iphone_signature",
                            "composer_signature"})
# Containers around a quoted original that are not <blockquote>: read as quoted.
_QUOTE_CLASSES = frozenset({"yahoo_quoted", "gmail_quote_container"})
_QUOTE_NAMES = frozenset({"quote"})  # GMX and web.de: <div name="quote">
_SPACE = re.compile(r"[ \t\r\n\f\v\xa0]+")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_TAG = re.compile(r"<[^>]*>")


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.depth = 0  # blockquote nesting
        self.skip = 0
        self.pre = 0
        self.divs: list[bool] = []  # open <div>s: whether each one quotes

    def _kind(self, attrs) -> str:
        values = dict(attrs)
        classes = set((values.get("class") or "").lower().split())
        ident = (values.get("id") or "").lower()
        if classes & _SIGNATURE_CLASSES or ident in _SIGNATURE_IDS:
            return "signature"
        if classes & _QUOTE_CLASSES or (values.get("name") or "").lower() in _QUOTE_NAMES:
            return "quote"
        return ""

    def handle_starttag(self, tag: str, attrs) -> None:
        kind = self._kind(attrs) if tag in ("div", "span", "table", "td") else ""
        if kind == "signature" and not self.skip:
            self._flush()
            self.lines.append(("> " * self.depth) + "-- ")
        if tag == "div":
            self.divs.append(kind == "quote")
            if kind == "quote":
                self._flush()
                self.depth += 1
                return
        if tag in _SKIP:
            self.skip += 1
        elif tag == "br":
            self._flush(keep_empty=True)
        elif tag in _BLOCK:
            self._flush()
            if tag == "blockquote":
                self.depth += 1
            elif tag == "pre":
                self.pre += 1
        elif tag in _CELL and self.current:
            self.current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.divs and self.divs.pop():
            self._flush()
            self.depth = max(0, self.depth - 1)
            return
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK:
            self._flush()
            if tag == "blockquote":
                self.depth = max(0, self.depth - 1)
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        data = data.translate(_INVISIBLE)
        if self.pre:
            first, *rest = data.replace("\r\n", "\n").split("\n")
            self.current.append(first)
            for line in rest:
                self._flush(keep_empty=True)
                self.current.append(line)
        else:
            self.current.append(_SPACE.sub(" ", data))

    def _flush(self, keep_empty: bool = False) -> None:
        text = "".join(self.current)
        text = text.rstrip() if self.pre else _SPACE.sub(" ", text).strip()
        if text or keep_empty:
            self.lines.append(("> " * self.depth) + text)
        self.current = []

    def text(self) -> str:
        self._flush()
        return "\n".join(self.lines)


def html_to_text(markup: str) -> str:
    """The text of an HTML body: one line per block or ``<br>``, blockquotes as '> '."""
    parser = _TextExtractor()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # html.parser can still trip over some broken markup
        return html.unescape(_TAG.sub("\n", markup)).translate(_INVISIBLE)
    return parser.text()
