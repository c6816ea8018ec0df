"""The GM's forms: field checks here, game rules in the services and the rules core."""

from __future__ import annotations

import re

from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, StringField, TextAreaField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...i18n import N_, translate
from ...rules import Ruleset
from ...rules.missed import MISSED_TURN_RULES
from ...rules.schedule import AFTER_EARLY, Schedule, ScheduleError, explicit, weekly
from ..inputs import MAX_ID
from ..session import current_language

# Selects are rendered by the templates (web/gm/_macros.html) from these lists;
# the fields are plain strings checked with AnyOf.
LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español"}
COMMON_ZONES = (
    "Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/London", "Europe/Paris",
    "Europe/Amsterdam", "Europe/Stockholm", "Europe/Helsinki", "America/New_York",
    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Toronto",
    "America/Sao_Paulo", "Asia/Tokyo", "Australia/Sydney", "Pacific/Auckland", "UTC",
)
REQUIRED = N_("This field is required.")
CHOOSE = N_("Choose one of the offered values.")
WHOLE = N_("Give a whole number.")
# WTForms' own messages for the validators below, shown through t() (web/gm/_macros.html).
WTFORMS_MESSAGES = (N_("Field cannot be longer than 120 characters."),
                    N_("Field cannot be longer than 80 characters."),
                    N_("Field cannot be longer than 64 characters."),
                    N_("Field cannot be longer than 254 characters."),
                    N_("Not a valid integer value."), N_("Number must be at least 1."))


def _numbers(text: str, what: str) -> list[int]:
    """Whole numbers separated by commas or spaces ("3,2,1"); empty gives []."""
    parts = [p for p in re.split(r"[,\s;]+", text or "") if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        lang = current_language()
        raise ValueError(translate(lang, "{what} are whole numbers separated by commas, "
                                         "not {text}").format(what=translate(lang, what),
                                                              text=repr(text.strip()))) from None


_STANDARD = Ruleset()  # the form starts from the standard game, as the rulebook states it


class NewGameForm(FlaskForm):
    """A game: name, language, house rules (RULES.md section 7), reminders, schedule."""

    name = StringField(validators=[InputRequired(REQUIRED), Length(max=120)])
    language = StringField(default="en", validators=[AnyOf(list(LANGUAGES), CHOOSE)])
    rounds = IntegerField(default=_STANDARD.rounds, validators=[InputRequired(WHOLE)])
    first_bonus_round = IntegerField(default=_STANDARD.first_bonus_round,
                                     validators=[InputRequired(WHOLE)])
    bonuses = StringField(default=", ".join(str(b) for b in _STANDARD.bonuses))
    points_right = IntegerField(default=_STANDARD.points_right,
                                validators=[InputRequired(WHOLE)])
    points_wrong = IntegerField(default=_STANDARD.points_wrong,
                                validators=[InputRequired(WHOLE)])
    early_resolution = BooleanField(default=_STANDARD.early_resolution)
    after_early = StringField(default="calendar", validators=[AnyOf(AFTER_EARLY, CHOOSE)])
    deduction_aid = BooleanField(default=False)
    missed_turn_rule = StringField(default="none",
                                   validators=[AnyOf(list(MISSED_TURN_RULES), CHOOSE)])
    reminders = StringField(default="24, 4")
    schedule_kind = StringField(default="weekly",
                                validators=[AnyOf(["weekly", "explicit"], CHOOSE)])
    first_deadline = StringField()
    every_days = IntegerField(default=7, validators=[Optional()])
    timezone = StringField(default="Europe/Berlin", validators=[Length(max=64)])
    timezone_other = StringField(validators=[Length(max=64)])
    deadlines = TextAreaField()

    def chosen_timezone(self) -> str:
        """The free-text zone when given, else the one picked from the list."""
        return (self.timezone_other.data or "").strip() or self.timezone.data

    def ruleset(self) -> Ruleset:
        """The house rules; raises RulesetError or ValueError with a message for the GM."""
        bonuses = tuple(_numbers(self.bonuses.data, N_("bonus values")))
        return Ruleset(rounds=self.rounds.data, first_bonus_round=self.first_bonus_round.data,
                       bonuses=bonuses, points_right=self.points_right.data,
                       points_wrong=self.points_wrong.data,
                       early_resolution=bool(self.early_resolution.data))

    def reminder_hours(self) -> list[int]:
        return _numbers(self.reminders.data, N_("reminder times"))

    def schedule(self) -> Schedule:
        """Weekly from a first deadline, or an explicit list; raises ScheduleError."""
        zone, every = self.chosen_timezone(), self.every_days.data or 7
        if self.schedule_kind.data == "explicit":
            entries = [e.strip() for e in re.split(r"[\n,;]+", self.deadlines.data or "")
                       if e.strip()]
            return explicit(entries, zone, every)
        if not (self.first_deadline.data or "").strip():
            raise ScheduleError(N_("Give the first deadline (date and time), "
                                   "or choose a list of deadlines."))
        return weekly(self.first_deadline.data, zone, every)


class InviteForm(FlaskForm):
    """A player to invite by email."""

    name = StringField(validators=[InputRequired(REQUIRED), Length(max=80)])
    email = StringField(validators=[InputRequired(REQUIRED), Length(max=254)])
    language = StringField(default="en", validators=[AnyOf(list(LANGUAGES), CHOOSE)])


class TurnForm(FlaskForm):
    """A turn the GM enters for a player, in the turn language."""

    player = StringField(validators=[InputRequired(N_("Choose the player."))])
    round = IntegerField(validators=[Optional(), NumberRange(1, MAX_ID)])  # the round the GM saw
    text = TextAreaField(validators=[InputRequired(N_("Write the turn, one command a line."))])


class TokenForm(FlaskForm):
    """A new API token: only a label to tell tokens apart."""

    label = StringField(validators=[Length(max=80)])


class TimeForm(FlaskForm):
    """A new deadline, local time in the game's zone."""

    deadline = StringField(validators=[InputRequired(REQUIRED)])


class AfterEarlyForm(FlaskForm):
    """After a round closes early: the next deadline keeps the calendar or is fresh."""

    after_early = StringField(validators=[InputRequired(CHOOSE), AnyOf(AFTER_EARLY, CHOOSE)])


class RoundForm(FlaskForm):
    """Resolve now: the round the GM saw, so a double submit cannot hit the next one."""

    number = IntegerField(validators=[InputRequired(WHOLE), NumberRange(1, MAX_ID)])
