"""How pages and mails say a game's house rules: every number from the game itself."""

from __future__ import annotations

from types import SimpleNamespace

from vpsleuth.i18n import house_rules as said
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import explicit, weekly

STANDARD = Ruleset()


def game(rules: Ruleset = STANDARD, *, after_early: str = "calendar", aid: bool = False,
         every_days: int = 7, listed: bool = False, public: bool = False,
         rated: bool = False, missed: str = "none") -> SimpleNamespace:
    schedule = (explicit(["2026-12-06 20:00", "2026-12-09 20:00"], "UTC", every_days) if listed
                else weekly("2026-12-06 20:00", "UTC", every_days))
    return SimpleNamespace(ruleset=rules, after_early=after_early, deduction_aid=aid,
                           schedule=schedule.to_json(), public=public, rated=rated,
                           missed_turn_rule=missed)


def test_scores_are_signed_with_a_true_minus():
    assert [said.signed(n) for n in (2, 0, -1)] == ["+2", "0", "\u22121"]


def test_a_wrong_tip_that_costs_nothing_is_said_so():
    rules = Ruleset(points_right=3, points_wrong=0)
    assert said.scoring(rules, "en") == "A right tip earns 3 points; a wrong one costs nothing."
    assert said.scoring(rules, "de") == (
        "Ein richtiger Tipp bringt 3 Punkte, ein falscher kostet nichts.")
    assert said.tip_values(rules, "es") == "Acierto +3, fallo 0."


def test_one_point_is_singular_in_every_language():
    rules = Ruleset(points_right=1, points_wrong=-1)
    assert said.scoring(rules, "es") == (
        "Cada apuesta acertada suma 1 punto y cada fallo resta 1 punto.")
    assert said.bonus(Ruleset(bonuses=(1,)), "de") == (
        "Ab Runde 5 bekommen die Spieler mit den meisten richtigen Tipps einer Runde nach "
        "Platz 1 Bonuspunkt.")
    assert said.bonus(Ruleset(bonuses=(4, 1)), "en").endswith("earn 4 and 1 bonus points by rank.")


def test_a_game_without_bonus_says_so_whether_it_has_no_values_or_no_bonus_round():
    for rules in (Ruleset(bonuses=()), Ruleset(bonuses=(0,)), Ruleset(rounds=4)):
        assert said.bonus(rules, "en") == "This game has no bonus points."
        assert said.bonus_round(rules, 4, "en") is None
    assert said.bonus(Ruleset(bonuses=()), "es") == "En esta partida no hay puntos extra."


def test_only_a_bonus_round_and_the_last_round_say_so():
    rules = Ruleset(rounds=6, first_bonus_round=4)
    assert said.bonus_round(rules, 3, "en") is None
    assert said.bonus_round(rules, 4, "en").startswith("This is a bonus round:")
    assert said.last_round(rules, 5, "en") is None
    assert said.last_round(rules, 6, "de") == "Dies ist die letzte Runde des Spiels."


def test_the_round_end_follows_the_early_close_and_what_comes_after_it():
    assert said.round_end(False, "fresh", "en") == "A round closes at its deadline."
    assert said.round_end(True, "calendar", "en").endswith(
        "The next deadline then stays as planned.")
    assert said.round_end(True, "fresh", "es").endswith(
        "La ronda siguiente tiene entonces un intervalo entero a partir de ese momento.")


def test_the_standard_game_changes_no_rule_of_the_table():
    rows = said.table(game(), "de")
    assert [r.key for r in rows] == ["rounds", "points_right", "points_wrong", "bonus",
                                     "round_end", "deadlines", "aid", "missed_turn", "public",
                                     "rated"]
    assert not any(r.changed for r in rows)
    assert rows[3].game == "3, 2 und 1, ab Runde 5"


def test_the_table_marks_each_changed_rule_in_the_readers_words():
    rules = Ruleset(rounds=8, first_bonus_round=3, bonuses=(5, 3, 1), points_right=2,
                    points_wrong=-1, early_resolution=True)
    rows = {r.key: r for r in said.table(game(rules, after_early="fresh", aid=True,
                                              every_days=3, public=True, rated=True,
                                              missed="repeat-when-absent"), "es")}
    assert {k for k, r in rows.items() if r.changed} == set(rows)
    assert (rows["points_wrong"].game, rows["points_wrong"].standard) == ("\u22121", "\u22122")
    assert rows["deadlines"].game == "cada 3 días" and rows["deadlines"].standard == \
        "una vez por semana"
    assert rows["aid"].game == "activada"
    assert rows["round_end"].game.endswith(
        "; después, la siguiente ronda tiene un intervalo entero desde el cierre")


def test_deadlines_every_day_or_on_listed_dates():
    assert said.table(game(every_days=1), "de")[5].game == "täglich"
    assert said.table(game(every_days=1), "en")[5].game == "every day"
    assert said.table(game(listed=True), "en")[5].game == (
        "on the dates the game master set, then once a week")


def test_an_invitation_says_every_house_rule():
    lines = said.summary(game(Ruleset(rounds=1), aid=True), "en")
    assert lines[0] == "The game lasts at most 1 round."
    assert lines[4].startswith("The deduction aid is on:")
    assert lines[-2:] == [
        "This game stays private: only its players and its game master read it.",
        "This game does not count for the ratings."]
    assert said.summary(game(), "en")[4].startswith("There is no deduction aid")


def test_the_missed_turn_rule_is_said_in_every_language():
    rows = {r.key: r for r in said.table(game(missed="repeat"), "de")}
    assert rows["missed_turn"].changed
    assert rows["missed_turn"].game == "die Tipps der letzten Runde noch einmal"
    assert rows["missed_turn"].standard == "kein Zug, keine Tipps"
    en = said.summary(game(missed="repeat-when-absent"), "en")
    assert any(line.startswith("A player who sends no turn by the deadline while an absence")
               for line in en)
    es = said.summary(game(), "es")
    assert any("no tiene pregunta ni apuestas" in line for line in es)
    assert said.missed_turn("repeat", "de").startswith("Wer bis zum Abgabetermin keinen Zug")
