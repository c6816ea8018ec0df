"""Decoding a received message: headers, addresses and the text a person wrote.

Pure functions on bytes and ``email.message.EmailMessage`` (stdlib ``email``
with ``policy.default``). Nothing here raises on bad input: broken headers,
unknown charsets and undecodable parts fall back to something readable, since
whatever arrives must be stored and answered, never crash the pipeline. The
one exception is parse(): parts nested deeper than MAX_DEPTH raise TooDeep, for
the pipeline to refuse the message with a reply naming the problem.

Beside the inbound pipeline rather than in it: threads.py reads the headers of
the mail a reply answers with it too.
"""

from __future__ import annotations

import email
import email.feedparser
import email.headerregistry
import email.parser
import email.policy
import email.utils
import re
from email.message import EmailMessage, Message

from .html import html_to_text

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
# Tried in this order when the declared charset is missing, unknown or wrong.
FALLBACK_CHARSETS = ("utf-8", "cp1252", "latin-1")
_ADDRESS = re.compile(r"[^\s<>@,;:\"()\[\]\\]+@[^\s<>@,;:\"()\[\]\\]+")
# Multiparts and attached messages inside each other; real mail nests a handful
# (a forward of a forward with attachments: under ten).
MAX_DEPTH = 20


class TooDeep(ValueError):
    """A message whose parts nest more than MAX_DEPTH levels deep."""

    def __init__(self) -> None:
        super().__init__(f"the mail's parts nest more than {MAX_DEPTH} levels deep")


# Characters of one header that are parsed. policy.default's parser takes time and memory
# growing faster than the header: a To of 12,000 encoded words (one 256 KB mail) took
# 23 s and 4.4 GB, 400 of them (8 KB) 40 MB. Real headers are far shorter; a References
# of a long thread (80 message ids) fits.
MAX_HEADER_CHARS = 4096
# Headers whose last part matters most (the latest message ids): cut at their start.
_TAIL_HEADERS = frozenset({"references", "in-reply-to"})


def shortened(name: str, value: str) -> str:
    """``value`` cut to MAX_HEADER_CHARS at a space (the end kept for _TAIL_HEADERS)."""
    if len(value) <= MAX_HEADER_CHARS:
        return value
    if name.lower() in _TAIL_HEADERS:
        tail = value[-MAX_HEADER_CHARS:]
        return tail[tail.find(" ") + 1:] if " " in tail else tail
    head = value[:MAX_HEADER_CHARS]
    return head[:head.rfind(" ")] if " " in head else head


class _ParsedOnce(email.headerregistry.HeaderRegistry):
    """policy.default's header factory, but each header is parsed once per message, and
    at most MAX_HEADER_CHARS of it.

    The stdlib parses a header anew on every read, and the pipeline reads some
    (Content-Type, To, Subject) many times; the parsed headers are immutable. The raw
    message, stored before it is parsed, keeps every header whole.
    """

    def __init__(self) -> None:
        super().__init__()
        self._parsed: dict[tuple[str, str], email.headerregistry.BaseHeader] = {}

    def __call__(self, name: str, value: str) -> email.headerregistry.BaseHeader:
        key = (name, value)
        header = self._parsed.get(key)
        if header is None:
            header = self._parsed[key] = super().__call__(name, shortened(name, value))
        return header


def _policy() -> email.policy.EmailPolicy:
    """policy.default with a header cache of its own (one per message parsed)."""
    return email.policy.default.clone(header_factory=_ParsedOnce())


class _DepthLimitedParser(email.feedparser.BytesFeedParser):
    """The stdlib's parser, stopped at the first part nested deeper than MAX_DEPTH.

    Its descent into parts is recursive (a mail nested 1,000 levels deep raised
    RecursionError). Every part it opens goes through _new_message and onto a
    stack it keeps, so the depth is that stack's length: counted as the parts
    open, before the recursion gets deep, with no second pass over the tree.
    """

    def _new_message(self) -> None:
        if len(self._msgstack) >= MAX_DEPTH:
            raise TooDeep()
        super()._new_message()


def parse(raw: bytes) -> EmailMessage:
    """The message tree of ``raw`` (any bytes: garbage gives a message of defects).

    Raises TooDeep for parts nested more than MAX_DEPTH levels deep.
    """
    parser = _DepthLimitedParser(policy=_policy())
    try:
        parser.feed(raw)
        return parser.close()  # type: ignore[return-value]
    except RecursionError:  # should the stdlib's internals change under the check above
        raise TooDeep() from None


def parse_headers(raw: bytes) -> EmailMessage:
    """Only the top-level headers of ``raw`` (the body is left unparsed): cheaper."""
    return email.parser.BytesHeaderParser(policy=_policy()).parsebytes(raw)  # type: ignore[return-value]


