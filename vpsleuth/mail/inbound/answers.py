"""The replies the pipeline queues, in the player's language, and their limits.

A keyed player always gets an answer (the per-sender limit on incoming mail
bounds how many); over that limit, one notice an hour says that the rest is
set aside. A sender without a valid key may be a player who wrote a fresh mail
instead of replying, or a forged From address: one polite "could not match
your mail" a day per address (INBOUND_UNKNOWN_REPLIES_PER_ADDRESS_PER_DAY), and
at most INBOUND_UNKNOWN_REPLIES_PER_HOUR to all unknown senders together, so
forged mail can make us spam neither one address nor many.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import case, func, select

from ...extensions import db
from ...i18n import N_, translate
from ...models import OutboxMessage, Player
from ...orders import LineError, localized
from .. import notify, outbox, threads
from ..words import mail_language

OVER_LIMIT = "over_limit"  # the outbox kind of the notice to a keyed player

_REASONS = {
    "too_large": N_("Your mail was too large ({size} KiB; at most {limit} KiB are "
                    "read), so we did not read it. Please reply again with only your "
                    "turn, as plain text."),
    "too_deep": N_("Your mail was built of parts inside parts more than {depth} levels "
                   "deep, so we did not read it. Please reply again with only your "
                   "turn, as plain text."),
    "no_text": N_("Your mail had no text we could read. Please write your turn into "
                  "the mail itself, not into an attachment."),
    "empty": N_("We found no turn in your mail. Text quoted from our mail is "
                "ignored: please write your question and tips above the quoted "
                "text, one per line."),
    "bad_lines": N_("Some lines of your mail are not turn lines."),
    "over_limit": N_("We received more than {limit} mails with your reply address within "
                     "an hour, so we set the rest aside unread: this mail and any more "
                     "in the coming hour are kept but not applied, and your turn stands "
                     "as it was. If you meant to send a turn, please send it again in an "
                     "hour. If you did not write so many mails, your mail program may be "
                     "answering or forwarding in a loop."),
}
_SENDER_REASONS = {
    "no_key": N_("the address you wrote to carries no player key"),
    "forged_key": N_("the player key in the address you wrote to is not valid"),
    "handed_on": N_("the player key in the address you wrote to is no longer valid: the game "
                    "master has handed that seat on to another player, and this address no "
                    "longer plays in the game"),
}


def reason(key: str, lang: str, **values) -> str:
    """One of the pipeline's own refusal reasons, in the reader's language."""
    return translate(lang, _REASONS[key]).format(**values)


def refuse_player(player: Player, why: str, errors: list[LineError] | None = None) -> None:
    """Queue the 'your turn was not applied' mail (committed by the caller); the bad
    lines and their hints are written in the player's language."""
    shown = localized(errors, player.language, translate) if errors else None
    notify.turn_refused(player, shown, why, player.game.open_round)


def over_limit(player: Player, limit: int, now: datetime) -> str:
    """Tell a keyed player once an hour that mail over their limit is set aside.

    Silently dropping a player's turn is what the limit must never do; a
    notice per mail would feed a mail loop. Returns what happened, for the
    stored message's error column (the caller commits).
    """
    told = db.session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.kind == OVER_LIMIT, OutboxMessage.player_id == player.id,
        OutboxMessage.created_at > now - timedelta(hours=1))) or 0
    if told:
        return "the player was told within the past hour already"
    outbox.queue(OVER_LIMIT, player.email, "refused", player.language, game=player.game,
                 player=player, reply=threads.answered(), errors=[],
                 reason=reason("over_limit", player.language, limit=limit))
    return "told the player, once this hour"


def refusals_sent(to: str, now: datetime) -> tuple[int, int]:
    """'Not understood' mails queued: (to this address in the past day, to anyone in
    the past hour); one scan of the outbox for both."""
    this_address = func.lower(OutboxMessage.to_addr) == to.lower()
    past_hour = OutboxMessage.created_at > now - timedelta(hours=1)
    counts = db.session.execute(select(
        func.count(case((this_address, 1))), func.count(case((past_hour, 1)))).where(
        OutboxMessage.kind == "not_understood",
        OutboxMessage.created_at > now - timedelta(days=1))).one()
    return counts[0] or 0, counts[1] or 0


def refuse_sender(to: str, key: str, lang: str, now: datetime) -> str:
    """Queue a polite 'not understood' to a sender without a valid key, if allowed.

    Returns what happened, for the stored message's error column.
    """
    why = _SENDER_REASONS[key]
    if not to:
        return f"{why}; no sender address to answer"
    per_address = int(current_app.config["INBOUND_UNKNOWN_REPLIES_PER_ADDRESS_PER_DAY"])
    overall = int(current_app.config["INBOUND_UNKNOWN_REPLIES_PER_HOUR"])
    to_address, to_anyone = refusals_sent(to, now)
    if to_address >= per_address:
        return (f"{why}; not answered: {to_address} such replies went to {to} in the past "
                f"day already (at most {per_address})")
    if to_anyone >= overall:
        return (f"{why}; not answered: {to_anyone} such replies went to senders without a "
                f"key in the past hour already (at most {overall})")
    lang = mail_language(lang)
    notify.not_understood(to=to, reason=translate(lang, _SENDER_REASONS[key]), lang=lang)
    return f"{why}; answered {to}"
