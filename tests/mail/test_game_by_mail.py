"""A whole game played by mail alone, from the invitations to the final report.

Every mail the service sends goes through a real SMTP server (the aiosmtpd sink
of tests/smtp_sink.py); every turn is a reply, written as a mail client writes
one, put into a real IMAP mailbox (Dovecot, tests/mail/conftest.py); only the
scheduler's jobs (jobs.run_all) move the game on. The deal is seeded, so the
test knows where every gem lies and works out itself what the turns earn.

The inbound pipeline applies turns on the real clock, so the deadlines lie in
the real future (weekly, the first a week ahead) and the jobs travel in time
only to cross a deadline: one tick just before it (the heartbeat, so the
outage rule sees no outage), one just after it.
"""

from __future__ import annotations

import hashlib
import imaplib
import re
import time
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid

import pytest
from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.models import InboundMessage, OutboxMessage, utcnow
from vpsleuth.orders import format_turn
from vpsleuth.rules import GEM_BY_CODE, GEMS, Distribution, Gem, Ruleset, deal, parse_question
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, resolution, turns

from .support import Mailbox

SEED = 11
RULES = Ruleset(rounds=3, first_bonus_round=2)  # bonuses 3, 2, 1; +1 right, -2 wrong
ADA, BEN = "ada@example.org", "ben@example.org"
KIND = re.compile(r"^<[0-9a-f]{32}\.(\w+)@sleuth\.test>$")
COMMITMENT = re.compile(r"(?:Commitment published at the start|Zu Beginn veröffentlichte "
                        r"Prüfsumme): ([0-9a-f]{64})$", re.MULTILINE)
CHECK = re.compile(r"printf '%s' '([0-9a-f]+):([^']+)' \| sha256sum")


@pytest.fixture
def app(app, sink):
    """The usual app (one database, emptied), built again to send its mail to the sink."""
    with mailing_to(app, sink) as mailing:
        yield mailing


@pytest.fixture
def inbox(app, dovecot):
    """The IMAP user's INBOX, emptied, polled by the app; a done folder of this test's own."""
    host, port, user, password = dovecot
    done = f"done-{time.monotonic_ns()}"
    app.config.update(IMAP_HOST=host, IMAP_PORT=port, IMAP_SSL=False, IMAP_STARTTLS=False,
                      IMAP_USER=user, IMAP_PASSWORD=password, IMAP_FOLDER="INBOX",
                      IMAP_DONE_FOLDER=done)
    conn = imaplib.IMAP4(host, port)
    conn.login(user, password)
    conn.select("INBOX")
    for num in conn.search(None, "ALL")[1][0].split():  # left by an earlier failed run
        conn.store(num, "+FLAGS.SILENT", r"(\Deleted)")
    conn.expunge()
    conn.close()
    yield Mailbox(conn, "INBOX", done)
    conn.logout()


@dataclass
class PlayerTurn:
    """The turn lines of one player's mail in one round, and what they should leave standing."""

    lines: list[str]
    question: str | None  # as parse_question reads it, e.g. "A blue"
    tips: dict[Gem, str]
    answer: int | None = None  # the answer to the question, counted from the deal


