"""Fuzzing the turn language: the pure parser, and submit_turn on a running game.

submit_turn is all or nothing: every text is stored verbatim as a version; an
accepted one leaves exactly the whole turn applied (oracle.applied), a refused
one leaves the standing turn as it was and lists bad lines that exist. No text
raises anything but TurnRefused. The service runs on both databases (the
PostgreSQL run catches text PostgreSQL cannot store); the pure parser gets
many more examples.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vpsleuth.models import Game
from vpsleuth.orders import parse_turn
from vpsleuth.services import games, turns
from vpsleuth.services.errors import TurnRefused

from . import oracle
from .strategies import turn_texts
from .support import make_game, play_round

FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
any_text = st.one_of(turn_texts, turn_texts, st.text(max_size=200))


@settings(FUZZ, max_examples=2000)
@given(any_text)
def test_every_error_of_the_parser_quotes_a_line_that_is_in_the_text(text):
    parsed = parse_turn(text)
    lines = text.splitlines()
    assert parsed.ok == (not parsed.errors)
    for error in parsed.errors:
        assert lines[error.line - 1] == error.text
        assert error.message and error.hint


@settings(FUZZ, max_examples=2000)
@given(turn_texts, st.sampled_from(["END", "ENDE", "end"]), st.text(max_size=100))
def test_nothing_after_end_changes_what_a_turn_does(text, end, tail):
    before, after = parse_turn(text + "\n" + end), parse_turn(f"{text}\n{end}\n{tail}")
    assert (before.change, before.errors) == (after.change, after.errors)


def round_two() -> Game:
    """A game in round 2 (round 1 resolved with tips, so REPEAT has something to repeat)."""
    game = make_game("Turns", None, [("Ada", "ada@example.org"), ("Ben", "ben@example.org")])
    games.start_game(game, seed=5)
    play_round(game, {"Ada": "QUESTION A red\nTIP A RD1, B BP2, X YO3", "Ben": "TIP C GP1"})
    turns.submit_turn(game.players[0], "QUESTION B pearl\nTIP A RD2, C GO3", channel="cli")
    return game


def test_a_submitted_turn_is_applied_whole_or_not_at_all(app):
    game = round_two()
    ada, round_ = game.players[0], game.open_round
    last_round = oracle.last_round_turn(round_, ada)
    seen = Counter()

    @settings(FUZZ, max_examples=150)
    @given(any_text.filter(str.strip))
    def property_(text):
        before, last_version = oracle.standing(round_, ada), oracle.last_version_id()
        try:
            turns.submit_turn(ada, text, channel="web")
        except TurnRefused as refused:
            outcome = "refused"
            lines = text.splitlines()
            assert refused.errors and all(lines[e.line - 1] == e.text for e in refused.errors)
            assert oracle.standing(round_, ada) == before
        else:
            outcome = "accepted"
            expected = oracle.applied(before, parse_turn(text).change, last_round)
            assert oracle.standing(round_, ada) == expected
        [version] = oracle.versions_after(last_version)
        assert (version.text, version.status, version.round_id) == (text, outcome, round_.id)
        seen[outcome] += 1

    property_()
    assert seen["accepted"] > 20 and seen["refused"] > 20, seen
