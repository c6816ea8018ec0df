"""Threads, as the mails arrive at a real SMTP server: every reply answers the mail it
replies to (RFC 5322 In-Reply-To, References, "Re:"; RFC 3834 Auto-Submitted), and a
player's mails of one game reference one root, so clients show them as one thread.
"""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid

import pytest
from smtp_sink import mail_config
from sqlalchemy import select

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.mail import keys, outbox, threads
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import OutboxMessage, Player
from vpsleuth.services import games, resolution, turns

OURS = re.compile(r"^<[0-9a-f]{32}\.\w+@sleuth\.test>$")


@pytest.fixture
def app(app, sink):
    """The usual app (one database, emptied), built again to send its mail to the sink."""
    mailing = create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                          **mail_config(sink.port), "DATABASE_KIND": app.config["DATABASE_KIND"]})
    mailing.instance_path = app.instance_path
    with mailing.app_context():
        yield mailing
        db.session.remove()
        db.engine.dispose()


def delivered(sink, address: str) -> list[EmailMessage]:
    """Send what waits in the outbox; every mail the sink has for ``address``."""
    db.session.commit()
    outbox.send_due()
    return sink.to(address)


def newest(sink, address: str) -> EmailMessage:
    return delivered(sink, address)[-1]


def reply_to(mail: EmailMessage, player: Player, text: str, *, subject: str | None = None,
             references: str | None = None, in_reply_to: str | None = None) -> EmailMessage:
    """The player's reply to one of our mails, as a mail client writes it."""
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = mail["Reply-To"]
    msg["Subject"] = subject if subject is not None else f"Re: {mail['Subject']}"
    msg["Date"] = formatdate()
    msg["Message-ID"] = make_msgid(domain="client.example.org")
    msg["In-Reply-To"] = in_reply_to if in_reply_to is not None else mail["Message-ID"]
    msg["References"] = (references if references is not None
                         else " ".join(filter(None, [mail["References"], mail["Message-ID"]])))
    msg.set_content(text)
    return msg


def send(msg: EmailMessage) -> None:
    ingest(msg.as_bytes(policy=SMTP), "smtp")


def ids(value: str | None) -> list[str]:
    return re.findall(r"<[^<>\s]+>", value or "")


def test_a_players_mails_of_one_game_reference_one_root_of_their_own(app, sink, game, ada, ben):
    resolution.resolve_round(game, now=game.open_round.deadline)
    roots = {}
    for player in (ada, ben):
        mails = delivered(sink, player.email)
        kinds = [m["Message-ID"].split(".")[1].split("@")[0] for m in mails]
        assert kinds == ["invitation", "round_opened", "report", "round_opened"]
        for mail in mails:
            assert OURS.match(mail["Message-ID"])  # our own domain, not the machine's name
            assert mail["Auto-Submitted"] == "auto-generated"
            assert mail["In-Reply-To"] is None  # they answer nothing
            assert mail["Reply-To"] == keys.reply_address(player)
        (roots[player.name],) = {m["References"] for m in mails}
        assert re.fullmatch(rf"<game-{game.id}\.player-{player.id}\.[0-9a-f]{{20}}@sleuth\.test>",
                            roots[player.name])
    assert roots["Ada"] != roots["Ben"]
    assert roots["Ada"] not in {m["Message-ID"] for m in sink.messages}  # a root no mail has


def test_a_confirmation_answers_the_reply_it_confirms(app, sink, game, ada):
    round_mail = delivered(sink, ada.email)[-1]
    mine = reply_to(round_mail, ada, "QUESTION A red\nTIP B BP2\n")
    send(mine)
    confirmation = newest(sink, ada.email)
    assert "QUESTION A red" in confirmation.get_body(("plain",)).get_content()
    assert confirmation["In-Reply-To"] == mine["Message-ID"]
    assert ids(confirmation["References"]) == [
        threads.game_thread(game, ada), round_mail["Message-ID"], mine["Message-ID"]]
    assert confirmation["Subject"] == mine["Subject"]  # "Re: ..." already: not "Re: Re:"
    assert confirmation["Subject"].startswith("Re: Corpus: round 1 is open")
    assert confirmation["Auto-Submitted"] == "auto-replied"
    assert confirmation["Reply-To"] == keys.reply_address(ada)
    assert OURS.match(confirmation["Message-ID"])


