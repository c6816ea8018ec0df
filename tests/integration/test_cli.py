"""The GM's whole game from the shell, on SQLite and PostgreSQL.

Every command runs through the real click entry points. After a command only
what it committed counts, as when the process ends: ``cli`` rolls back the
session and every assertion on the database queries afresh.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from sqlalchemy import func, select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, Game, Player, Round, TurnVersion
from vpsleuth.rules import GEMS, Distribution

FIRST = "2099-01-10 20:00"  # far ahead: no deadline passes while the tests run
ROUND_1_DEADLINE = "Sat 10 Jan 2099, 20:00 CET"
TURN = "QUESTION E blue opal\nTIP A RD1\n"
TURN_ECHO = "QUESTION E blue opal\nTIP A RD1\n"


def cli(runner, *args, input=None):
    """Run one command; a traceback is a bug, never a clear error."""
    result = runner.invoke(args=[str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    db.session.rollback()
    return result


def ok(runner, *args, input=None) -> str:
    result = cli(runner, *args, input=input)
    assert result.exit_code == 0, result.output
    return result.output


def fails(runner, *args, input=None) -> str:
    result = cli(runner, *args, input=input)
    assert result.exit_code != 0, result.output
    return result.output


def create(runner, name: str = "G1", *options) -> str:
    return ok(runner, "game", "create", name, "--first-deadline", FIRST,
              "--timezone", "Europe/Berlin", *options)


def count(model, *where) -> int:
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def stored_game(name: str = "G1") -> Game:
    return db.session.scalar(select(Game).where(Game.name == name))


def last_version() -> TurnVersion:
    return db.session.scalar(select(TurnVersion).order_by(TurnVersion.id.desc()).limit(1))


@pytest.fixture
def game(runner) -> Game:
    """G1 running with a fixed deal: three rounds, Ada (en) and Bert (de), round 1 open."""
    create(runner, "G1", "--rounds", "3")
    ok(runner, "player", "add", "G1", "Ada", "ada@example.org")
    ok(runner, "player", "add", "G1", "Bert", "bert@example.org", "--language", "de")
    ok(runner, "game", "start", "G1", "--seed", "3")
    return stored_game()


def test_game_create_stores_the_house_rules_and_a_weekly_schedule(runner):
    out = create(runner, "House", "--rounds", "8", "--first-bonus-round", "3", "--bonus", "5,3",
                 "--right", "2", "--wrong", "-1", "--early", "--every", "14d")
    assert "every 14 days at 20:00 Europe/Berlin, first 2099-01-10" in out
    g = stored_game("House")
    assert (g.rounds, g.first_bonus_round, g.bonuses) == (8, 3, "5,3")
    assert (g.points_right, g.points_wrong, g.early_resolution) == (2, -1, True)
    assert g.state == "setup" and g.timezone == "Europe/Berlin"
    assert g.schedule["kind"] == "weekly" and g.schedule["every_days"] == 14


def test_game_create_takes_an_explicit_list_of_deadlines_that_the_rounds_follow(runner):
    out = ok(runner, "game", "create", "Listed", "--timezone", "Europe/Berlin",
             "--deadlines", "2099-01-10 20:00, 2099-01-13 18:30")
    assert "Sat 10 Jan 2099, 20:00 CET; Tue 13 Jan 2099, 18:30 CET" in out
    assert stored_game("Listed").schedule["kind"] == "explicit"
    ok(runner, "player", "add", "Listed", "Ada", "ada@example.org")
    assert ROUND_1_DEADLINE in ok(runner, "game", "start", "Listed")
    assert "Next deadline: Tue 13 Jan 2099, 18:30 CET" in ok(runner, "game", "resolve", "Listed")


@pytest.mark.parametrize(("options", "message"), [
    (["--timezone", "Europe/Berln"], "Unknown timezone 'Europe/Berln'. Did you mean "
                                     "'Europe/Berlin'?"),
    (["--first-deadline", "2099-13-10 20:00"], "'2099-13-10 20:00' is not a date and time"),
    (["--deadlines", FIRST], "either a first deadline (weekly) or a list of deadlines, not both"),
    (["--every", "fortnight"], "'fortnight' is not an interval"),
    (["--bonus", "3,x"], "bonus values are whole numbers like 3,2,1"),
    (["--bonus", "1,2"], "bonus values must not grow with rank"),
    (["--rounds", "0"], "a game has 1 to 52 rounds"),
    (["--right", "0"], "a correct tip must earn more than 0 points"),
    (["--wrong", "1"], "a wrong tip cannot earn points"),
], ids=["unknown-timezone", "bad-date", "both-schedules", "bad-interval", "bad-bonus",
        "growing-bonus", "no-rounds", "right-zero", "wrong-positive"])
def test_bad_game_options_give_a_clear_error_and_store_nothing(runner, options, message):
    out = fails(runner, "game", "create", "G2", "--first-deadline", FIRST,
                "--timezone", "Europe/Berlin", *options)
    assert message in out
    assert count(Game) == 0 and count(AuditEntry) == 0


def test_a_game_name_is_taken_whatever_its_letter_case(runner):
    create(runner, "G1")
    assert "a game called 'g1' exists already" in fails(runner, "game", "create", "g1",
                                                        "--first-deadline", FIRST)
    assert count(Game) == 1


def test_players_are_added_listed_and_withdrawn(runner):
    create(runner, "G1")
    assert "Added player" in ok(runner, "player", "add", "G1", "Ada", "ada@example.org")
    ok(runner, "player", "add", "G1", "Bert", "bert@example.org", "--language", "de")
    listing = ok(runner, "player", "list", "G1")
    assert re.search(r"Ada +ada@example\.org +en active", listing)
    assert re.search(r"Bert +bert@example\.org +de active", listing)

    assert "Withdrew Bert from 'G1'" in ok(runner, "player", "withdraw", "G1", "bert")
    assert re.search(r"Bert .* de withdrawn", ok(runner, "player", "list", "G1"))
    assert db.session.scalar(select(Player.active).where(Player.name == "Bert")) is False
    assert "'Bert' is already withdrawn" in fails(runner, "player", "withdraw", "G1", "Bert")


@pytest.mark.parametrize(("name", "email", "message"), [
    ("Cy", "not-an-email", "'not-an-email' is not an email address"),
    ("ada", "other@example.org", "'ada' already plays in 'G1'"),
    ("Cy", "ADA@example.org", "ADA@example.org already plays in 'G1' as 'Ada'"),
], ids=["bad-email", "taken-name", "taken-email"])
def test_a_player_with_a_bad_email_or_a_taken_name_is_refused(runner, name, email, message):
    create(runner, "G1")
    ok(runner, "player", "add", "G1", "Ada", "ada@example.org")
    assert message in fails(runner, "player", "add", "G1", name, email)
    assert count(Player) == 1


def test_game_start_prints_the_commitment_and_the_first_deadline(runner):
    create(runner, "G1")
    ok(runner, "player", "add", "G1", "Ada", "ada@example.org")
    out = ok(runner, "game", "start", "G1")
    g = stored_game()
    assert re.fullmatch(r"[0-9a-f]{64}", g.commitment)
    assert f"Commitment (SHA-256): {g.commitment}" in out
    assert f"Round 1 is open until {ROUND_1_DEADLINE}." in out
    assert g.state == "running" and g.open_round.number == 1


def test_a_game_starts_neither_without_players_nor_twice(runner):
    create(runner, "G1")
    assert "has no players yet; add players first" in fails(runner, "game", "start", "G1")
    assert stored_game().state == "setup" and count(Round) == 0
    ok(runner, "player", "add", "G1", "Ada", "ada@example.org")
    ok(runner, "game", "start", "G1")
    commitment = stored_game().commitment
    assert "has started already" in fails(runner, "game", "start", "G1")
    assert stored_game().commitment == commitment and count(Round) == 1


def test_a_turn_from_stdin_is_echoed_as_the_standing_turn(runner, game):
    out = ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    assert out == f"Accepted for round 1. Standing turn of Ada:\n{TURN_ECHO}"
    out = ok(runner, "turn", "submit", "G1", "Ada", input="TIP X YO3\n")
    assert out.endswith("QUESTION E blue opal\nTIP A RD1\nTIP X YO3\n")
    assert ok(runner, "turn", "show", "G1", "Ada") == "QUESTION E blue opal\nTIP A RD1\nTIP X YO3\n"


def test_a_turn_from_a_file_is_stored_verbatim_and_echoed_in_the_players_language(
        runner, game, tmp_path):
    text = "# Bert's turn\nFRAGE B rot Diamant\nTIPP C Diamant rot I\n"
    (tmp_path / "turn.txt").write_text(text, encoding="utf-8")
    out = ok(runner, "turn", "submit", "G1", "Bert", tmp_path / "turn.txt")
    assert out.endswith("Standing turn of Bert:\nFRAGE B rote Diamanten\nTIPP C RD1\n")
    version = last_version()
    assert (version.text, version.status, version.channel) == (text, "accepted", "cli")


@pytest.mark.parametrize(("text", "bad_lines"), [
    ("QUESTION X red\nTIP B BP2\n", [1]),
    ("TIP B BP2\nTIP C unicorn\n", [2]),
    ("TIP B BP2\nQUESTION A yellow opal cluster\n", [2]),
    ("TIP B BP2\n%%%%\n\nblah blah\n# a comment\n", [2, 4]),
], ids=["question-about-x", "unknown-gem", "three-attributes", "garbage-lines"])
def test_a_bad_turn_is_refused_line_by_line_and_the_standing_turn_stays(
        runner, game, text, bad_lines):
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    out = fails(runner, "turn", "submit", "G1", "Ada", input=text)
    assert "turn refused; nothing of it was applied" in out
    assert [int(n) for n in re.findall(r"^  line (\d+):", out, re.MULTILINE)] == bad_lines
    assert ok(runner, "turn", "show", "G1", "Ada") == TURN_ECHO
    version = last_version()
    assert (version.text, version.status) == (text, "refused")
    assert f"line {bad_lines[0]}:" in version.errors


def test_a_turn_of_undecodable_bytes_is_refused_not_a_traceback(runner, game):
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    out = fails(runner, "turn", "submit", "G1", "Ada", input=b"TIP B BP2\n\xff\xfe\x00junk\n")
    assert re.search(r"^  line 2: .* is not a command", out, re.MULTILINE)
    assert ok(runner, "turn", "show", "G1", "Ada") == TURN_ECHO
    version = last_version()
    assert version.status == "refused" and version.text == "TIP B BP2\n\ufffd\ufffd\x00junk\n"


def test_a_turn_for_a_round_that_is_not_open_is_refused_naming_the_open_round(runner, game):
    out = fails(runner, "turn", "submit", "G1", "Bert", "--round", "2", input=TURN)
    assert "this turn is for round 2, but round 1 is open" in out
    assert last_version().status == "refused"
    assert ok(runner, "turn", "show", "G1", "Bert") == "FRAGE KEINE\n"
    ok(runner, "game", "resolve", "G1")
    out = fails(runner, "turn", "submit", "G1", "Bert", "--round", "1", input=TURN)
    assert "this turn is for round 1, but round 2 is open" in out


def test_a_withdrawn_player_can_send_no_turn(runner, game):
    ok(runner, "player", "withdraw", "G1", "Bert")
    assert "Bert has been withdrawn" in fails(runner, "turn", "submit", "G1", "Bert", input=TURN)


def test_game_status_counts_turns_without_showing_their_contents(runner, game):
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN + "TIP X YO3, B BP2\n")
    out = ok(runner, "game", "status", "G1")
    assert f"G1: round 1, deadline {ROUND_1_DEADLINE}" in out
    assert re.search(r"yes +Ada +question: yes +tips: +3 +cli", out)
    assert re.search(r"no +Bert +question: no +tips: +0", out)
    assert not [g.code for g in GEMS if g.code in out]
    assert "blue" not in out and "opal" not in out and "TIP" not in out


def test_game_resolve_prints_the_report_and_opens_the_next_round(runner, game):
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    out = ok(runner, "game", "resolve", "G1")
    assert "Round report -- Round 1 of 3" in out
    assert "How many blue opals does E hold?" in out
    assert "Next deadline: Sat 17 Jan 2099, 20:00 CET" in out
    g = stored_game()
    assert g.round(1).state == "resolved" and g.open_round.number == 2


def test_a_finished_game_cannot_be_resolved_again(runner, game):
    for _ in range(3):
        out = ok(runner, "game", "resolve", "G1")
    assert "Final report -- Round 3 of 3" in out and stored_game().state == "finished"
    assert "no open round to resolve (state: finished)" in fails(runner, "game", "resolve", "G1")
    assert count(Round) == 3


def test_a_game_in_setup_cannot_be_resolved(runner):
    create(runner, "G2")
    assert "no open round to resolve (state: setup)" in fails(runner, "game", "resolve", "G2")


def test_a_report_before_any_resolution_fails_clearly(runner, game):
    out = fails(runner, "game", "report", "G1")
    assert "no round of 'G1' has been resolved yet" in out


def test_the_report_comes_as_text_as_json_and_in_german(runner, game):
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    ok(runner, "game", "resolve", "G1")
    assert "Round report -- Round 1 of 3" in ok(runner, "game", "report", "G1")

    data = json.loads(ok(runner, "game", "report", "G1", "--format", "json"))
    at_e = Distribution.from_canonical(game.secret.distribution).holding("E")
    assert (data["round"], data["rounds"], data["final"]) == (1, 3, False)
    assert {r["player"]: r["submitted"] for r in data["rows"]} == {"Ada": True, "Bert": False}
    assert [(q["asker"], q["placeholder"], q["attributes"], q["answer"])
            for q in data["questions"]] == [
        ("Ada", "E", "BO", sum(1 for g in at_e if g.code.startswith("B") and "O" in g.code))]

    german = ok(runner, "game", "report", "G1", "--language", "de")
    for words in ("Rundenbericht -- Runde 1 von 3", "Wie viele blaue Opale hat E?",
                  "Ergebnisse", "kein Zug", "Nächster Abgabetermin: Sa. 17. Jan. 2099"):
        assert words in german


def test_secret_without_yes_asks_and_shows_nothing_when_the_answer_is_no(runner, game):
    out = fails(runner, "game", "secret", "G1", input="n\n")
    assert "Show the secret distribution?" in out and "Aborted" in out
    assert "distribution:" not in out and game.secret.salt not in out
    assert count(AuditEntry, AuditEntry.action == "view_distribution") == 0


def test_secret_with_yes_prints_distribution_and_salt_and_is_audited(runner, game):
    out = ok(runner, "game", "secret", "G1", "--yes")
    assert out == f"distribution: {game.secret.distribution}\nsalt: {game.secret.salt}\n"
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "view_distribution"))
    assert (entry.game_id, entry.actor) == (game.id, "cli")


def swap_two_gems(text: str) -> str:
    dist = Distribution.from_canonical(text)
    a, x = dist.holding("A")[0], dist.holding("X")[0]
    return Distribution({**dist, a: "X", x: "A"}).canonical()


def move_one_gem(text: str) -> str:
    gem = Distribution.from_canonical(text).holding("A")[0].code
    return text.replace(f"A={gem},", "A=").replace("B=", f"B={gem},")


@pytest.mark.parametrize(("tamper_distribution", "tamper_salt", "verdict"), [
    (str, str, "OK: the distribution and salt match the commitment."),
    (swap_two_gems, str, "MISMATCH"),
    (move_one_gem, str, "MISMATCH"),
    (str, lambda salt: salt[:-1] + ("0" if salt[-1] != "0" else "1"), "MISMATCH"),
], ids=["true-secret", "two-gems-swapped", "one-gem-moved", "salt-changed"])
def test_verify_accepts_only_the_true_distribution_and_salt(
        runner, game, tamper_distribution, tamper_salt, verdict):
    result = cli(runner, "verify", "--commitment", game.commitment,
                 "--distribution", tamper_distribution(game.secret.distribution),
                 "--salt", tamper_salt(game.secret.salt))
    assert verdict in result.output
    assert (result.exit_code == 0) is verdict.startswith("OK")


def test_reports_keep_the_secret_until_the_final_one_reveals_it_verifiably(runner, game):
    distribution, salt = game.secret.distribution, game.secret.salt
    ok(runner, "turn", "submit", "G1", "Ada", input=TURN)
    ok(runner, "game", "resolve", "G1")
    for options in ([], ["--format", "json"], ["--language", "de"]):
        out = ok(runner, "game", "report", "G1", *options)
        assert distribution not in out and salt not in out, options

    ok(runner, "game", "resolve", "G1")
    final_text = ok(runner, "game", "resolve", "G1")
    assert salt in final_text and f"'{salt}:{distribution}' | sha256sum" in final_text
    final = json.loads(ok(runner, "game", "report", "G1", "--format", "json"))
    assert (final["final"], final["distribution"], final["salt"]) == (True, distribution, salt)
    assert "OK" in ok(runner, "verify", "--distribution", final["distribution"],
                      "--salt", final["salt"], "--commitment", final["commitment"])


def test_demo_plays_a_whole_game_and_prints_a_checkable_final_report(runner):
    out = ok(runner, "demo", "--players", "3", "--rounds", "12", "--seed", "1")
    assert "The game has ended." in out
    payload = re.search(r"printf '%s' '(.+)' \| sha256sum", out).group(1)
    published = re.search(r"Commitment published at the start: ([0-9a-f]{64})", out).group(1)
    assert hashlib.sha256(payload.encode()).hexdigest() == published
    g = db.session.scalar(select(Game))
    assert g.state == "finished" and g.commitment == published
    assert len(g.active_players) == 3


def test_demo_with_two_rounds_leaves_the_game_running_with_round_three_open(runner):
    out = ok(runner, "demo", "--players", "3", "--rounds", "2", "--seed", "1")
    assert "Round report -- Round 2 of 12" in out and "The game has ended" not in out
    g = db.session.scalar(select(Game))
    assert g.state == "running" and g.open_round.number == 3
    deadline = g.open_round.deadline
    assert (deadline.minute, deadline.second, deadline.microsecond) == (0, 0, 0)
