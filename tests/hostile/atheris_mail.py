"""Coverage-guided fuzzing (atheris, libFuzzer) of how a received mail is read.

Run by test_mail_fuzz.py as ``python atheris_mail.py [libFuzzer options] CORPUS``.
The decoding steps of the inbound pipeline are pure (mime, classify, reply,
parse_turn) and promise never to raise on bad input; libFuzzer mutates the
corpus, guided by the coverage of those modules and of the stdlib email
parser, and stops with the input and its traceback at the first exception.
"""

import sys

import atheris

with atheris.instrument_imports(include=["vpsleuth.mail.inbound", "vpsleuth.orders", "email"]):
    from vpsleuth.mail import mime
    from vpsleuth.mail.inbound import classify, reply
    from vpsleuth.orders import parse_turn

HEADERS = ("From", "To", "Subject", "Message-ID", "In-Reply-To", "References",
           "Content-Language", "Auto-Submitted")


def read_like_the_pipeline(data: bytes) -> None:
    """Every decoding step the pipeline takes, with what each promises about its result."""
    msg = mime.parse(data)
    for name in HEADERS:
        assert isinstance(mime.header(msg, name), str)
    assert all("@" in a for a in mime.addresses(msg))
    sender = mime.sender(msg)
    assert len(sender) <= 254 and "\n" not in sender and sender == sender.lower()
    assert "\x00" not in (mime.message_id(msg) or "")
    classify.why_ignored(msg)
    body = mime.body_text(msg)
    if body is None:
        return
    written = {line.rstrip() for line in body.split("\n")}
    text = reply.strip_reply(body)
    # Stripping only removes or blanks lines: it never writes a line of its own.
    assert all(not line or line in written for line in text.split("\n"))
    parsed = parse_turn(text)
    assert parsed.ok == (not parsed.errors)


if __name__ == "__main__":
    atheris.Setup(sys.argv, read_like_the_pipeline)
    atheris.Fuzz()