def clean(text: str, limit: int | None = None) -> str:
    """Text safe for any database column: no NUL, no lone surrogates, at most ``limit``."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = text.replace("\x00", "")
    return text[:limit] if limit else text


def header(msg: Message, name: str) -> str:
    """One header as text ('' if missing), decoded; a malformed one is returned raw."""
    return " ".join(headers(msg, name)[:1])


def headers(msg: Message, name: str) -> list[str]:
    """Every occurrence of a header, decoded where possible."""
    try:
        values = msg.get_all(name) or []
    except Exception:  # the parser has bugs on some broken headers
        values = [v for k, v in msg.raw_items() if k.lower() == name.lower()]
    out = []
    for value in values:
        try:
            out.append(clean(str(value)).strip())
        except Exception:
            out.append(clean(repr(value)))
    return out


def addresses(msg: Message, names: tuple[str, ...] = RECIPIENT_HEADERS) -> list[str]:
    """The addr-specs in these headers (every occurrence), in header order."""
    found: list[str] = []
    for name in names:
        for value in headers(msg, name):
            for _, addr in email.utils.getaddresses([value]):
                if "@" in addr:
                    found.append(addr)
            # getaddresses gives up on some broken lists: catch what it missed
            found.extend(a for a in _ADDRESS.findall(value) if a not in found)
    return found


def sender(msg: Message) -> str:
    """The From address, lower-cased ('' if there is no usable one)."""
    found = addresses(msg, ("From",))
    addr = found[0].strip().lower() if found else ""
    return addr if len(addr) <= 254 and "\n" not in addr and "\r" not in addr else ""


def message_id(msg: Message) -> str | None:
    """The Message-ID with its angle brackets, or None."""
    value = header(msg, "Message-ID").strip()
    return clean(value, 998) or None


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Bytes to text: the declared charset if it decodes them, else utf-8, cp1252, latin-1."""
    for candidate in ((charset,) if charset else ()) + FALLBACK_CHARSETS:
        try:
            return data.decode(candidate)
        except (LookupError, UnicodeError, ValueError, TypeError):
            continue
    return data.decode("latin-1")  # pragma: no cover - latin-1 decodes any bytes


def _charset(part: Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:
        return None


def part_text(part: Message) -> str:
    """The decoded text of one leaf part (transfer encoding and charset undone)."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if data is None:
        payload = part.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    text = decode_bytes(data, _charset(part))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def unflow(text: str, delsp: bool = False) -> str:
    """Undo format=flowed (RFC 3676): join soft-broken lines, keep quote depth as '> '."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing
        soft = body.endswith(" ") and body != "-- "
        if soft and delsp:
            body = body[:-1]
        if pending is not None and depth == pending_depth:
            pending += body
        else:
            if pending is not None:
                out.append(_quoted(pending, pending_depth))
            pending, pending_depth = body, depth
        if not soft:
            out.append(_quoted(pending, pending_depth))
            pending = None
    if pending is not None:
        out.append(_quoted(pending, pending_depth))
    return "\n".join(out)


def _quoted(body: str, depth: int) -> str:
    return ("> " * depth) + body if depth else body


def _is_attachment(part: Message) -> bool:
    try:
        return part.get_content_disposition() == "attachment"
    except Exception:
        return False


def text_part(msg: Message) -> Message | None:
    """The part a person wrote: text/plain preferred, else text/html; no attachments."""
    body = None
    try:
        body = msg.get_body(preferencelist=("plain", "html"))  # type: ignore[attr-defined]
    except Exception:
        body = None
    if body is not None:
        if body.get_content_subtype() == "plain" and not part_text(body).strip():
            html = _first_leaf(msg, "html")
            return html or body
        return body
    return _first_leaf(msg, "plain") or _first_leaf(msg, "html")


def _first_leaf(msg: Message, subtype: str) -> Message | None:
    try:
        parts = list(msg.walk())
    except Exception:
        return None
    for part in parts:
        if (part.get_content_maintype() == "text" and part.get_content_subtype() == subtype
                and not part.is_multipart() and not _is_attachment(part)):
            return part
    return None


def _params(part: Message) -> dict[str, str]:
    try:
        return {k.lower(): str(v).lower() for k, v in part.get_params() or [] if v}
    except Exception:
        return {}


def body_text(msg: Message) -> str | None:
    """The text of the message as plain lines, or None if it has no text part.

    HTML becomes text with quoted blocks as '> ' lines; format=flowed is undone.
    """
    part = text_part(msg)
    if part is None:
        return None
    text = part_text(part)
    if part.get_content_subtype() == "html":
        return html_to_text(text)
    params = _params(part)
    if params.get("format") == "flowed":
        text = unflow(text, params.get("delsp") == "yes")
    return text