def plan(dist: Distribution) -> list[dict[str, PlayerTurn]]:
    """The turns of rounds 1-3, chosen from where the gems lie."""

    def count(location: str, test) -> int:  # the answer to a question about the location
        return sum(1 for g in dist.holding(location) if test(g.code))

    a1, a2 = dist.holding("A")[:2]
    b1, d1, x = dist.holding("B")[0], dist.holding("D")[0], dist.holding("X")[0]
    greens = [g for g in sorted(GEMS, key=lambda g: g.code)
              if g.code[0] == "G" and dist[g] in "CFG"][:2]  # German names with "grün"
    extra = [g for g in dist.holding("E") if g not in greens][:2]
    ada1 = {a1: "A", a2: "A", b1: "C"}  # two right, b1 wrong
    ben1 = {g: dist[g] for g in greens} | {x: "X"}  # three right
    ada2 = ada1 | {b1: "B", d1: "D"}  # four right
    ben2 = ben1 | {d1: "A"}  # three right, d1 wrong
    ben3 = {g: loc for g, loc in ben2.items() if g != d1} | dict.fromkeys(extra, "E")
    turn = PlayerTurn
    return [
        {"Ada": turn(["QUESTION A blue", f"TIP A {a1.code}, {a2.code}", f"TIP C {b1.code}"],
                     "A blue", ada1, count("A", lambda c: c[0] == "B")),
         "Ben": turn(["FRAGE C Diamant", *(f"TIPP {dist[g]} {g.name('de')}" for g in greens),
                      f"TIPP X {x.name('de')}"],
                     "C diamond", ben1, count("C", lambda c: c[1] == "D"))},
        {"Ada": turn(["QUESTION B red diamond", "REPEAT", f"TIP B {b1.code}", f"TIP D {d1.code}"],
                     "B red diamond", ada2, count("B", lambda c: c.startswith("RD"))),
         "Ben": turn(["WIEDERHOLE", f"TIPP A {d1.name('de')}"], None, ben2)},
        {"Ada": turn(["REPEAT"], None, ada2),
         "Ben": turn(["WIEDERHOLE", f"STREICHE {d1.code}",
                      *(f"TIPP E {g.name('de')}" for g in extra)], None, ben3)},
    ]


def earned(rounds: list[dict[str, PlayerTurn]], dist: Distribution) -> dict[str, list[int]]:
    """Each player's total after each round: +1 right, -2 wrong, bonus 3/2/1 from round 2."""
    totals: dict[str, list[int]] = {"Ada": [], "Ben": []}
    for number, plays in enumerate(rounds, 1):
        right = {n: sum(1 for g, loc in t.tips.items() if dist[g] == loc) for n, t in plays.items()}
        levels = sorted({r for r in right.values() if r > 0}, reverse=True)
        for name, turn in plays.items():
            bonus = (RULES.bonuses[levels.index(right[name])]
                     if number >= RULES.first_bonus_round and right[name] > 0 else 0)
            points = right[name] - 2 * (len(turn.tips) - right[name]) + bonus
            totals[name].append((totals[name][-1] if totals[name] else 0) + points)
    return totals


def text_of(mail: EmailMessage) -> str:
    return mail.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(mail: EmailMessage) -> str:
    return mail.get_body(("html",)).get_content()


def kind(mail: EmailMessage) -> str:
    return KIND.match(mail["Message-ID"]).group(1)


def message_id(raw: bytes) -> bytes:
    return re.search(rb"^Message-ID: (<[^>]+>)", raw, re.MULTILINE | re.IGNORECASE).group(1)


class Post:
    """The sink's mails per recipient, and which of them are new since the last look."""

    def __init__(self, sink) -> None:
        self.sink, self.seen = sink, Counter()

    def new(self, address: str) -> list[EmailMessage]:
        mails = self.sink.to(address)
        fresh, self.seen[address] = mails[self.seen[address]:], len(mails)
        return fresh


def reply(to: EmailMessage, lines: list[str], *, german: bool = False) -> bytes:
    """A reply as a mail client writes it: Ada top-posts in UTF-8; Ben writes below the
    quote in ISO-8859-1, quoted-printable, with a signature."""
    quote = "\n".join(f"> {line}" if line else ">" for line in text_of(to).rstrip().split("\n"))
    turn = "\n".join(lines)
    msg = EmailMessage()
    msg["From"] = "Ben Beispiel <ben@example.org>" if german else "Ada Lovelace <ada@example.org>"
    msg["To"] = to["Reply-To"]
    msg["Subject"] = f"Re: {to['Subject']}"
    msg["Date"] = formatdate()
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = to["Message-ID"]
    msg["References"] = to["Message-ID"]
    if german:
        msg["Content-Language"] = "de-DE"
        body = f"Am {to['Date']} schrieb VP-Sleuth:\n{quote}\n\n{turn}\n\n-- \nBen aus Köln\n"
        msg.set_content(body, charset="iso-8859-1", cte="quoted-printable")
    else:
        msg.set_content(f"{turn}\n\nOn {to['Date']}, {to['From']} wrote:\n{quote}\n")
    return msg.as_bytes(policy=SMTP)


