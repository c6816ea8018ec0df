"""A game's house rules in its reader's words, for every page and mail that states one.

Nothing that tells a player how a game is scored writes the numbers itself:
it asks here, with the game's own rules, so a game whose house rules give -1
for a wrong tip never reads "wrong -2". The standard game is ``Ruleset()``
and the Game model's defaults; ``table`` sets one game's rules beside it.
Templates (pages and mails) reach this module as ``house_rules`` (web.init_app).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from babel.lists import format_list

from ..rules import Ruleset
from ..rules.schedule import Schedule
from . import N_, ntranslate, translate

STANDARD = Ruleset()
# The standard game's other house rules, as models.Game defaults them.
STANDARD_AFTER_EARLY = "calendar"
STANDARD_AID = False
STANDARD_EVERY_DAYS = 7
STANDARD_MISSED_TURN = "none"
# The missed-turn rule (rules/missed.py) as the house-rules table names it.
MISSED_TURN_CELLS = {
    "none": N_("no turn, no tips"),
    "repeat": N_("last round's tips again"),
    "repeat-when-absent": N_("last round's tips again, during an announced absence"),
}
# Lists read "5, 3 and 1" (British English, as the site writes).
_LIST_LOCALE = {"en": "en_GB"}


class GameRules(Protocol):
    """What of a game its house rules are (models.Game has all of it)."""

    ruleset: Ruleset
    after_early: str
    deduction_aid: bool
    schedule: dict  # Schedule.to_json()
    # public (the archive) and rated (the ratings): read with getattr, False if absent;
    # missed_turn_rule: read with getattr, "none" if absent


def record(game: GameRules, lang: str) -> list[str]:
    """Whether the game goes to the public archive and counts for the ratings, as sentences."""
    public = translate(lang, "When it ends, this game is shown in the public archive: anyone "
                             "can read its reports, its story and a replay, with the players "
                             "under their display names, never an address.") \
        if getattr(game, "public", False) else translate(
            lang, "This game stays private: only its players and its game master read it.")
    rated = translate(lang, "This game counts for the ratings, if at least three people "
                            "play it to the end (bots do not count).") \
        if getattr(game, "rated", False) else translate(
            lang, "This game does not count for the ratings.")
    return [public, rated]


def signed(number: int) -> str:
    """A score as the reports write it: +2, −1 (a true minus sign), 0."""
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


def points(number: int, lang: str) -> str:
    """"1 point", "2 points" in ``lang``."""
    return ntranslate(lang, "{num} point", "{num} points", number).format(num=number)


def listed(numbers: Sequence[int], lang: str) -> str:
    """"5, 3 and 1" in ``lang``."""
    return format_list([str(n) for n in numbers], locale=_LIST_LOCALE.get(lang, lang))


def scoring(rules: Ruleset, lang: str) -> str:
    """What a right and a wrong tip count, as a sentence."""
    right = points(rules.points_right, lang)
    if rules.points_wrong == 0:
        return translate(lang, "A right tip earns {right}; a wrong one costs nothing.").format(
            right=right)
    return translate(lang, "A right tip earns {right}; a wrong one costs {wrong}.").format(
        right=right, wrong=points(-rules.points_wrong, lang))


def tip_values(rules: Ruleset, lang: str) -> str:
    """The short form the turn form shows beside the tips: "Right +2, wrong −1."."""
    return translate(lang, "Right {right}, wrong {wrong}.").format(
        right=signed(rules.points_right), wrong=signed(rules.points_wrong))


def has_bonus(rules: Ruleset) -> bool:
    """Whether any round of the game can earn a bonus."""
    return any(rules.bonuses) and rules.first_bonus_round <= rules.rounds


def _bonus_words(rules: Ruleset, lang: str) -> str:
    values = rules.bonuses
    # One value takes its own number's form; a list of them always reads as plural.
    return ntranslate(lang, "{values} bonus point", "{values} bonus points",
                      values[0] if len(values) == 1 else 2).format(
                          values=listed(values, lang))


def bonus(rules: Ruleset, lang: str) -> str:
    """When bonus points are earned and how many, as a sentence."""
    if not has_bonus(rules):
        return translate(lang, "This game has no bonus points.")
    return translate(lang, "From round {round} on, the players with the most right tips in a "
                           "round earn {bonus} by rank.").format(
        round=rules.first_bonus_round, bonus=_bonus_words(rules, lang))


def bonus_round(rules: Ruleset, number: int, lang: str) -> str | None:
    """What a bonus round offers, for that round's mails; None in other rounds."""
    if not rules.is_bonus_round(number) or not any(rules.bonuses):
        return None
    return translate(lang, "This is a bonus round: the players with the most right tips "
                           "earn {bonus} by rank.").format(bonus=_bonus_words(rules, lang))


def last_round(rules: Ruleset, number: int, lang: str) -> str | None:
    """"This is the last round." in the last round; None before it."""
    return translate(lang, "This is the last round of the game.") if number >= rules.rounds \
        else None


def rounds(rules: Ruleset, lang: str) -> str:
    """How long the game lasts, as a sentence."""
    return ntranslate(lang, "The game lasts at most {num} round.",
                      "The game lasts at most {num} rounds.", rules.rounds).format(
                          num=rules.rounds)


