"""A turn signed off like any mail is applied; the confirmation names what was set aside."""

from __future__ import annotations

from email.message import EmailMessage

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import TurnVersion
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.services import turns

from .support import outbox, round_mail


def reply(player, body: str, n: int = 1) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{player.name} <{player.email}>"
    msg["To"] = keys.reply_address(player)
    msg["Subject"] = "Re: Corpus: round 1 is open"
    msg["Message-ID"] = f"<signoff-{player.id}-{n}@example.org>"
    msg["In-Reply-To"] = round_mail(player).message_id
    msg.set_content(body)
    return bytes(msg)


def test_a_sign_off_below_the_turn_is_set_aside_and_named_in_the_confirmation(game, ada):
    row = ingest(reply(ada, "QUESTION A red\nTIP B BP2\n\nCheers,\nAda Lovelace\n"
                            "+44 20 7946 0000\n"), "pipe")
    assert row.status == "applied"
    standing = turns.standing_turn(game.open_round, ada)
    assert standing.question == parse_question("A red")
    assert standing.tips == {GEM_BY_CODE["BP2"]: "B"}
    version = db.session.get(TurnVersion, row.turn_version_id)
    assert version.text == row.body_text == "QUESTION A red\nTIP B BP2"
    assert "Cheers, / Ada Lovelace / +44 20 7946 0000" in row.error
    [confirmation] = outbox()
    assert confirmation.kind == "confirmation"
    text = confirmation.body_text
    assert "read as a sign-off and ignored" in text
    for line in ("    Cheers,", "    Ada Lovelace", "    +44 20 7946 0000"):
        assert line in text.split("\n")
    assert "Ada Lovelace" in confirmation.body_html


def test_a_german_player_is_told_in_german(game, ben):
    row = ingest(reply(ben, "FRAGE C grün Perle\n\nViele Grüße\nBen\n"), "pipe")
    assert row.status == "applied"
    [confirmation] = outbox()
    assert "als Gruß oder Signatur gelesen" in confirmation.body_text
    assert "    Viele Grüße" in confirmation.body_text.split("\n")


def test_a_confirmation_without_a_sign_off_says_nothing_of_one(game, ada):
    ingest(reply(ada, "QUESTION A red\n"), "pipe")
    assert "sign-off" not in outbox()[0].body_text


def test_a_typo_below_the_turn_still_refuses_the_whole_turn_for_that_line_alone(game, ada):
    row = ingest(reply(ada, "QUESTION A red\n\nTPI A RD1\nCheers, Ada\n"), "pipe")
    assert row.status == "refused"
    assert turns.standing_turn(game.open_round, ada).is_empty
    [refusal] = outbox()
    assert "line 3: 'TPI' is not a command; did you mean TIP?" in refusal.body_text
    assert "line 4:" not in refusal.body_text  # the sign-off below it is set aside


def test_prose_between_turn_lines_still_refuses_the_turn(game, ada):
    row = ingest(reply(ada, "QUESTION A red\nand my tips:\nTIP B BP2\n"), "pipe")
    assert row.status == "refused"
    assert "line 2:" in outbox()[0].body_text
