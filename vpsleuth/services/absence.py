"""Absences: a player says they are away from one day to another (RULES.md section 8).

An absence is two calendar days, both included, in the player's time zone (the
game's if they set none), and a note for the GM alone. While one covers the
moment, the player gets no reminders and the boards say "away until ..." (the
dates, never the note); what happens to their round is the game's missed-turn
rule (rules/missed.py, applied in services/resolution.py). A player announces
one on the web, by API or by mail; the GM may enter one for a player. A
cancelled absence is kept (who cancelled it, when) and no longer counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from sqlalchemy import delete, select

from ..extensions import db
from ..i18n import N_
from ..i18n.dates import day_text
from ..models import Absence, Game, Player, utcnow
from ..rules.missed import covers
from ..rules.schedule import ScheduleError, to_local
from . import events
from .errors import Invalid, NotFound, WrongState
from .games import audit, check_one_line

LONGEST_DAYS = 120
MOST_STANDING = 10
NOTE_CHARS = 300
ABSENCE_CHANNELS = ("web", "api", "email", "gm")


def _day(day: date):
    """A date parameter of an error, written for each reader's language."""
    return lambda lang: day_text(day, lang)


def day_of(text: str) -> date:
    """A day typed in a form (2026-12-20, as date inputs send it); Invalid otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise Invalid(N_("give the days as dates, such as 2026-12-20")) from None


def local_day(player: Player, moment: datetime) -> date:
    """The calendar day ``moment`` falls on where the player is."""
    try:
        return to_local(moment, player.zone).date()
    except ScheduleError:  # a zone the machine no longer knows: the game's, then UTC
        return to_local(moment, player.game.timezone or "UTC").date()


def standing(player: Player, now: datetime | None = None) -> list[Absence]:
    """The player's absences that are not cancelled and not over, soonest first."""
    today = local_day(player, now or utcnow())
    return list(db.session.scalars(select(Absence).where(
        Absence.player_id == player.id, Absence.cancelled_at.is_(None),
        Absence.ends >= today).order_by(Absence.starts, Absence.id)))


def announce(player: Player, starts: date, ends: date, note: str = "", *, channel: str,
             entered_by: str, now: datetime | None = None) -> Absence:
    """Store an absence of ``player`` from ``starts`` to ``ends`` (both included).

    A start before today (in the player's zone) is taken as today; the returned
    Absence then has ``start_moved`` True (not stored), for the confirmation to
    say so. Refused (Invalid, WrongState), with nothing stored: an end before the
    start or before today, more than LONGEST_DAYS days, more than MOST_STANDING
    standing absences, a finished game, a withdrawn player. The GM's entries
    (channel ``gm``) are audited.
    """
    now = now or utcnow()
    game = player.game
    if channel not in ABSENCE_CHANNELS:
        raise Invalid(N_("an absence comes by the web, the API, mail or the game master"))
    if game.state == "finished":
        raise WrongState(N_("'{game}' has ended; there is nothing to be away from"),
                         game=game.name)
    if not player.active or player.withdrawn_at is not None:
        raise WrongState(N_("{name} no longer plays in '{game}'"), name=player.name,
                         game=game.name)
    if ends < starts:
        raise Invalid(N_("an absence cannot end ({ends}) before it begins ({starts})"),
                      ends=_day(ends), starts=_day(starts))
    today = local_day(player, now)
    if ends < today:
        raise Invalid(N_("that absence ended on {ends}, in the past; give days from today "
                         "({today}) on"), ends=_day(ends), today=_day(today))
    moved = starts < today
    starts = max(starts, today)
    if (ends - starts).days + 1 > LONGEST_DAYS:
        raise Invalid(N_("an absence lasts at most {days} days; for a longer one, ask the "
                         "game master whether you should leave the game"), days=LONGEST_DAYS)
    already = standing(player, now)
    same = next((a for a in already if (a.starts, a.ends) == (starts, ends)), None)
    if same is not None:  # the same days again (a mail read twice, a second click)
        same.start_moved = moved
        return same
    if len(already) >= MOST_STANDING:
        raise Invalid(N_("you have {count} absences announced already; cancel one first"),
                      count=MOST_STANDING)
    note = (note or "").strip()
    if len(note) > NOTE_CHARS:
        raise Invalid(N_("the note of an absence is at most {count} characters"),
                      count=NOTE_CHARS)
    check_one_line(note, N_("the note of an absence"))
    absence = Absence(player_id=player.id, starts=starts, ends=ends, note=note,
                      channel=channel, entered_by=entered_by, created_at=now)
    db.session.add(absence)
    db.session.flush()
    if channel == "gm":
        audit(game, entered_by, "absence_entered", player=player.name, starts=starts,
              ends=ends)
    events.absence_announced.send(player, absence=absence, channel=channel,
                                  entered_by=entered_by)
    db.session.commit()
    absence.start_moved = moved
    return absence


