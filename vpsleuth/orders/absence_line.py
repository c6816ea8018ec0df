"""The absence line of a mail, pure: ``ABSENT 2026-12-20 2027-01-03 optional note``.

Keywords ABSENT (English), ABWESEND (German), AUSENTE (Spanish), in any case and
with or without a colon. Dates ISO (2026-12-20) or day first (20.12.2026,
20/12/2026); a word between the two dates (to, bis, hasta, a dash) may be left
in. What follows the second date is the note for the game master. The lines are
taken out of the mail before its turn is read (replaced by blank lines, so the
turn's line numbers stay those of the mail); a mail of absence lines only holds
no turn. Whether the days make sense (not in the past, not too long) is the
service's word (services/absence.py), not this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from ..rules.gems import N_

KEYWORDS = {"absent": "en", "abwesend": "de", "ausente": "es"}
_BETWEEN = {"-", "–", "—", "to", "until", "till", "bis", "hasta", "al", "a"}
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DAY_FIRST = re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$")
# The example line shown to a reader, with their language's keyword and way of writing days.
HINTS = {"en": "ABSENT 2026-12-20 2027-01-03", "de": "ABWESEND 20.12.2026 03.01.2027",
         "es": "AUSENTE 20/12/2026 03/01/2027"}


@dataclass(frozen=True)
class AbsenceLine:
    """One absence line read: both days and the note, or an error (``message_id``)."""

    line: int
    text: str
    starts: date | None = None
    ends: date | None = None
    note: str = ""
    message_id: str | None = None  # N_() text with {word} places, None when it reads
    params: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.message_id is None


def parse_date(word: str) -> date | None:
    """``2026-12-20``, ``20.12.2026`` or ``20/12/2026``; None for anything else."""
    iso, day_first = _ISO.match(word), _DAY_FIRST.match(word)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        if day_first:
            return date(int(day_first[3]), int(day_first[2]), int(day_first[1]))
    except ValueError:  # 31.02.2026
        return None
    return None


def is_absence_line(text: str) -> bool:
    """Whether the line opens with an absence keyword."""
    words = text.strip().split(maxsplit=1)
    return bool(words) and words[0].rstrip(":").lower() in KEYWORDS


def parse_line(number: int, text: str) -> AbsenceLine:
    """Read one line that opens with an absence keyword."""
    words = text.strip().split()
    rest = words[1:]
    if not rest:
        return AbsenceLine(number, text, message_id=N_("no days after {keyword}; write the "
                                                       "first and the last day away"),
                           params={"keyword": words[0]})
    starts = parse_date(rest[0])
    if starts is None:
        return AbsenceLine(number, text, message_id=N_("'{word}' is not a date; write it as "
                                                       "2026-12-20 or 20.12.2026"),
                           params={"word": rest[0]})
    rest = rest[1:]
    if rest and rest[0].lower() in _BETWEEN:
        rest = rest[1:]
    if not rest:
        return AbsenceLine(number, text, message_id=N_("no last day after {day}; write the "
                                                       "first and the last day away"),
                           params={"day": starts.isoformat()})
    ends = parse_date(rest[0])
    if ends is None:
        return AbsenceLine(number, text, message_id=N_("'{word}' is not a date; write it as "
                                                       "2026-12-20 or 20.12.2026"),
                           params={"word": rest[0]})
    return AbsenceLine(number, text, starts, ends, " ".join(rest[1:]))


def split_absence_lines(text: str) -> tuple[list[AbsenceLine], str]:
    """The absence lines of ``text`` and the text without them (blank lines in their place)."""
    found, kept = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if is_absence_line(line):
            found.append(parse_line(number, line))
            kept.append("")
        else:
            kept.append(line)
    return found, "\n".join(kept) + ("\n" if text.endswith("\n") else "")