def test_a_refusal_answers_in_the_thread_and_keeps_a_german_aw(app, sink, game, ben):
    round_mail = delivered(sink, ben.email)[-1]
    mine = reply_to(round_mail, ben, "TIPP H RD1\n", subject=f"AW: {round_mail['Subject']}")
    send(mine)
    refusal = newest(sink, ben.email)
    assert "keine Zugzeilen" in refusal.get_body(("plain",)).get_content()
    assert refusal["Subject"] == mine["Subject"]
    assert refusal["In-Reply-To"] == mine["Message-ID"]
    assert ids(refusal["References"])[-2:] == [round_mail["Message-ID"], mine["Message-ID"]]
    assert refusal["Auto-Submitted"] == "auto-replied"


def test_a_reply_under_a_new_subject_gets_re_and_that_subject(app, sink, game, ada):
    send(reply_to(delivered(sink, ada.email)[-1], ada, "TIP A RD1\n", subject="my turn"))
    assert newest(sink, ada.email)["Subject"] == "Re: my turn"


def test_a_mail_with_only_in_reply_to_is_referenced_through_it(app, sink, game, ada):
    round_mail = delivered(sink, ada.email)[-1]
    mine = reply_to(round_mail, ada, "TIP A RD1\n", references="")
    del mine["References"]
    send(mine)
    answer = newest(sink, ada.email)
    assert ids(answer["References"]) == [round_mail["Message-ID"], mine["Message-ID"]]


def test_a_mail_that_could_not_be_matched_is_answered_in_its_thread(app, sink, game):
    stranger = EmailMessage()
    stranger["From"] = "A Stranger <stranger@example.com>"
    stranger["To"] = app.config["REPLY_ADDRESS"]
    stranger["Subject"] = "How do I join?"
    stranger["Message-ID"] = "<question-1@example.com>"
    stranger.set_content("QUESTION A red\n")
    send(stranger)
    (answer,) = delivered(sink, "stranger@example.com")
    assert "could not tell which game" in answer.get_body(("plain",)).get_content()
    assert answer["Subject"] == "Re: How do I join?"
    assert answer["In-Reply-To"] == answer["References"] == "<question-1@example.com>"
    assert answer["Auto-Submitted"] == "auto-replied"
    assert answer["Reply-To"] is None  # no player, no key


def test_the_notice_over_the_hourly_limit_answers_the_mail_set_aside(app, sink, game, ada):
    app.config["INBOUND_PER_SENDER_PER_HOUR"] = 1
    round_mail = delivered(sink, ada.email)[-1]
    send(reply_to(round_mail, ada, "TIP A RD1\n"))
    second = reply_to(round_mail, ada, "TIP A RD2\n")
    send(second)
    notice = newest(sink, ada.email)
    assert "more than 1 mails" in notice.get_body(("plain",)).get_content()
    assert notice["In-Reply-To"] == second["Message-ID"]
    assert notice["Auto-Submitted"] == "auto-replied"


def test_hostile_headers_give_a_one_line_subject_and_only_real_message_ids(app, sink, game,
                                                                          ada):
    round_mail = delivered(sink, ada.email)[-1]
    mine = reply_to(round_mail, ada, "TIP A RD1\n", subject="placeholder", references="x")
    many = " ".join(f"<old-{i}@example.org>" for i in range(100))
    raw = mine.as_bytes(policy=SMTP).replace(
        b"Subject: placeholder",
        b"Subject: =?utf-8?q?Re:_line_one=0D=0ABcc:_victim@example.org?=").replace(
        b"References: x", f"References: {many}\r\n not-an-id <with space@x> <\x7f@x>".encode())
    ingest(raw, "smtp")
    answer = newest(sink, ada.email)
    assert answer["Subject"] == "Re: line one Bcc: victim@example.org"
    assert answer["Bcc"] is None
    refs = ids(answer["References"])
    assert len(refs) == threads.MAX_REFERENCES
    assert refs[0] == "<old-0@example.org>" and refs[-1] == mine["Message-ID"]
    assert refs[-2] == "<old-99@example.org>"


