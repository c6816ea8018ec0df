"""hypothesis strategies for hostile input: turn texts and mutated mail.

Turn texts are mostly lines of the turn language (so that many are accepted and
change the standing turn), mixed with near misses and arbitrary text. Mail
starts from the real messages of tests/mail/corpus and is corrupted: bytes
replaced, inserted or cut off, charsets and transfer encodings swapped, MIME
boundaries broken, huge headers added, headers dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS

CORPUS = Path(__file__).resolve().parent.parent / "mail" / "corpus"
CORPUS_NAMES = sorted(p.name for p in CORPUS.glob("*.eml"))

gems = st.sampled_from(GEMS)
locations = st.sampled_from(LOCATIONS)
langs = st.sampled_from(["en", "de"])


def _gem_text(gem, lang: str, as_words: bool) -> str:
    if not as_words:
        return gem.code
    return " ".join(a.word(lang) for a in (gem.colour, gem.kind, gem.size))


@st.composite
def tip_lines(draw) -> str:
    lang, words = draw(langs), draw(st.booleans())
    keyword = draw(st.sampled_from(["TIP", "tip", "TIPP", "Tipp"]))
    items = draw(st.lists(st.tuples(locations, gems), min_size=1, max_size=4))
    return f"{keyword} " + ", ".join(f"{loc} {_gem_text(g, lang, words)}" for loc, g in items)


@st.composite
def question_lines(draw) -> str:
    keyword = draw(st.sampled_from(["QUESTION", "question", "FRAGE", "Frage"]))
    if draw(st.integers(0, 9)) == 0:
        return f"{keyword} {draw(st.sampled_from(['NONE', 'KEINE', 'none']))}"
    lang = draw(langs)
    attributes = draw(st.lists(st.sampled_from(ATTRIBUTES), min_size=1, max_size=3))
    place = draw(st.sampled_from([*PLACEHOLDERS, "X", "H"]))
    return f"{keyword} {place} " + " ".join(a.word(lang) for a in attributes)


@st.composite
def drop_lines(draw) -> str:
    keyword = draw(st.sampled_from(["DROP", "STREICHE", "drop"]))
    if draw(st.booleans()):
        return f"{keyword} {draw(st.sampled_from(['ALL', 'ALLE', 'all']))}"
    return f"{keyword} " + ", ".join(g.code for g in draw(st.lists(gems, min_size=1,
                                                                        max_size=3)))


JUNK_WORDS = ["QUESTION", "TIP", "DROP", "REPEAT", "END", "A", "X", "H", "RD1", "yo3", "red",
              "grün", "Perle", "II", ",", ";", ":", "#", "--", ">", "\t", "\x00", "\u202e",
              "\ufeff", "ß", "\u0308", "\ud800", "TIP A", "QUESTION E"]
junk_lines = st.one_of(
    st.lists(st.sampled_from(JUNK_WORDS), min_size=1, max_size=6).map(" ".join),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ").replace("\r", " ")),
)
plain_lines = st.sampled_from(["REPEAT", "WIEDERHOLE", "END", "ENDE", "# a comment", "",
                               "   ", "// note"])
turn_lines = st.one_of(tip_lines(), tip_lines(), question_lines(), drop_lines(),
                       plain_lines, junk_lines)
turn_texts = st.builds(lambda lines, sep: sep.join(lines),
                       st.lists(turn_lines, min_size=1, max_size=8),
                       st.sampled_from(["\n", "\r\n", "\n\n"]))


# --- mail ---------------------------------------------------------------------------------

CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "windows-1252", "utf-16", "utf-32", "utf-7",
            "koi8-r", "shift_jis", "iso-2022-jp", "x-unknown", "", "utf-8\x00", '"', "idna",
            "rot13", "base64", "unicode-escape"]
ENCODINGS = ["base64", "quoted-printable", "7bit", "8bit", "binary", "x-uuencode", "bogus",
             ""]
HEADERS = [b"To", b"From", b"Content-Type", b"MIME-Version", b"Message-ID", b"Subject",
           b"In-Reply-To", b"Content-Transfer-Encoding", b"Delivered-To"]
Mutation = Callable[[bytes], bytes]


def _at(raw: bytes, fraction: float) -> int:
    return int(len(raw) * fraction)


fractions = st.floats(0, 1)
replace_bytes = st.builds(lambda f, n, new: lambda raw: raw[:_at(raw, f)] + new
                          + raw[_at(raw, f) + n:], fractions, st.integers(0, 32),
                          st.binary(max_size=32))
insert_bytes = st.builds(lambda f, new: lambda raw: raw[:_at(raw, f)] + new + raw[_at(raw, f):],
                         fractions, st.binary(min_size=1, max_size=64))
truncate = st.builds(lambda f: lambda raw: raw[:max(1, _at(raw, f))], fractions)
swap_charset = st.builds(
    lambda cs: lambda raw: re.sub(rb'charset="?[^";\s]*"?', b'charset="' + cs.encode() + b'"',
                                  raw, flags=re.IGNORECASE), st.sampled_from(CHARSETS))
swap_encoding = st.builds(
    lambda enc: lambda raw: re.sub(rb"(Content-Transfer-Encoding:)[^\r\n]*",
                                   rb"\1 " + enc.encode(), raw, flags=re.IGNORECASE),
    st.sampled_from(ENCODINGS))
break_boundary = st.sampled_from([
    lambda raw: re.sub(rb'boundary="?([^";\s]+)"?', rb'boundary="\1-broken"', raw),
    lambda raw: re.sub(rb"\n--[^\n]*--\s*$", b"\n", raw),
    lambda raw: re.sub(rb'boundary="?[^";\s]+"?', b"boundary=", raw),
    lambda raw: raw.replace(b"multipart/alternative", b"multipart/mixed"),
    lambda raw: raw.replace(b"text/plain", b"text/html"),
])
huge_header = st.builds(
    lambda name, n, unit: lambda raw: name + b": " + unit * n + b"\r\n" + raw,
    st.sampled_from([b"Subject", b"X-Junk", b"To", b"References", b"Received"]),
    st.integers(1, 40_000),
    st.sampled_from([b"A", b"=?utf-8?b?w6TDtsO8?= ", b"\r\n ", b"<x@y> ", b"\xff"]))
drop_header = st.builds(
    lambda name: lambda raw: re.sub(rb"(?im)^" + name + rb":[^\n]*\n", b"", raw, count=1),
    st.sampled_from(HEADERS))
mutations = st.one_of(replace_bytes, insert_bytes, truncate, swap_charset, swap_encoding,
                      break_boundary, huge_header, drop_header)


def with_turn(raw: bytes, text: str) -> bytes:
    """``raw`` with ``text`` as the first lines of its (first) body."""
    lines = text.encode("utf-8", "surrogatepass")  # lone surrogates: bytes no mailer sends
    head, sep, body = raw.partition(b"\n\n")
    if not sep:
        return raw + b"\n\n" + lines
    return head + sep + lines + b"\n" + body


def unique_message_id(raw: bytes, n: int) -> bytes:
    """``raw`` with a Message-ID of its own, so it is not dropped as a duplicate."""
    return re.sub(rb"(?im)^Message-I[dD]: <", f"Message-ID: <fuzz{n}.".encode(), raw, count=1)