def round_end(early: bool, after_early: str, lang: str) -> str:
    """When a round closes, as a sentence (and what the next deadline does after it)."""
    if not early:
        return translate(lang, "A round closes at its deadline.")
    then = (N_("The next deadline then stays as planned.") if after_early == "calendar"
            else N_("The next round then gets a whole interval from that moment."))
    return " ".join((translate(lang, "A round closes as soon as every player has sent a "
                                     "turn, at the latest at its deadline."),
                     translate(lang, then)))


def aid(on: bool, lang: str) -> str:
    """Whether the information sheet helps with deduction, as a sentence."""
    if on:
        return translate(lang, "The deduction aid is on: the information sheet greys out the "
                               "places the public answers have ruled out and marks the gems "
                               "they prove.")
    return translate(lang, "There is no deduction aid: what the answers rule out is for you "
                           "to work out.")


def missed_turn(rule: str, lang: str) -> str:
    """What a player who sends no turn by the deadline plays, as a sentence."""
    if rule == "repeat":
        return translate(lang, "A player who sends no turn by the deadline plays last round's "
                               "tips again (not the question), marked “repeated "
                               "automatically”.")
    if rule == "repeat-when-absent":
        return translate(lang, "A player who sends no turn by the deadline while an absence "
                               "they announced covers it plays last round's tips again (not "
                               "the question), marked “repeated automatically”.")
    return translate(lang, "A player who sends no turn by the deadline has no question and "
                           "no tips that round.")


def summary(game: GameRules, lang: str) -> list[str]:
    """The house rules of ``game`` as sentences, for an invitation."""
    rules = game.ruleset
    return [rounds(rules, lang), scoring(rules, lang), bonus(rules, lang),
            round_end(rules.early_resolution, game.after_early, lang),
            aid(game.deduction_aid, lang),
            missed_turn(getattr(game, "missed_turn_rule", STANDARD_MISSED_TURN), lang),
            *record(game, lang)]


@dataclass(frozen=True)
class HouseRule:
    """One line of the house-rules table: this game's value beside the standard one."""

    key: str
    label: str
    game: str
    standard: str

    @property
    def changed(self) -> bool:
        return self.game != self.standard


def _bonus_cell(rules: Ruleset, lang: str) -> str:
    if not has_bonus(rules):
        return translate(lang, "none")
    return translate(lang, "{values}, from round {round}").format(
        values=listed(rules.bonuses, lang), round=rules.first_bonus_round)


def _round_end_cell(early: bool, after_early: str, lang: str) -> str:
    if not early:
        return translate(lang, "at the deadline")
    then = ("the next deadline keeps the calendar" if after_early == "calendar"
            else "the next round gets a whole interval from the close")
    return translate(lang, "{when}; after that, {then}").format(
        when=translate(lang, "as soon as every player has sent a turn, at the latest at the "
                             "deadline"), then=translate(lang, then))


def _interval(every_days: int, lang: str) -> str:
    if every_days == 7:
        return translate(lang, "once a week")
    return ntranslate(lang, "every day", "every {num} days", every_days).format(
        num=every_days)


def _deadlines_cell(schedule: Schedule, lang: str) -> str:
    interval = _interval(schedule.every_days, lang)
    if not schedule.deadlines:
        return interval
    return translate(lang, "on the dates the game master set, then {interval}").format(
        interval=interval)


def table(game: GameRules, lang: str) -> list[HouseRule]:
    """Every house rule of ``game`` beside the standard game's, in ``lang``."""
    rules, t = game.ruleset, lambda text: translate(lang, text)
    schedule = Schedule.from_json(game.schedule)
    standard_aid, game_aid = (t("on") if on else t("off") for on in (STANDARD_AID,
                                                                      game.deduction_aid))
    return [
        HouseRule("rounds", t("Rounds"), str(rules.rounds), str(STANDARD.rounds)),
        HouseRule("points_right", t("Points per right tip"), signed(rules.points_right),
                  signed(STANDARD.points_right)),
        HouseRule("points_wrong", t("Points per wrong tip"), signed(rules.points_wrong),
                  signed(STANDARD.points_wrong)),
        HouseRule("bonus", t("Bonus points by rank"), _bonus_cell(rules, lang),
                  _bonus_cell(STANDARD, lang)),
        HouseRule("round_end", t("Round end"),
                  _round_end_cell(rules.early_resolution, game.after_early, lang),
                  _round_end_cell(STANDARD.early_resolution, STANDARD_AFTER_EARLY, lang)),
        HouseRule("deadlines", t("Deadlines"), _deadlines_cell(schedule, lang),
                  _interval(STANDARD_EVERY_DAYS, lang)),
        HouseRule("aid", t("Deduction aid"), game_aid, standard_aid),
        HouseRule("missed_turn", t("A missed turn"),
                  t(MISSED_TURN_CELLS.get(getattr(game, "missed_turn_rule", STANDARD_MISSED_TURN),
                                          MISSED_TURN_CELLS[STANDARD_MISSED_TURN])),
                  t(MISSED_TURN_CELLS[STANDARD_MISSED_TURN])),
        HouseRule("public", t("Public archive"),
                  t("public once it ends") if getattr(game, "public", False) else t("private"),
                  t("private")),
        HouseRule("rated", t("Rated"), t("yes") if getattr(game, "rated", False) else t("no"),
                  t("no")),
    ]

