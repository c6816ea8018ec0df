"""Every message of tests/mail/corpus/clients/ through each entrance: ingest, SMTP, IMAP.

clients.json says, for each reply as a mail client sends it, the status it must
get, the whole turn it must leave standing on top of the player's earlier turn,
the sign-off lines the confirmation must name and the mails queued in answer;
auto-replies and bounces must be ignored without an answer. Every reply quotes
our round mail with its ready turn ("QUESTION E blue opal", "TIP A RD1"), so a
quoted line of ours that were ever applied would show in the standing turn.

One player per message, so that all of them run in one batch per entrance: the
CLI command (in-process, as `vpsleuth mail ingest` reads standard input; a real
process per message is tested in test_ingest_command.py), one SMTP session,
and one IMAP poll of a folder holding them all.
"""

from __future__ import annotations

import json
import smtplib
from datetime import timedelta
from pathlib import Path

import pytest

from vpsleuth.extensions import db
from vpsleuth.mail import mime
from vpsleuth.mail.inbound import poll_imap
from vpsleuth.mail.inbound.smtpd import controller
from vpsleuth.models import Player, utcnow
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games, turns

from .support import CORPUS, corpus, free_port, inbound, outbox, outbox_mark

MANIFEST = json.loads((CORPUS / "clients.json").read_text(encoding="utf-8"))
EARLIER = "QUESTION G pearl\nTIP F BO1, C YO3"
TEMPLATE_QUESTIONS = (parse_question("E blue opal"),)


def test_the_corpus_holds_at_least_eighty_replies_and_the_machine_mail_to_ignore():
    replies = [e for e in MANIFEST if e["status"] != "ignored"]
    assert len(replies) >= 80
    assert {e["client"] for e in MANIFEST} >= {"auto_reply", "bounce"}
    assert {e["lang"] for e in replies} >= {"en", "de", "es", "fr", "nl", "it", "ru"}
    for entry in MANIFEST:
        raw = (CORPUS / entry["file"]).read_bytes()
        if entry["status"] != "ignored":
            assert b"@@TO@@" in raw and b"@@IN_REPLY_TO@@" in raw, entry["file"]


@pytest.fixture
def crowd(app):
    """A running game with one player per keyed corpus message, each with a turn standing."""
    first = to_local(utcnow() + timedelta(days=7), "Europe/Berlin")
    game = games.create_game("Clients", weekly(first.strftime("%Y-%m-%d 20:00"),
                                               "Europe/Berlin"))
    for entry in MANIFEST:
        if entry["sender"]:
            games.add_player(game, Path(entry["file"]).stem[:80], entry["sender"],
                             language=entry["player_lang"])
    games.start_game(game, seed=11)
    players = {p.email: p for p in game.players}
    for player in players.values():
        turns.submit_turn(player, EARLIER, channel="cli")
    return game, players


def messages(players: dict[str, Player]) -> list[tuple[dict, bytes]]:
    """Each corpus message with its reply key and the id of the round mail it answers."""
    return [(entry, corpus(entry["file"], players.get(entry["sender"])))
            for entry in MANIFEST]


def misread(game, players: dict[str, Player], batch: list[tuple[dict, bytes]],
            mark: int) -> list[str]:
    """What went otherwise than clients.json says, one line per difference."""
    rows = {row.message_id: row for row in inbound()}
    queued = outbox(after=mark)
    problems = []
    for entry, raw in batch:
        file = entry["file"]
        row = rows.get(mime.message_id(mime.parse(raw)))
        if row is None:
            problems.append(f"{file}: not stored")
            continue
        if row.status != entry["status"]:
            problems.append(f"{file}: {row.status} ({row.error[:120]}), expected "
                            f"{entry['status']}")
        player = players.get(entry["sender"])
        mine = [m for m in queued if player is not None and m.to_addr == player.email]
        if [m.kind for m in mine] != entry["replies"]:
            problems.append(f"{file}: answered {[m.kind for m in mine]}, expected "
                            f"{entry['replies']}")
        if player is None:
            continue
        standing = turns.standing_turn(game.open_round, player)
        want = {GEM_BY_CODE[g]: loc for g, loc in entry["tips"].items()}
        if standing.question != parse_question(entry["question"]) or standing.tips != want:
            problems.append(f"{file}: standing {standing.question} "
                            f"{sorted((g.code, loc) for g, loc in standing.tips.items())}, "
                            f"expected {entry['question']} {entry['tips']}")
        if standing.question in TEMPLATE_QUESTIONS or standing.tips.get(
                GEM_BY_CODE["RD1"]) == "A":
            problems.append(f"{file}: a quoted line of our round mail was applied")
        confirmations = [m for m in mine if m.kind == "confirmation"]
        if confirmations:
            lines = confirmations[0].body_text.split("\n")
            named = [line for line in entry["signoff"] if f"    {line}" not in lines]
            if named:
                problems.append(f"{file}: the confirmation does not name {named}")
            said = any("sign-off" in line or "Signatur gelesen" in line for line in lines)
            if said != bool(entry["signoff"]):
                problems.append(f"{file}: the confirmation {'speaks' if said else 'says nothing'}"
                                " of a sign-off")
    return problems


def test_every_corpus_message_through_the_ingest_command(app, runner, crowd):
    game, players = crowd
    batch, mark = messages(players), outbox_mark()
    for entry, raw in batch:
        result = runner.invoke(args=["mail", "ingest"], input=raw)
        assert result.exit_code == 0, (entry["file"], result.output)
    assert misread(game, players, batch, mark) == []


def test_every_corpus_message_through_the_smtp_receiver(app, crowd):
    game, players = crowd
    batch, mark = messages(players), outbox_mark()
    db.session.commit()  # end our transaction: SQLite lets the receiver write
    server = controller(app, "127.0.0.1", free_port())
    server.start()
    try:
        with smtplib.SMTP(server.hostname, server.port, timeout=60) as smtp:
            for entry, raw in batch:
                sender = "" if entry["client"] == "bounce" else entry["sender"]
                smtp.sendmail(sender, ["vpsleuth@localhost"],
                              raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    finally:
        server.stop()
    assert [r.source for r in inbound()] == ["smtp"] * len(batch)
    assert misread(game, players, batch, mark) == []


def test_every_corpus_message_through_one_imap_poll(app, crowd, mailbox):
    game, players = crowd
    batch, mark = messages(players), outbox_mark()
    for _, raw in batch:
        mailbox.append(raw)
    db.session.commit()
    result = poll_imap(app)
    assert (len(result.stored), result.left, result.errors) == (len(batch), 0, [])
    assert misread(game, players, batch, mark) == []
