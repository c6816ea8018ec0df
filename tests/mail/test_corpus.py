"""Replies in the shapes real mail clients send, through the whole pipeline.

Each player has a turn standing before the message arrives (sent on the command
line); afterwards the standing turn is either that turn changed by exactly the
lines the player wrote, or unchanged: nothing earlier is ever lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from vpsleuth.extensions import db
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import TurnVersion
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.services import games, turns

from .support import corpus, inbound, outbox, outbox_mark

EARLIER = "QUESTION G pearl\nTIP F BO1, A RD1"


@dataclass(frozen=True)
class Case:
    file: str
    player: str | None  # whose reply key is in the recipients
    status: str
    question: str | None = None  # the new standing question, if the mail sets one
    tips: dict[str, str] = field(default_factory=dict)  # gem -> location the mail adds
    replies: tuple[str, ...] = ()  # kinds of mail queued in answer
    text: tuple[str, ...] = ()  # lines the stored body_text must contain


CASES = [
    Case("gmail_reply.eml", "Ada", "applied", "A red", {"BP2": "B"}, ("confirmation",)),
    Case("outlook_de.eml", "Ben", "applied", "C green pearl", {"RD1": "D"}, ("confirmation",),
         ("# Ben’s Zug für Runde 1 – bitte prüfen",)),
    Case("outlook_en_html.eml", "Ada", "applied", "G solitaire", {"YO3": "X"},
         ("confirmation",), ("# that’s all – Ada",)),
    Case("apple_mail_de.eml", "Ben", "applied", "E green", {"RD1": "C", "GP2": "B"},
         ("confirmation",)),
    Case("thunderbird_bottom.eml", "Ada", "applied", "A cluster diamond",
         {"GP2": "B", "YO3": "C", "RD2": "D"}, ("confirmation",)),
    Case("html_only.eml", "Ada", "applied", "F yellow", {"BD1": "C", "GD2": "D"},
         ("confirmation",)),
    Case("base64_body.eml", "Ada", "applied", "B opal", {"YP3": "E"}, ("confirmation",)),
    Case("latin1_de.eml", "Ben", "applied", "E green", {"RD1": "A", "YO3": "X"},
         ("confirmation",), ("FRAGE E grün", "# Grüße aus Köln, Ben")),
    Case("signature_dash.eml", "Ada", "applied", "D green", {"RD3": "A"}, ("confirmation",)),
    Case("bad_lines.eml", "Ada", "refused", replies=("refused",)),
    Case("quote_only.eml", "Ada", "refused", replies=("refused",)),
    Case("unknown_quote.eml", "Ada", "refused", replies=("refused",)),
    Case("forged_key.eml", None, "refused", replies=("not_understood",)),
    Case("missing_key.eml", None, "refused", replies=("not_understood",)),
    Case("vacation.eml", "Ben", "ignored"),
    Case("bounce.eml", "Ben", "ignored"),
    Case("mailing_list.eml", "Ada", "ignored"),
    Case("no_headers.eml", None, "refused"),
    Case("garbage.eml", None, "refused"),
]


@pytest.fixture
def earlier(game, ada, ben):
    """Both players have a turn standing from the command line."""
    for player in (ada, ben):
        turns.submit_turn(player, EARLIER, channel="cli")
    return {p.id: turns.standing_turn(game.open_round, p) for p in (ada, ben)}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.file.removesuffix(".eml"))
def test_each_client_shape_gets_its_status_turn_and_answer(case, game, ada, ben, earlier):
    player = {"Ada": ada, "Ben": ben}.get(case.player)
    forged = f"vpsleuth+{ada.id}.aaaaaaaaaaaaaaaa@localhost"
    raw = corpus(case.file, player, FORGED=forged)
    mark = outbox_mark()

    row = ingest(raw, "pipe")

    assert (row.status, row.source, row.raw) == (case.status, "pipe", raw)
    assert [m.kind for m in outbox(after=mark)] == list(case.replies)
    for p in (ada, ben):
        standing = turns.standing_turn(game.open_round, p)
        if p is player and case.status == "applied":
            tips = dict(earlier[p.id].tips) | {GEM_BY_CODE[g]: loc for g, loc in case.tips.items()}
            assert standing.question == parse_question(case.question)
            assert standing.tips == tips
        else:
            assert standing == earlier[p.id], "nothing standing may change"
    for line in case.text:
        assert line in row.body_text.split("\n")
    if case.status == "applied":
        version = db.session.get(TurnVersion, row.turn_version_id)
        assert (version.text, version.channel, version.status) == (row.body_text, "email",
                                                                    "accepted")
        assert (row.game_id, row.player_id) == (game.id, player.id)
        assert outbox(after=mark)[0].to_addr == player.email
    if case.status == "ignored":
        assert row.error  # the reason, for the GM


def test_the_quoted_round_mail_template_is_never_applied(game, ada, ben):
    for player, name in ((ada, "gmail_reply.eml"), (ada, "thunderbird_bottom.eml"),
                         (ada, "html_only.eml"), (ben, "outlook_de.eml"),
                         (ben, "apple_mail_de.eml")):
        ingest(corpus(name, player), "imap")
        standing = turns.standing_turn(game.open_round, player)
        assert standing.question != parse_question("E blue opal")
        assert standing.tips.get(GEM_BY_CODE["RD1"]) != "A"
    assert [r.status for r in inbound()] == ["applied"] * 5


def test_a_refused_turn_is_answered_line_by_line_and_kept(game, ada, earlier):
    mark = outbox_mark()
    row = ingest(corpus("bad_lines.eml", ada), "pipe")
    version = db.session.get(TurnVersion, row.turn_version_id)
    assert (version.status, version.text) == ("refused", "QUESTION X red\nTIP H RD1\nTIP A RD2")
    [reply] = outbox(after=mark)
    assert (reply.kind, reply.to_addr) == ("refused", "ada@example.org")
    assert reply.to_addr == "ada@example.org"
    assert "line 1:" in reply.body_text and "line 2:" in reply.body_text
    assert "line 3:" not in reply.body_text
    assert "'H' is not a location" in reply.body_text
    assert "line 1" in row.error


def test_a_reply_with_only_the_quote_is_answered_in_the_players_language(game, ben):
    raw = corpus("quote_only.eml", ben)
    row = ingest(raw, "pipe")
    assert row.status == "refused" and row.turn_version_id is None
    assert "keinen Zug gefunden" in outbox("refused")[0].body_text


def test_a_forged_key_never_reaches_the_player_and_the_sender_is_told(game, ada, earlier):
    mark = outbox_mark()
    raw = corpus("forged_key.eml", FORGED=f"vpsleuth+{ada.id}.aaaaaaaaaaaaaaaa@localhost")
    row = ingest(raw, "smtp")
    assert (row.status, row.player_id, row.turn_version_id) == ("refused", None, None)
    assert "not valid" in row.error
    [reply] = outbox(after=mark)
    assert (reply.kind, reply.to_addr) == ("not_understood", "mallory@example.net")
    assert "not valid" in reply.body_text
    assert db.session.query(TurnVersion).filter_by(channel="email").count() == 0


def test_a_sender_other_than_the_player_with_a_valid_key_is_confirmed_to_the_player(game, ada):
    raw = corpus("signature_dash.eml", ada).replace(b"From: Ada Lovelace <ada@example.org>",
                                                    b"From: Someone <someone@example.net>")
    row = ingest(raw, "pipe")
    assert row.status == "applied"
    [confirmation] = outbox()
    assert confirmation.to_addr == "ada@example.org"
    assert db.session.get(TurnVersion, row.turn_version_id).entered_by == "someone@example.net"


def test_a_reply_to_the_mail_of_a_closed_round_is_refused_naming_the_open_round(game, ada):
    from vpsleuth.services import resolution

    raw = corpus("gmail_reply.eml", ada)  # In-Reply-To: the round 1 mail
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert game.open_round.number == 2
    row = ingest(raw, "pipe")
    assert row.status == "refused"
    assert "round 2 is open" in row.error
    assert "round 2 is open" in outbox("refused")[0].body_text
    assert turns.standing_turn(game.open_round, ada).is_empty


def test_a_reply_with_a_changed_subject_keeps_the_round_of_the_mail_it_answers(game, ada):
    from vpsleuth.services import resolution

    raw = corpus("gmail_reply.eml", ada).replace(
        b"Subject: Re: Corpus: round 1 is open until Sun 6 Dec 2026, 20:00 CET",
        b"Subject: my turn")
    resolution.resolve_round(game, now=game.open_round.deadline)
    row = ingest(raw, "pipe")
    assert row.status == "refused" and "this turn is for round 1" in row.error


def test_a_reply_to_a_round_report_is_a_turn_for_the_open_round(game, ada):
    from vpsleuth.services import resolution

    resolution.resolve_round(game, now=game.open_round.deadline)
    raw = corpus("signature_dash.eml", ada).replace(
        b"Subject: my turn", b"Subject: Re: Corpus: report of round 1")
    assert ingest(raw, "pipe").status == "applied"
    assert turns.standing_turn(game.open_round, ada).question == parse_question("D green")


def test_a_withdrawn_player_is_told_the_turn_was_not_applied(game, ada):
    games.withdraw_player(ada)
    row = ingest(corpus("gmail_reply.eml", ada), "pipe")
    assert row.status == "refused" and "withdrawn" in row.error
    assert [m.kind for m in outbox()] == ["refused"]


def test_a_german_player_is_told_in_german_that_the_round_has_moved_on(game, ben):
    from vpsleuth.services import resolution

    raw = corpus("gmail_reply.eml", ben)  # In-Reply-To: the round 1 mail
    resolution.resolve_round(game, now=game.open_round.deadline)
    row = ingest(raw, "pipe")
    assert row.status == "refused" and "round 2 is open" in row.error  # the GM's record
    [reply] = outbox("refused")
    assert reply.to_addr == ben.email
    assert "offen ist aber Runde 2" in reply.body_text and "Abgabetermin" in reply.body_text
    assert "round 2 is open" not in reply.body_text


def test_a_game_paused_between_two_mails_of_one_poll_refuses_the_second(game, ada):
    """One session handles a whole poll: a turn must not leave stale state behind."""
    from sqlalchemy import update

    from vpsleuth.models import Game

    game_id = game.id
    assert ingest(corpus("gmail_reply.eml", ada), "imap").status == "applied"
    with db.engine.begin() as conn:  # the GM pauses, in another process
        conn.execute(update(Game.__table__).where(Game.__table__.c.id == game_id)
                     .values(state="paused"))
    row = ingest(corpus("signature_dash.eml", ada), "imap")
    assert row.status == "refused" and "paused" in row.error
