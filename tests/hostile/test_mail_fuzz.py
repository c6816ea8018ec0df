"""Fuzzing the inbound mail pipeline (mail.inbound.receive) with hypothesis, on SQLite.

Whatever arrives: no exception escapes, the raw message is stored (its first
INBOUND_MAX_BYTES), processing ends in a final status (never "failed"), and a
turn is applied whole or not at all: after each message every player's
standing turn is either as it was, or exactly the result of applying the whole
text the pipeline extracted (oracle.applied), with one accepted version.

The pure decoding steps are also fuzzed coverage-guided with atheris
(atheris_mail.py), for a fixed number of runs from a fixed seed.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from flask import current_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import receive
from vpsleuth.models import Game, InboundMessage, OutboxMessage, Player, utcnow
from vpsleuth.orders import parse_turn
from vpsleuth.rules.schedule import to_local, weekly
from vpsleuth.services import games

from . import oracle
from .strategies import CORPUS, CORPUS_NAMES, mutations, turn_texts, unique_message_id, with_turn

FINAL = {"applied", "refused", "ignored", "duplicate"}
turn_bytes = turn_texts.map(lambda t: t.encode("utf-8", "surrogatepass")).filter(bool)
FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture
def game(sqlite_app) -> Game:
    """A running game, round 1 open a week on the real clock (the pipeline reads it)."""
    sqlite_app.config["INBOUND_PER_SENDER_PER_HOUR"] = 10**9  # thousands of mails from Ada
    first = to_local(utcnow() + timedelta(days=7), "Europe/Berlin").strftime("%Y-%m-%d 20:00")
    game = games.create_game("Fuzz", weekly(first, "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org", language="en")
    games.add_player(game, "Ben", "ben@example.org", language="de")
    games.start_game(game, seed=11)
    return game


def corpus_message(name: str, player: Player) -> bytes:
    """A corpus message as a reply of ``player`` to the round mail."""
    round_mail = db.session.scalar(select(OutboxMessage.message_id).where(
        OutboxMessage.player_id == player.id, OutboxMessage.kind == "round_opened"))
    return ((CORPUS / name).read_bytes()
            .replace(b"@@TO@@", keys.reply_address(player).encode())
            .replace(b"@@IN_REPLY_TO@@", round_mail.strip("<>").encode()))


def receive_and_check(game: Game, raw: bytes) -> str:
    """Send ``raw`` through the pipeline, check every promise, return the final status."""
    round_ = game.open_round
    before = {p.id: oracle.standing(round_, p) for p in game.players}
    last_version = oracle.last_version_id()
    result = receive(raw, "pipe")  # raises nothing once stored: that is the first check
    db.session.expire_all()
    row = db.session.get(InboundMessage, result.id)
    assert row.raw == raw[:int(current_app.config["INBOUND_MAX_BYTES"])]
    assert row.status in FINAL, (row.status, row.error)
    versions = oracle.versions_after(last_version)
    after = {p.id: oracle.standing(round_, p) for p in game.players}
    if row.status != "applied":
        assert [v.status for v in versions] in ([], ["refused"])
        assert after == before, "a message that was not applied changed a standing turn"
        return row.status
    [version] = versions
    assert (version.status, version.id, version.text) == ("accepted", row.turn_version_id,
                                                          row.body_text)
    change = parse_turn(version.text).change
    player = db.session.get(Player, version.player_id)
    expected = {**before, player.id: oracle.applied(before[player.id], change,
                                                    oracle.last_round_turn(round_, player))}
    assert after == expected, "the standing turn is not the whole extracted text applied"
    return row.status


def test_mutated_corpus_messages_are_stored_and_applied_whole_or_not_at_all(game):
    seen, numbers = Counter(), itertools.count()

    @settings(FUZZ, max_examples=300)
    @given(name=st.sampled_from(CORPUS_NAMES), who=st.sampled_from(["Ada", "Ben"]),
           turn=st.none() | turn_texts, changes=st.lists(mutations, max_size=3))
    def property_(name, who, turn, changes):
        raw = unique_message_id(corpus_message(name, games.find_player(game, who)),
                                next(numbers))
        raw = with_turn(raw, turn) if turn is not None else raw
        for change in changes:
            raw = change(raw)
        seen[receive_and_check(game, raw or b"\n")] += 1

    property_()
    assert seen["applied"] and seen["refused"] and seen["ignored"], seen


def test_arbitrary_bytes_are_stored_and_change_no_standing_turn_unless_applied_whole(game):
    seen = Counter()
    ada = games.find_player(game, "Ada")
    keyed = f"To: {keys.reply_address(ada)}\n".encode()

    @settings(FUZZ, max_examples=300)
    @given(head=st.sampled_from([b"", keyed, keyed + b"\n", keyed + b"Subject: Re: x\n\n"]),
           data=st.binary(min_size=1, max_size=2048) | turn_bytes)
    def property_(head, data):
        seen[receive_and_check(game, head + data)] += 1

    property_()
    assert seen["refused"] and seen["applied"], seen


def test_coverage_guided_fuzzing_of_mail_decoding_finds_no_input_that_raises(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)  # libFuzzer adds the inputs it finds to the corpus
    runs = 4000
    # Started by a shell that forks it: Linux carries a process's peak memory (ru_maxrss,
    # which libFuzzer's -rss_limit_mb reads) across exec, so a fuzzer exec'd straight from
    # this pytest process would start "using" all the memory the whole test run holds.
    fuzzer = subprocess.run(
        ["/bin/sh", "-c", '"$@"; exit $?', "sh", sys.executable,
         str(Path(__file__).with_name("atheris_mail.py")), f"-runs={runs}",
         "-seed=1", "-rss_limit_mb=2048", f"-artifact_prefix={tmp_path}/", str(corpus)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert fuzzer.returncode == 0, fuzzer.stderr[-5000:]
    assert re.search(rf"^Done {runs} runs", fuzzer.stderr, re.MULTILINE), fuzzer.stderr[-2000:]
    assert len(list(corpus.iterdir())) > len(CORPUS_NAMES), "the fuzzer found no new paths"