def test_a_turn_from_the_web_answers_no_mail_and_keeps_our_subject(app, sink, game, ada):
    turns.submit_turn(ada, "TIP A RD1", channel="web")
    confirmation = newest(sink, ada.email)
    assert confirmation["Subject"] == "Corpus: your turn for round 1 is stored"
    assert confirmation["In-Reply-To"] is None
    assert confirmation["References"] == threads.game_thread(game, ada)
    assert confirmation["Auto-Submitted"] == "auto-generated"


def test_a_reply_to_a_confirmation_keeps_the_round_it_confirmed(app, sink, game, ada):
    """The confirmation carries the player's subject, which names no round: the round
    comes from the mail it answers."""
    send(reply_to(delivered(sink, ada.email)[-1], ada, "TIP A RD1\n", subject="my turn"))
    confirmation = newest(sink, ada.email)
    assert confirmation["Subject"] == "Re: my turn"
    resolution.resolve_round(game, now=game.open_round.deadline)
    send(reply_to(confirmation, ada, "TIP A RD2\n"))
    [refused] = db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "refused")).all()
    assert "This turn is for round 1" in refused.body_text
    assert turns.standing_turn(game.open_round, ada).is_empty


def test_a_reply_to_a_refusal_is_a_turn_for_the_open_round(app, sink, game, ada):
    round_mail = delivered(sink, ada.email)[-1]
    resolution.resolve_round(game, now=game.open_round.deadline)
    send(reply_to(round_mail, ada, "TIP A RD1\n"))  # too late for round 1
    refusal = newest(sink, ada.email)
    assert "round 2 is open" in refusal.get_body(("plain",)).get_content()
    send(reply_to(refusal, ada, "TIP A RD1\n"))
    confirmation = newest(sink, ada.email)
    assert ".confirmation@" in confirmation["Message-ID"]
    assert confirmation["In-Reply-To"] != refusal["In-Reply-To"]
    assert turns.standing_turn(game.open_round, ada).tips


@pytest.mark.parametrize("config, domain", [
    ({"REPLY_ADDRESS": "vpsleuth@games.example.org"}, "games.example.org"),
    ({"REPLY_ADDRESS": "vpsleuth@localhost",
      "MAIL_DEFAULT_SENDER": "VP-Sleuth <sleuth@Club.Example.NET>"}, "club.example.net"),
])
def test_our_message_ids_use_the_domain_of_our_own_address(app, config, domain):
    app.config.update(config)
    assert threads.message_domain() == domain
    mail = outbox.message("sign_in", "ada@example.org", "sign_in", "en", link="x")
    assert mail["message_id"].endswith(f"@{domain}>")


@pytest.mark.parametrize("theirs, ours", [
    ("Re: Corpus: round 1", "Re: Corpus: round 1"), ("RE: x", "RE: x"), ("AW: x", "AW: x"),
    ("Aw: x", "Aw: x"), ("SV: x", "SV: x"), ("Re[2]: x", "Re[2]: x"), ("Antw: x", "Antw: x"),
    ("Fwd: x", "Re: Fwd: x"), ("WG: x", "Re: WG: x"), ("Reply hazy", "Re: Reply hazy"),
    ("Area 51", "Re: Area 51"), ("", "our own subject"), ("  \t ", "our own subject"),
])
def test_a_reply_subject_says_re_once(theirs, ours):
    answered = threads.Answered(None, (), threads.clean_subject(theirs))
    assert answered.reply_subject("our own subject") == ours


def test_a_mail_days_later_still_finds_its_thread(app, sink, game, ada):
    """The root depends on the game and the player only, not on the day or the process."""
    before = threads.game_thread(game, ada)
    threads._game_key.cache_clear()
    game.created_at = game.created_at + timedelta(microseconds=1)  # same second
    assert threads.game_thread(game, ada) == before
    assert threads.game_thread(game, games.find_player(game, "Ben")) != before


def test_headers_past_reading_still_get_an_answer_outside_the_thread(app, monkeypatch):
    from vpsleuth.mail import mime

    def unreadable(raw: bytes):
        raise ValueError("no")

    monkeypatch.setattr(mime, "parse_headers", unreadable)
    with threads.answering(b"garbage"):
        answered = threads.answered()
    assert answered == threads.Answered(None, (), "")
    assert answered.reply_subject("ours") == "ours" and answered.headers() == {}
    assert threads.answered() is None  # only while the mail is handled
