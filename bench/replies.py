"""Replies to a round mail, built the way four common mail clients build them.

Each reply answers the round mail a player really got (the outbox row): it
replies to its Message-ID, carries the reply key in To, and quotes the
original the client's way, so the pipeline has to strip the quote (which holds
a ready turn, "QUESTION E blue opal", that must never be read as the
player's). The turns are valid and seeded: every message should be applied.

* Gmail: multipart/alternative, top-posted, "On ... wrote:" over a "> " quote,
  the HTML part quoting the round mail's HTML in a blockquote;
* Thunderbird: format=flowed plain text, bottom-posted below the quote, with a
  "-- " signature;
* Outlook: multipart/alternative, quoted-printable windows-1252, the turn above
  "-----Original Message-----" and an unquoted copy of the original;
* Apple Mail (iPhone): quoted-printable UTF-8, "Von meinem iPhone gesendet",
  then "Am ... schrieb ...:" and the quote.
"""

from __future__ import annotations

import email.policy
import html
import random
from email.message import EmailMessage

from vpsleuth.orders import format_turn, parse_turn
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, QuestionError, make_question

STYLES = ("gmail", "thunderbird", "outlook", "apple")
_WORDS = {"en": ("QUESTION", "TIP", "DROP", "REPEAT"), "de": ("FRAGE", "TIPP", "STREICHE",
                                                               "WIEDERHOLE")}


def turn_text(rng: random.Random, lang: str, first: bool) -> str:
    """A valid turn as a person types it: a question, tips in codes and words, a drop."""
    ask, tip, drop, repeat = _WORDS[lang]
    lines = [repeat] if first or rng.random() < 0.2 else []
    if rng.random() < 0.7:
        while True:
            try:
                question = make_question(rng.choice(PLACEHOLDERS),
                                         rng.sample(ATTRIBUTES, rng.choice((1, 2))))
                break
            except QuestionError:  # two attributes of one category
                continue
        lines.append(format_turn(question, {}, lang).strip())
    gems = rng.sample(GEMS, rng.randint(2, 8))
    if rng.random() < 0.3:
        lines.append(f"{drop} {gems.pop().code}")
    while gems:
        style = rng.random()
        if style < 0.4:  # several on one line: TIP A RD1, B GP2
            some, gems = gems[:3], gems[3:]
            lines.append(f"{tip} " + ", ".join(f"{rng.choice(LOCATIONS)} {g.code}" for g in some))
        elif style < 0.7:  # in words: TIP D green pearl pair
            lines.append(f"{tip} {rng.choice(LOCATIONS)} {gems.pop().name(lang)}")
        else:
            lines.append(f"{tip} {rng.choice(LOCATIONS)} {gems.pop().code.lower()}")
    text = "\n".join(lines)
    parsed = parse_turn(text)
    if not parsed.ok:  # a bug in this generator, not in what is measured
        raise SystemExit(f"generated an invalid turn {text!r}: {parsed.errors}")
    return text


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.rstrip("\n").split("\n"))


def _flowed(text: str, width: int = 72) -> str:
    """Plain text as format=flowed: long lines soft-broken (a trailing space), quotes kept."""
    out = []
    for line in text.split("\n"):
        prefix = "> " if line.startswith(">") else ""
        body = line[len(prefix):] if prefix else line
        while len(prefix + body) > width and " " in body[:width - len(prefix)]:
            cut = body.rindex(" ", 0, width - len(prefix)) + 1
            out.append(prefix + body[:cut])
            body = body[cut:]
        out.append(prefix + body)
    return "\n".join(out)


def reply(style: str, number: int, *, player_name: str, player_email: str, to: str,
          subject: str, in_reply_to: str, original_text: str, original_html: str | None,
          turn: str, lang: str) -> bytes:
    """One reply to the round mail (``original_*``) in the given client ``style``."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = f"{player_name} <{player_email}>"
    msg["To"] = f"VP-Sleuth <{to}>"
    msg["Date"] = f"Tue, 1 Dec 2026 {8 + number % 12:02d}:{number % 60:02d}:07 +0100"
    msg["Message-ID"] = f"<{style}-{number}-{player_email.replace('@', '.')}@example.org>"
    msg["In-Reply-To"] = in_reply_to
    msg["References"] = in_reply_to
    prefix = "AW: " if lang == "de" else "RE: " if style == "outlook" else "Re: "
    msg["Subject"] = prefix + subject
    sent = "Mon, 30 Nov 2026 at 09:00"
    if style == "gmail":
        plain = (f"{turn}\n\nOn {sent}, VP-Sleuth <vpsleuth@localhost> wrote:\n\n"
                 f"{_quote(original_text)}\n")
        msg.set_content(plain)
        quoted = original_html or html.escape(original_text).replace("\n", "<br>")
        msg.add_alternative(
            '<div dir="ltr">' + "".join(f"<div>{html.escape(line)}</div>"
                                        for line in turn.split("\n"))
            + '</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On '
            f'{sent} VP-Sleuth &lt;vpsleuth@localhost&gt; wrote:<br></div><blockquote '
            'class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
            f'rgb(204,204,204);padding-left:1ex">{quoted}</blockquote></div>', subtype="html")
    elif style == "thunderbird":
        msg["User-Agent"] = "Mozilla Thunderbird"
        msg["Content-Language"] = "de-DE" if lang == "de" else "en-GB"
        plain = (f"On 30.11.26 09:00, VP-Sleuth wrote:\n{_quote(original_text)}\n\n{turn}\n\n"
                 f"-- \n{player_name}\n")
        msg.set_content(_flowed(plain), params={"format": "flowed"})
    elif style == "outlook":
        msg["Thread-Topic"] = subject
        msg["Content-Language"] = "de-DE" if lang == "de" else "en-US"
        plain = (f"{turn}\n\n-----Original Message-----\nFrom: VP-Sleuth <vpsleuth@localhost>\n"
                 f"Sent: Monday, November 30, 2026 9:00 AM\nTo: {player_name} <{player_email}>\n"
                 f"Subject: {subject}\n\n{original_text}")
        msg.set_content(plain, charset="windows-1252", cte="quoted-printable")
        msg.add_alternative(
            "<html><body><div>" + "<br>".join(html.escape(line) for line in turn.split("\n"))
            + "</div><hr><div><b>From:</b> VP-Sleuth<br><b>Sent:</b> Monday, November 30, "
            f"2026 9:00 AM</div>{original_html or ''}</body></html>", subtype="html",
            charset="windows-1252", cte="quoted-printable")
    else:
        msg["X-Mailer"] = "iPhone Mail (22B83)"
        footer = "Von meinem iPhone gesendet" if lang == "de" else "Sent from my iPhone"
        attribution = ("Am 30.11.2026 um 09:00 schrieb VP-Sleuth <vpsleuth@localhost>:"
                       if lang == "de" else
                       "On 30 Nov 2026, at 09:00, VP-Sleuth <vpsleuth@localhost> wrote:")
        plain = f"{turn}\n\n{footer}\n\n> {attribution}\n>\n{_quote(original_text)}\n"
        msg.set_content(plain, charset="utf-8", cte="quoted-printable")
    return msg.as_bytes()
