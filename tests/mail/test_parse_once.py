"""Parsing a mail once: header-only parsing for the summary, each header parsed once."""

from __future__ import annotations

import random

from vpsleuth.mail import mime

from .support import CORPUS


def summary(msg) -> tuple:
    return (mime.message_id(msg), mime.sender(msg), mime.header(msg, "Subject"))


def mangled(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 12)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data[:rng.randrange(1, len(data) + 1)])


def test_the_header_only_parse_reads_the_same_summary_as_a_full_parse_even_of_mangled_mail():
    rng = random.Random(5)
    raws = [path.read_bytes() for path in sorted(CORPUS.glob("*.eml"))]
    raws += [mangled(raw, rng) for raw in raws for _ in range(20)]
    raws += [b"garbage", b"Subject: =?utf-8?q?Zug_f=C3=BCr_Runde_3?=\n\nx", b"\xff\xfe\x00"]
    for raw in raws:
        assert summary(mime.parse_headers(raw)) == summary(mime.parse(raw)), raw[:200]
    assert len(raws) > 300


def test_a_header_read_again_is_the_same_parsed_header():
    msg = mime.parse((CORPUS / "gmail_reply.eml").read_bytes())
    assert msg["Subject"] is msg["Subject"]
    plain = msg.get_body(preferencelist=("plain",))
    assert plain["Content-Type"] is plain["Content-Type"]
    assert plain.get_content_type() == "text/plain"


def test_each_mail_parsed_keeps_its_own_headers():
    first = mime.parse(b"Subject: one\nTo: a+1.aaaaaaaaaaaaaaaa@example.org\n\nx")
    second = mime.parse(b"Subject: two\nTo: b@example.org\n\ny")
    assert first.policy.header_factory is not second.policy.header_factory
    assert (mime.header(first, "Subject"), mime.header(second, "Subject")) == ("one", "two")
    assert mime.addresses(second) == ["b@example.org"]
