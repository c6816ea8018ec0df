"""A typo costs one line, not the sign-off: a reply piped in as an MTA delivers it."""

from __future__ import annotations

import re

from vpsleuth.rules import GEM_BY_CODE
from vpsleuth.services import turns

from .support import inbound, outbox, outbox_mark
from .test_ingest_command import run_ingest
from .test_signoff_mail import reply


def errors_in(text: str) -> list[str]:
    """The numbered bad lines a refusal lists ("Zeile 1: ...", "line 1: ...")."""
    return re.findall(r"^\s*(?:Zeile|line|Línea) \d+:.*$", text, re.M | re.I)


def test_a_typo_above_a_sign_off_gets_one_error_with_the_keyword_meant(app, game, ben):
    done = run_ingest(app, reply(ben, "STRIECHE YO3\n\nGruß\nBernd\n"))
    assert done.returncode == 0, done.stderr.decode()
    [row] = inbound()
    assert row.status == "refused"
    [refusal] = outbox()
    assert refusal.kind == "refused" and refusal.to_addr == ben.email
    [error] = errors_in(refusal.body_text)
    assert "Zeile 1:" in error and "'STRIECHE' ist kein Befehl; meintest du STREICHE?" in error
    assert "Gruß" not in refusal.body_text and "Bernd" not in refusal.body_text
    assert "meintest du STREICHE?" in refusal.body_html


def test_the_same_sign_off_below_the_fixed_line_is_set_aside_and_named(app, game, ben):
    turns.submit_turn(ben, "TIPP A YO3", channel="web")
    mark = outbox_mark()
    done = run_ingest(app, reply(ben, "STREICHE YO3\n\nGruß\nBernd\n", n=2))
    assert done.returncode == 0, done.stderr.decode()
    [row] = inbound()
    assert row.status == "applied"
    assert GEM_BY_CODE["YO3"] not in turns.standing_turn(game.open_round, ben).tips
    [confirmation] = outbox(after=mark)
    assert confirmation.kind == "confirmation"
    assert errors_in(confirmation.body_text) == []
    lines = confirmation.body_text.split("\n")
    assert "    Gruß" in lines and "    Bernd" in lines


def test_an_english_player_is_told_in_english(app, game, ada):
    run_ingest(app, reply(ada, "QUESTOIN E blue opal\n\nCheers,\nAda\n"))
    [refusal] = outbox()
    [error] = errors_in(refusal.body_text)
    assert "line 1: 'QUESTOIN' is not a command; did you mean QUESTION?" in error