def tick(app, now=None) -> dict:
    """Every scheduler job once, at ``now`` (default: the real clock); none may fail."""
    db.session.commit()
    results = jobs.run_all(app, now)
    assert [job for job, result in results.items() if result is None] == []
    assert results["poll-imap"].errors == [] and results["poll-imap"].left == 0
    db.session.expire_all()
    return results


def deliver(app, inbox: Mailbox, *mails: bytes) -> None:
    """The replies reach the mailbox; a tick fetches and applies them, the next sends answers."""
    for raw in mails:
        inbox.append(raw)
    assert len(tick(app)["poll-imap"].stored) == len(mails)
    tick(app)


def only(mails: list[EmailMessage], expected: str) -> EmailMessage:
    assert [kind(m) for m in mails] == [expected]
    return mails[0]


def found(pattern: re.Pattern, text: str) -> tuple[str, ...]:
    match = pattern.search(text)
    assert match is not None, f"{pattern.pattern!r} not in:\n{text}"
    return match.groups()


def test_a_whole_game_is_played_by_mail_from_the_invitations_to_the_final_report(
        app, sink, inbox):
    dist, post = deal(SEED), Post(sink)
    rounds = plan(dist)
    expected = earned(rounds, dist)
    assert expected == {"Ada": [0, 7, 13], "Ben": [3, 6, 14]}  # the plan is as meant
    first = to_local(utcnow() + timedelta(days=7), "Europe/Berlin")
    game = games.create_game("By mail", weekly(first.strftime("%Y-%m-%d 20:00"),
                                               "Europe/Berlin"), RULES)
    players = {ADA: games.add_player(game, "Ada", ADA, language="en"),
               BEN: games.add_player(game, "Ben", BEN, language="de")}
    tick(app)
    assert [kind(m) for m in post.new(ADA) + post.new(BEN)] == ["invitation", "invitation"]

    games.start_game(game, seed=SEED)
    tick(app)
    mail = {ADA: only(post.new(ADA), "round_opened"), BEN: only(post.new(BEN), "round_opened")}
    (commitment,) = found(COMMITMENT, text_of(mail[ADA]))
    assert found(COMMITMENT, text_of(mail[BEN])) == (commitment,)
    replies: list[tuple[bytes, list[str]]] = []  # each reply, and the turn lines in it

    for number, sent_turns in enumerate(rounds, 1):
        ada, ben = sent_turns["Ada"], sent_turns["Ben"]
        lines = [ada.lines[:2] + ["TIP H RD1"] if number == 1 else ada.lines, ben.lines]
        sent = [reply(mail[ADA], lines[0]), reply(mail[BEN], lines[1], german=True)]
        if number == 1:  # Ada's first try has a bad third line; Ben writes Latin-1
            assert b"quoted-printable" in sent[1] and b"gr=FCn" in sent[1]
        replies += zip(sent, lines, strict=True)
        deliver(app, inbox, *sent)
        if number == 1:
            refusal = text_of(only(post.new(ADA), "refused"))
            assert "line 3: 'H' is not a location; tips go to A-G or X (nobody)" in refusal
            assert "write: TIP <A-G or X> <gem>, e.g. TIP A RD1" in refusal
            assert "line 1:" not in refusal and "line 2:" not in refusal
            replies.append((reply(sink.to(ADA)[-1], ada.lines), ada.lines))  # to the refusal
            deliver(app, inbox, replies[-1][0])
        for address, turn, lang in ((ADA, ada, "en"), (BEN, ben, "de")):
            echo = text_of(only(post.new(address), "confirmation"))
            question = parse_question(turn.question) if turn.question else None
            assert format_turn(question, turn.tips, lang) in echo

        deadline = game.open_round.deadline
        assert tick(app, deadline - timedelta(minutes=1))["resolve-due-rounds"] == []
        assert post.new(ADA) == [] and post.new(BEN) == []
        assert tick(app, deadline + timedelta(minutes=1))["resolve-due-rounds"] == [
            (game.id, number)]
        final = number == len(rounds)
        for address in (ADA, BEN):
            arrived = post.new(address)
            assert [kind(m) for m in arrived] == (
                ["final_report"] if final else ["report", "round_opened"])
            mail[address] = arrived[-1]
        report = text_of(sink.to(ADA)[-1 if final else -2])
        for name, turn in sent_turns.items():
            if turn.answer is not None:
                assert re.search(rf"^{name} +.+ Answer: {turn.answer}$", report, re.MULTILINE)

    # The final report: standings as the turns earned them, the secret and its check.
    for address, winner in ((ADA, "Winner: Ben"), (BEN, "Sieger: Ben")):
        final_text = text_of(mail[address])
        assert winner in final_text
        for name, totals in expected.items():
            assert re.search(rf"^{name} +{' +'.join(map(str, totals))}$", final_text,
                             re.MULTILINE), (name, final_text)
        salt, revealed = found(CHECK, final_text)
        assert revealed == dist.canonical()
        assert hashlib.sha256(f"{salt}:{revealed}".encode()).hexdigest() == commitment

    # Nothing before the final report gave the secret away, in text or HTML.
    secrets = [salt, dist.canonical(), *dist.canonical().split(";"),
               *(f"{loc}: " + " ".join(g.code for g in dist.holding(loc)) for loc in "ABCDEFG")]
    assert [s for s in secrets if s not in text_of(mail[ADA])] == []  # as the final report has it
    for m in sink.messages:
        if kind(m) != "final_report":
            body = text_of(m) + html_of(m)
            assert [s for s in secrets if s in body] == [], m["Subject"]

    # Every mail arrived exactly once, each with its own player's reply key.
    ids = sink.message_ids()
    assert sorted(Counter(ids).values()) == [1] * len(ids)
    sent_rows = list(db.session.scalars(select(OutboxMessage)))
    assert {r.status for r in sent_rows} == {"sent"}
    assert sorted(r.message_id for r in sent_rows) == sorted(ids)
    assert len(sink.to(ADA)) == 11 and len(sink.to(BEN)) == 10
    for address, player in players.items():
        assert {m["Reply-To"] for m in sink.to(address)} == {keys.reply_address(player)}
    assert keys.reply_address(players[ADA]) != keys.reply_address(players[BEN])

    # Every reply was fetched once, read without its quote, and moved out of INBOX.
    assert inbox.messages("INBOX") == []
    done = Counter(message_id(raw) for raw in inbox.messages(inbox.done))
    assert done == Counter(message_id(raw) for raw, _ in replies)
    received = list(db.session.scalars(select(InboundMessage).order_by(InboundMessage.id)))
    assert [(r.source, r.status) for r in received] == (
        [("imap", "refused")] + [("imap", "applied")] * 6)
    assert [[line for line in r.body_text.split("\n") if line] for r in received] == [
        lines for _, lines in replies]


def test_a_gem_withdrawn_in_the_same_reply_as_a_repeat_is_not_repeated(app, game, ben):
    # Found by the game above: "WIEDERHOLE" and "STREICHE BD1" in one reply left BD1 standing.
    turns.submit_turn(ben, "TIPP A RD1, B BD1", channel="email")
    resolution.resolve_round(game, now=game.open_round.deadline + timedelta(minutes=1))
    sub = turns.submit_turn(ben, "WIEDERHOLE\nSTREICHE RD1", channel="email")
    assert (sub.round.number, sub.standing.tips) == (2, {GEM_BY_CODE["BD1"]: "B"})
