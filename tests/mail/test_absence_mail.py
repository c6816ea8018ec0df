"""An absence by mail (issue 20): an ABSENT line in a reply, through the real SMTP receiver,
answered by a real mail (the SMTP sink) in the player's language; a mail of absence lines
only is no turn; bad lines and a forged key get a clear answer and store nothing."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest
from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth import jobs
from vpsleuth.extensions import db
from vpsleuth.i18n.dates import day_text
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import Absence, OutboxMessage, TurnVersion, utcnow
from vpsleuth.rules import parse_question
from vpsleuth.services import games, turns
from vpsleuth.services.absence import local_day

from .support import inbound, outbox, round_mail
from .test_smtpd import deliver


def reply(player, body: str, *, to: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = to or keys.reply_address(player)
    msg["Subject"] = "Re: Corpus: round 1 is open"
    msg["Message-ID"] = f"<absence-{player.id}-{abs(hash(body))}@example.org>"
    answered = round_mail(player)  # a player who joined late has had no round mail yet
    if answered is not None:
        msg["In-Reply-To"] = answered.message_id
    msg.set_content(body)
    return bytes(msg)


def send(app, sink) -> None:
    db.session.commit()
    with mailing_to(app, sink) as mailing:
        jobs.send_outbox(mailing)


def answers(sink, address: str) -> list:
    ids = set(db.session.scalars(select(OutboxMessage.message_id).where(
        OutboxMessage.kind == "absence", OutboxMessage.to_addr == address)))
    return [m for m in sink.to(address) if m["Message-ID"] in ids]


def absences(player) -> list[Absence]:
    db.session.expire_all()
    return list(db.session.scalars(select(Absence).where(Absence.player_id == player.id)))


def days(player, ahead: int, length: int):
    first = local_day(player, utcnow()) + timedelta(days=ahead)
    return first, first + timedelta(days=length)


def test_an_absent_line_alone_is_noted_answered_and_is_no_turn(app, game, ada, smtp_port,
                                                               sink):
    first, last = days(ada, 10, 14)
    raw = reply(ada, f"ABSENT {first.isoformat()} {last.isoformat()} skiing in the Alps\n")
    assert deliver(smtp_port, raw, ada.email, [keys.reply_address(ada)]) == {}
    [row] = inbound()
    assert row.status == "applied" and row.turn_version_id is None
    assert "no turn" in row.error
    [noted] = absences(ada)
    assert (noted.starts, noted.ends, noted.note, noted.channel) == (
        first, last, "skiing in the Alps", "email")
    assert db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == ada.id)).all() == []  # not even an empty turn
    assert turns.standing_turn(game.open_round, ada).is_empty
    send(app, sink)
    [mail] = answers(sink, ada.email)
    assert mail["Subject"] == "Re: Corpus: round 1 is open"  # a reply keeps the thread
    assert mail["In-Reply-To"] == row.message_id
    text = mail.get_body(("plain",)).get_content()
    assert (f"Noted: you are away from {day_text(first, 'en')} until "
            f"{day_text(last, 'en')}.") in text
    assert "you get no reminders" in text
    assert "skiing" not in text.split("line 1:")[0]  # the note is only quoted back to Ada


def test_a_german_absence_with_a_turn_applies_both_and_answers_in_german(app, game, ben, sink):
    first, last = days(ben, 3, 4)
    body = (f"FRAGE C grün Perle\nABWESEND {first:%d.%m.%Y} bis {last:%d.%m.%Y} Urlaub\n"
            "TIPP A RD1\n")
    row = ingest(reply(ben, body), "pipe")
    assert row.status == "applied" and row.turn_version_id is not None
    standing = turns.standing_turn(game.open_round, ben)
    assert standing.question == parse_question("C green pearl") and len(standing.tips) == 1
    [noted] = absences(ben)
    assert (noted.starts, noted.ends, noted.note) == (first, last, "Urlaub")
    kinds = [m.kind for m in outbox()]
    assert kinds.count("absence") == 1 and kinds.count("confirmation") == 1
    [answer] = outbox("absence")
    assert answer.subject == "Re: Corpus: round 1 is open"
    assert (f"Eingetragen: Du bist vom {day_text(first, 'de')} bis zum "
            f"{day_text(last, 'de')} abwesend.") in answer.body_text
    send(app, sink)
    assert len(answers(sink, ben.email)) == 1


def test_a_spanish_absence_with_slashes_is_answered_in_spanish(app, game):
    cleo = games.add_player(game, "Cleo", "cleo@example.org", language="es")
    first, last = days(cleo, 1, 2)
    row = ingest(reply(cleo, f"AUSENTE {first:%d/%m/%Y} {last:%d/%m/%Y}\n"), "pipe")
    assert row.status == "applied"
    assert [(a.starts, a.ends) for a in absences(cleo)] == [(first, last)]
    [answer] = outbox("absence")
    assert f"Anotado: estás ausente del {day_text(first, 'es')} al" in answer.body_text


@pytest.mark.parametrize("line, said", [
    ("ABSENT {last} {first}", "An absence cannot end ({first}) before it begins ({last})."),
    ("ABSENT {past} {past}", "That absence ended on {past}, in the past; give days from "
                             "today ({today}) on."),
    ("ABSENT {first} 31.02.2027", "'31.02.2027' is not a date; write it as 2026-12-20 or "
                                  "20.12.2026"),
    ("ABSENT {first} {far}", "An absence lasts at most 120 days; for a longer one, ask the "
                             "game master whether you should leave the game."),
])
def test_a_bad_absence_line_is_refused_with_a_clear_answer_and_nothing_stored(
        app, game, ada, line, said):
    first, last = days(ada, 5, 3)
    today = local_day(ada, utcnow())
    values = {"first": first.isoformat(), "last": last.isoformat(),
              "past": (today - timedelta(days=3)).isoformat(),
              "far": (first + timedelta(days=130)).isoformat()}
    shown = {"first": day_text(first, "en"), "last": day_text(last, "en"),
             "past": day_text(today - timedelta(days=3), "en"), "today": day_text(today, "en")}
    row = ingest(reply(ada, line.format(**values) + "\n"), "pipe")
    assert row.status == "refused"
    assert absences(ada) == []
    [answer] = outbox("absence")
    assert said.format(**shown) in answer.body_text
    assert "Write an absence as ABSENT 2026-12-20 2027-01-03" in answer.body_text
    assert "you get no reminders" not in answer.body_text


def test_the_example_of_a_refused_line_is_written_as_the_reader_writes(app, game, ben):
    first, last = days(ben, 5, 3)
    ingest(reply(ben, f"ABWESEND {last.isoformat()} {first.isoformat()}\n"), "pipe")
    [answer] = outbox("absence")
    assert "ABWESEND 20.12.2026 03.01.2027" in answer.body_text
    assert "ABSENT 2026" not in answer.body_text


def test_a_bad_absence_line_does_not_stop_the_turn_beside_it(app, game, ada):
    row = ingest(reply(ada, "ABSENT soon\nQUESTION A red\n"), "pipe")
    assert row.status == "applied"
    assert turns.standing_turn(game.open_round, ada).question == parse_question("A red")
    assert absences(ada) == []
    [answer] = outbox("absence")
    assert "no last day" not in answer.body_text and "'soon' is not a date" in answer.body_text


def test_a_forged_key_is_answered_as_before_and_stores_no_absence(app, game, ada):
    local, domain = keys.reply_address(ada).split("@")
    key = local.split(".")[-1]
    forged = f"{local[:-len(key)]}{key[:-1]}{'a' if key[-1] != 'a' else 'b'}@{domain}"
    first, last = days(ada, 2, 2)
    row = ingest(reply(ada, f"ABSENT {first} {last}\n", to=forged), "pipe")
    assert row.status == "refused" and row.player_id is None
    assert absences(ada) == []
    assert outbox("absence") == []
    [answer] = outbox("not_understood")
    assert "the player key in the address you wrote to is not valid" in answer.body_text


def test_the_same_absence_twice_is_stored_once(app, game, ada):
    first, last = days(ada, 2, 2)
    ingest(reply(ada, f"ABSENT {first} {last}\n"), "pipe")
    raw = reply(ada, f"absent {first} {last} (again)\n")
    ingest(raw, "pipe")
    assert len(absences(ada)) == 1
    assert len(outbox("absence")) == 2  # each mail is answered


def test_an_absent_line_below_the_turn_or_above_a_sign_off_is_never_a_sign_off(app, game,
                                                                               ada):
    first, last = days(ada, 4, 2)
    row = ingest(reply(ada, f"QUESTION A red\nABSENT {first} {last} hiking\n\nCheers,\nAda\n"),
                 "pipe")
    assert row.status == "applied"
    assert [(a.starts, a.note) for a in absences(ada)] == [(first, "hiking")]
    [confirmation] = outbox("confirmation")
    assert "ABSENT" not in confirmation.body_text  # not named among the sign-off lines
    second, _ = days(ada, 20, 1)
    only = ingest(reply(ada, f"ABSENT {second} {second}\n\nBest wishes,\nAda\n"), "pipe")
    assert only.status == "applied" and only.turn_version_id is None
    assert len(absences(ada)) == 2
