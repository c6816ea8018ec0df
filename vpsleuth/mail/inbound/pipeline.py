"""One pipeline for every entrance (IMAP, MTA pipe, SMTP receiver).

1. store the raw message (store.py), committed first;
2. drop a duplicate Message-ID;
3. ignore machine mail (classify.py);
4. find the player by the reply key in the recipient headers (never by From);
   ignore senders over INBOUND_PER_SENDER_PER_HOUR: a keyed mail counts against
   its player, any other against its From address, so forged mail can never use
   up a player's limit;
5. decode the text (mime.py), strip quotes and signatures (reply.py) and set
   aside a sign-off below the turn (orders/signoff.py);
6. apply it with services.turns.submit_turn, as the web does, and answer.

A mail with a valid board key instead (keys.board_address, issue 20) is posted on
the game's board at step 5 (board.py); a reply key found in the same mail wins,
so a turn is never posted by mistake.

Statuses: received -> applied | refused | ignored | duplicate | failed. A message
that fails on the way stays stored as "failed" with its error; reprocess() runs
it again once the cause is fixed.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import Message

from flask import current_app
from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import SQLAlchemyError

from ...extensions import db
from ...models import InboundMessage, Player, utcnow
from ...orders import signoff
from ...orders.absence_line import split_absence_lines
from ...services import turns
from ...services.errors import NotFound, RoundClosed, TurnRefused, WrongState
from .. import keys, mime, threads
from . import absence_mail, answers, board, classify, reply, thread
from .store import TOO_LARGE, stored_row

log = logging.getLogger(__name__)
HANDLED = ("applied", "refused", "ignored")
REPROCESSABLE = ("failed", "received")


def ingest(raw: bytes, source: str, *, now: datetime | None = None) -> InboundMessage:
    """Store one message, then run it through the pipeline; returns the stored row.

    Raises store.StoreError when the message could not be stored; the entrances use
    receive(), which also never raises once the message is stored.
    """
    return _run(stored_row(raw, source, now=now), now, force=False)


@dataclass(frozen=True)
class Received:
    """What became of a message an entrance handed in (it is stored in any case)."""

    id: int
    status: str  # the pipeline's status; "received" if processing could not finish
    error: str


def receive(raw: bytes, source: str, *, now: datetime | None = None) -> Received:
    """For the entrances: store, then process; after storing, never raises.

    Raises store.StoreError when the message could not be stored (the entrance
    then leaves it with the sender: tempfail, 4xx, or in the IMAP folder).
    """
    row = stored_row(raw, source, now=now)
    row_id = row.id
    try:
        row = _run(row, now, force=False)
        return Received(row_id, row.status, row.error)
    except Exception as exc:  # e.g. the database went away after the message was stored
        log.exception("inbound message %s stored but not processed", row_id)
        with contextlib.suppress(SQLAlchemyError):
            db.session.rollback()
        return Received(row_id, "received", f"stored but not processed ({exc}); run "
                        f"'vpsleuth mail reprocess {row_id}'")


def process(row_id: int, *, now: datetime | None = None, force: bool = False) -> InboundMessage:
    """Run a stored message through the pipeline; a crash leaves it "failed"."""
    row = db.session.get(InboundMessage, row_id)
    if row is None:
        raise NotFound(f"no inbound message {row_id}")
    return _run(row, now, force=force)


def _run(row: InboundMessage, now: datetime | None, *, force: bool) -> InboundMessage:
    now, row_id = now or utcnow(), row.id
    try:
        with threads.answering(row.raw):  # the replies queued on the way answer this mail
            _process(row, now, force)
    except Exception as exc:
        log.exception("inbound message %s failed", row_id)
        db.session.rollback()
        row = db.session.get(InboundMessage, row_id)
        note = row.error if row.error.startswith(TOO_LARGE) else ""
        error = f"{exc.__class__.__name__}: {exc}"[:2000]
        row.status, row.processed_at = "failed", now
        row.error = f"{note}; {error}" if note else error
        db.session.commit()
    return row


def reprocess(row_id: int, *, force: bool = False) -> InboundMessage:
    """Run a failed (or never processed) message again, e.g. after a fix.

    ``force`` also takes ignored and refused messages, and skips the checks for
    machine mail and the per-sender limit (the GM has looked at it).
    """
    row = db.session.get(InboundMessage, row_id)
    if row is None:
        raise NotFound(f"no inbound message {row_id}")
    allowed = REPROCESSABLE + (("ignored", "refused") if force else ())
    if row.status not in allowed:
        hint = "" if force else " (--force also takes ignored and refused ones)"
        raise WrongState(f"inbound message {row_id} is {row.status}; only failed or "
                         f"unprocessed messages can be reprocessed{hint}")
    row.status = "received"
    row.error = row.error if row.error.startswith(TOO_LARGE) else ""
    row.turn_version_id = None
    db.session.commit()
    return process(row_id, force=force)


# A message an entrance stored but could not process (the database went away in
# between: a failover, a restart) is processed by the scheduler after this long; an
# entrance processes what it stored within a second, so this never races one.
LEFT_OVER = timedelta(minutes=2)
# A claim older than this is taken to be a scheduler's that died after claiming: the
# message is still "received", so nothing of it was applied, and another takes it.
STALE_CLAIM = timedelta(minutes=10)


def process_left_over(now: datetime | None = None, limit: int = 100) -> int:
    """Process the messages stored but never processed, LEFT_OVER after their arrival.

    The sender had their 250 (or the IMAP move) once the message was stored, so
    it must not wait for a GM's ``vpsleuth mail reprocess``. It is processed as of
    its arrival, as its entrance would have: a turn sent before the deadline is on
    time. Each is claimed first (processed_at set where it was unset, a conditional
    UPDATE), so of several schedulers one takes it; one that fails on the way is
    left "failed", as any other; one whose scheduler died before it was processed
    is claimed again after STALE_CLAIM. Returns how many were processed.
    """
    now = now or utcnow()
    unclaimed = or_(InboundMessage.processed_at.is_(None),
                    InboundMessage.processed_at < now - STALE_CLAIM)
    left = db.session.execute(select(InboundMessage.id, InboundMessage.received_at).where(
        InboundMessage.status == "received", unclaimed,
        InboundMessage.received_at < now - LEFT_OVER)
        .order_by(InboundMessage.id).limit(limit)).all()
    done = 0
    for row_id, received_at in left:
        claimed = db.session.execute(
            update(InboundMessage).where(InboundMessage.id == row_id,
                                         InboundMessage.status == "received", unclaimed)
            .values(processed_at=now).execution_options(synchronize_session=False))
        db.session.commit()
        if claimed.rowcount != 1:
            continue  # another scheduler has it
        log.info("inbound message %d was stored but not processed; processing it now", row_id)
        process(row_id, now=received_at)
        done += 1
    return done


def recent(limit: int = 20, status: str | None = None) -> list[InboundMessage]:
    """The latest inbound messages, newest first."""
    query = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
    if status:
        query = query.where(InboundMessage.status == status)
    return list(db.session.scalars(query))


def _finish(row: InboundMessage, status: str, error: str, now: datetime,
            version_id: int | None = None, *, commit: bool = True) -> None:
    note = row.error if row.error.startswith(TOO_LARGE) else ""
    if note and not error.startswith(TOO_LARGE):
        error = f"{note}; {error}" if error else note
    row.status, row.processed_at, row.error = status, now, error[:4000]
    if version_id is not None:
        row.turn_version_id = version_id
    if commit:
        db.session.commit()


def _duplicate_of(row: InboundMessage) -> int | None:
    if not row.message_id:
        return None
    return db.session.scalar(select(InboundMessage.id).where(
        InboundMessage.message_id == row.message_id, InboundMessage.id != row.id,
        InboundMessage.status.in_(HANDLED)).order_by(InboundMessage.id).limit(1))


def _over_rate(row: InboundMessage, player: Player | None, now: datetime) -> str | None:
    """Why the message is over the hourly limit, or None.

    A valid key counts against its player whatever the From says; mail without
    one counts against its From address, among unkeyed mail only. A stranger who
    forges a player's From thus fills only the unkeyed count of that address.
    """
    limit = int(current_app.config["INBOUND_PER_SENDER_PER_HOUR"])
    if player is not None:
        same = InboundMessage.player_id == player.id
        who = f"with the reply key of player {player.id}"
    else:
        same = (InboundMessage.from_addr == row.from_addr) & InboundMessage.player_id.is_(None)
        who = f"without a valid key from {row.from_addr or 'no sender'}"
    count = db.session.scalar(select(func.count(InboundMessage.id)).where(
        same, InboundMessage.id != row.id,
        InboundMessage.received_at > now - timedelta(hours=1))) or 0
    if count < limit:
        return None
    why = f"rate limit: {count} mails {who} in the past hour (at most {limit})"
    return f"{why}; {answers.over_limit(player, limit, now)}" if player is not None else why


def _sender_language(msg: Message) -> str:
    content_language = mime.header(msg, "Content-Language").lower()
    subject = mime.header(msg, "Subject").lstrip().lower()
    if content_language.startswith("de") or subject.startswith(("aw:", "wg:")):
        return "de"
    if content_language.startswith("es") or subject.startswith("rv:"):  # Outlook's "reenviar"
        return "es"
    return current_app.config.get("DEFAULT_LANGUAGE", "en")


def _process(row: InboundMessage, now: datetime, force: bool) -> None:
    try:
        msg, too_deep = mime.parse(row.raw), False
    except mime.TooDeep:  # its headers still tell who wrote it and with which key
        msg, too_deep = mime.parse_headers(row.raw), True
    original = _duplicate_of(row)
    if original is not None:
        return _finish(row, "duplicate", f"same Message-ID as inbound message {original}", now)
    if not force:
        why = classify.why_ignored(msg)
        if why:
            return _finish(row, "ignored", why, now)
    recipients = mime.addresses(msg)
    player = keys.player_for_addresses(recipients)
    on_board = player is None and (
        player := keys.board_player_for_addresses(recipients)) is not None
    if player is not None:
        row.game_id, row.player_id = player.game_id, player.id
    if not force:
        why = _over_rate(row, player, now)
        if why:
            return _finish(row, "ignored", why, now)
    if row.error.startswith(TOO_LARGE):
        return _too_large(row, player, now, on_board)
    if player is None:
        key = "forged_key" if keys.has_reply_key_shape(recipients) else "no_key"
        retired = keys.retired_key_player(recipients) if key == "forged_key" else None
        if retired is not None and turns.holds_from(retired) is not None:
            key = "handed_on"  # the seat's old holder writes with the old key
        return _finish(row, "refused",
                       answers.refuse_sender(row.from_addr, key, _sender_language(msg), now), now)
    if too_deep and on_board:
        why = board.refuse(player, "too_deep", depth=mime.MAX_DEPTH)
        return _finish(row, "refused", f"{why} (answered the player)", now)
    if on_board:
        return board.post(row, player, msg, now, _finish)
    if too_deep:
        answers.refuse_player(player, answers.reason("too_deep", player.language,
                                                     depth=mime.MAX_DEPTH))
        return _finish(row, "refused", f"{mime.TooDeep()}; answered the player", now)
    body = mime.body_text(msg)
    if body is None:
        answers.refuse_player(player, answers.reason("no_text", player.language))
        return _finish(row, "refused", "no text part in the mail; answered the player", now)
    text = reply.strip_reply(body)
    row.body_text = text
    if not reply.has_content(text):
        answers.refuse_player(player, answers.reason("empty", player.language))
        return _finish(row, "refused", "no turn in the mail (only quoted text, a signature "
                       "or comments); answered the player", now)
    # ABSENT lines are announced and answered on their own (absence_mail.py), before
    # a sign-off is looked for (so none is taken for one). With no line that looks like
    # a turn line beside them ("Cheers, Ada", a word to the GM), the mail is no turn,
    # not even an empty one.
    absences, text = split_absence_lines(text)
    # A trailing "Grüße, Ada" is set aside, not refused; the confirmation names it.
    # The turn is stored without it, so it parses the same whenever it is read again.
    split = signoff.split_signoff(text)
    row.body_text = split.turn
    round_number = thread.round_of_reply(msg, player)
    if absences:
        every, said = absence_mail.apply(player, absences, row.from_addr[:120], now)
        if not any(signoff.looks_like_turn(line) for line in split.turn.splitlines()):
            return _finish(row, "applied" if every else "refused", f"{said}; no turn", now)
        player = db.session.get(Player, row.player_id)
    # What was found so far (player, turn text) commits with the turn's verbatim copy.
    return _apply(row, player, split.turn, round_number, now, split.lines)


def _too_large(row: InboundMessage, player: Player | None, now: datetime,
               on_board: bool = False) -> None:
    if player is None:
        return _finish(row, "refused", "no valid reply key, not answered", now)
    if on_board:
        board.too_large(player, row.error.removeprefix(TOO_LARGE).split()[0])
        return _finish(row, "refused", "a board post; answered the player", now)
    limit = int(current_app.config["INBOUND_MAX_BYTES"])
    size = row.error.removeprefix(TOO_LARGE).split()[0]
    answers.refuse_player(player, answers.reason(
        "too_large", player.language, size=int(size) // 1024 if size.isdigit() else "?",
        limit=limit // 1024))
    return _finish(row, "refused", "answered the player", now)


def _apply(row: InboundMessage, player: Player, text: str, round_number: int | None,
           now: datetime, signed: tuple[str, ...] = ()) -> None:
    row_id, player_id, lang = row.id, player.id, player.language
    note = f"set aside as a sign-off: {' / '.join(signed)}" if signed else ""
    try:
        # The service's own clock decides lateness: a message reprocessed after
        # the deadline is late, as it would be from any other entrance. "applied"
        # commits with the turn itself: one commit fewer, and never a turn that
        # is stored while its message still looks unprocessed.
        turns.submit_turn(player, text, channel="email", entered_by=row.from_addr[:120] or None,
                          round_number=round_number, signoff=signed, on_accept=lambda sub:
                          _finish(row, "applied", note, now, sub.version.id, commit=False))
    except TurnRefused as exc:
        refused, errors, why = exc, exc.errors, answers.reason("bad_lines", lang)
    except (RoundClosed, WrongState) as exc:
        refused, errors, why = exc, None, exc.sentence(lang)
    else:
        return None
    player = db.session.get(Player, player_id)
    answers.refuse_player(player, why, errors)
    row = db.session.get(InboundMessage, row_id)
    return _finish(row, "refused", refused.message, now, refused.version_id)