def find(player: Player, absence_id: int) -> Absence:
    """One of ``player``'s absences by id; NotFound for anybody else's."""
    absence = db.session.get(Absence, absence_id)
    if absence is None or absence.player_id != player.id:
        raise NotFound(N_("no absence {id} of yours"), id=absence_id)
    return absence


def cancel(absence: Absence, actor: str, *, by_gm: bool = False,
           now: datetime | None = None) -> None:
    """Withdraw an absence (kept, no longer counting); the GM's cancellations are audited."""
    if absence.cancelled_at is not None:
        return
    absence.cancelled_at = now or utcnow()
    if by_gm:
        audit(absence.player.game, actor, "absence_cancelled", player=absence.player.name,
              starts=absence.starts, ends=absence.ends)
    events.absence_cancelled.send(absence.player, absence=absence, actor=actor)
    db.session.commit()


def covering(player: Player, moment: datetime) -> Absence | None:
    """The uncancelled absence that covers ``moment`` (its day where the player is), if any."""
    day = local_day(player, moment)
    return db.session.scalars(select(Absence).where(
        Absence.player_id == player.id, Absence.cancelled_at.is_(None),
        Absence.starts <= day, Absence.ends >= day).order_by(Absence.id).limit(1)).first()


def _run_end(rows: Iterable[Absence], day: date) -> date | None:
    """The last day of the absences that cover ``day`` and those that follow on at once."""
    end = None
    for a in sorted(rows, key=lambda a: a.starts):
        if end is None and covers(a.starts, a.ends, day):
            end = a.ends
        elif end is not None and a.starts <= end + timedelta(days=1):
            end = max(end, a.ends)
    return end


def away_until(player: Player, now: datetime | None = None) -> date | None:
    """The last day of the absence the player is in now (run together with any that
    follows on), for "away until ..."; None while they are not away."""
    return away_in(player.game, now).get(player.id)


def away_in(game: Game, now: datetime | None = None) -> dict[int, date]:
    """{player id: last day away} for every active player of ``game`` away now."""
    now = now or utcnow()
    players = {p.id: p for p in game.active_players}
    if not players:
        return {}
    rows: dict[int, list[Absence]] = {}
    for a in db.session.scalars(select(Absence).where(
            Absence.player_id.in_(players), Absence.cancelled_at.is_(None))):
        rows.setdefault(a.player_id, []).append(a)
    away = {}
    for player_id, absences in rows.items():
        end = _run_end(absences, local_day(players[player_id], now))
        if end is not None:
            away[player_id] = end
    return away


def as_json(absence: Absence, *, with_note: bool = True) -> dict:
    """An absence for the API (the note only for the player and the GM)."""
    out = {"id": absence.id, "player_id": absence.player_id,
           "starts": absence.starts.isoformat(), "ends": absence.ends.isoformat(),
           "channel": absence.channel, "created_at": absence.created_at.isoformat(),
           "cancelled": absence.cancelled_at is not None}
    if with_note:
        out["note"] = absence.note
    return out


def forget(email: str, *, seats: list[Player], whole: bool = True) -> None:
    """events.person_leaving: the absences of the person's seats go (the notes are theirs)."""
    ids = [p.id for p in seats]
    if ids:
        db.session.execute(delete(Absence).where(Absence.player_id.in_(ids)))


def export(email: str, *, seats: list[Player], whole: bool) -> dict[str, list[dict]]:
    """events.personal_data_asked: every absence of the seats the export covers."""
    ids = [p.id for p in seats]
    rows = db.session.scalars(select(Absence).where(Absence.player_id.in_(ids))
                              .order_by(Absence.id)) if ids else []
    return {"absence": [{**as_json(a), "entered_by": a.entered_by,
                         "cancelled_at": a.cancelled_at.isoformat() if a.cancelled_at
                         else None} for a in rows]}
