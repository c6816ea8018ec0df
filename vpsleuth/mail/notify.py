"""Which mails each game event writes to the outbox (in the event's transaction).

Every function only queues; the service that calls it commits.
"""

from __future__ import annotations

from dataclasses import replace

from markupsafe import Markup
from sqlalchemy import func, select

from ..extensions import db
from ..i18n import N_, translate
from ..i18n.dates import deadline_text
from ..models import Game, GameMaster, Player, Round, utcnow
from ..orders import LineError, format_turn
from ..rules import Turn
from ..services import missed_turns, reports
from ..services.access import Viewer
from ..services.auth import sign_in_url
from ..services.links import base_url
from ..services.outcome import outcome
from ..services.preferences import site_language
from ..services.standing_turns import standing_turn
from . import keys, outbox, render, threads


def _answering(channel: str) -> threads.Answered | None:
    """The received mail a mail to a player answers: the one being handled, if the turn
    came by mail (a turn from the web or the GM answers no mail)."""
    return threads.answered() if channel == "email" else None


# RFC 2606 reserves the top-level domain "invalid" for names that can never exist:
# the addresses of bots and of the demo's players (vpsleuth demo) live there.
NO_MAIL_DOMAIN = ".invalid"


def has_mailbox(player: Player) -> bool:
    """A bot has no mailbox, a practice game (one human against bots) sends no mail, and
    nothing is written to an address under the reserved .invalid domain."""
    return (not player.is_bot and not player.game.practice
            and not player.email.lower().endswith(NO_MAIL_DOMAIN))



def _deadline(player: Player, round_: Round) -> str:
    return deadline_text(round_.deadline, player.zone,
                         player.language)


def turn_template(player: Player, round_: Round, standing: Turn | None = None) -> str:
    """A ready turn to fill in: the standing turn, or commented examples."""
    standing = standing or standing_turn(round_, player)
    if not standing.is_empty:
        return format_turn(standing.question, standing.tips, player.language)
    return EXAMPLE_TURNS.get(player.language, EXAMPLE_TURNS["en"])


# A blank turn to fill in, in the keywords of the player's language (all are understood).
EXAMPLE_TURNS = {
    "en": "QUESTION E blue opal\nTIP A RD1\n# REPEAT  (last round's tips again)\n",
    "de": "FRAGE E blaue Opale\nTIPP A RD1\n# WIEDERHOLE  (die Tipps der letzten Runde)\n",
    "es": "PREGUNTA E ópalos azules\nAPUESTA A RD1\n"
          "# REPITE  (las apuestas de la ronda anterior)\n",
}


def sign_in(email: str, token: str, lang: str = "en") -> None:
    """The sign-in link, in the language stored for ``email`` if there is one; ``lang``
    (the requesting browser's) only for an address with no setting of its own."""
    outbox.queue("sign_in", email, "sign_in", address_language(email) or lang, auto=True,
                 link=sign_in_url(token))


def address_language(email: str) -> str | None:
    """The language set for ``email``: its GM account's, else that of its player in the
    newest running game (as the pages choose, services.preferences.site_language)."""
    address = email.strip().lower()
    gm_id = db.session.scalar(select(GameMaster.id)
                              .where(func.lower(GameMaster.email) == address))
    return site_language(Viewer(email=address, gm_id=gm_id))


def address_change(player: Player, new_email: str, token: str) -> None:
    """The link that confirms a player's new address, sent to that address."""
    link = f"{base_url()}/settings/address/{token}"
    outbox.queue("address_change", new_email, "address_change", player.language,
                 game=player.game, player=player, link=link)


def invitation(player: Player, token: str, gm_name: str | None = None) -> None:
    if not has_mailbox(player):
        return
    outbox.queue("invitation", player.email, "invitation", player.language, game=player.game,
                 player=player, link=sign_in_url(token), gm_name=gm_name)


def round_opened(game: Game, round_: Round) -> None:
    """The round's mail to every active player who wants it.

    Rendered once per language and zone (the deadline's words differ by both);
    only the greeting's name is each player's own, and the bodies are stored
    once (render.render_shared, outbox.personal, outbox.queue_all).
    """
    # By zone, language and how many tips the missed-turn rule repeated for the reader.
    shared: dict[tuple[str, str, int], render.Shared | None] = {}
    readers, whole = [], []
    link = base_url()  # may read the database: once for all
    repeated = missed_turns.repeated_in(game, round_.number - 1)
    for player in game.active_players:
        if not player.wants_round_mail or not has_mailbox(player):
            continue
        key = (player.timezone or game.timezone, player.language, repeated.get(player.id, 0))
        if key not in shared:
            shared[key] = render.render_shared(
                "round_opened", player.language, player, board_address=render.BOARD,
                **_round_opened_context(game, round_, player, link, key[2]))
        if shared[key] is not None:
            readers.append((player, shared[key]))
        else:  # the templates read more of the player than the name
            whole.append(outbox.message(
                "round_opened", player.email, "round_opened", player.language, game=game,
                player=player, board_address=keys.board_address(player),
                **_round_opened_context(game, round_, player, link, key[2])))
    outbox.queue_all(outbox.personal("round_opened", game, readers) + whole)


def _round_opened_context(game: Game, round_: Round, player: Player, link: str,
                          repeated: int = 0) -> dict:
    """``repeated``: how many of last round's tips were played again for the reader."""
    return dict(game=game, round=round_, deadline=_deadline(player, round_), base_url=link,
                turn_template=turn_template(player, round_, Turn()), repeated=repeated,
                unsubscribe_kind="round")


_ROUND_OPEN_SUBJECT = N_("{game}: round {number} is open until {deadline}")
_SUBJECT_LANGUAGES = ("en", "de", "es")


def _current_deadline(reply: threads.Answered | None, player: Player,
                      round_: Round | None) -> threads.Answered | None:
    """The answered mail with its subject's deadline brought up to date.

    A reply's subject is "Re: " and theirs, and theirs is often our round mail's,
    "round 3 is open until <date>": once the deadline has moved, that date is
    wrong, so it is replaced by the deadline now, in the subject's own language.
    """
    if reply is None or not reply.subject or round_ is None:
        return reply
    for lang in _SUBJECT_LANGUAGES:
        head = translate(lang, _ROUND_OPEN_SUBJECT).format(
            game=player.game.name, number=round_.number, deadline="\0").partition("\0")[0]
        at = reply.subject.find(head)
        if at >= 0:
            now = deadline_text(round_.deadline, player.zone, lang)
            return replace(reply, subject=reply.subject[:at + len(head)] + now)
    return reply


def turn_confirmed(player: Player, round_: Round, standing: Turn, channel: str,
                   entered_by: str, signoff: tuple[str, ...] = ()) -> None:
    """Echo the whole standing turn; always when someone else entered it.

    ``signoff``: the lines of a mail set aside as a sign-off, named word for word.
    """
    by_other = channel == "gm" or entered_by.lower() != player.email.lower()
    if not has_mailbox(player) or not (player.wants_confirmations or by_other):
        return
    outbox.queue("confirmation", player.email, "confirmation", player.language,
                 game=player.game, player=player,
                 reply=_current_deadline(_answering(channel), player, round_), round=round_,
                 channel=channel,
                 by_gm=channel == "gm", deadline=_deadline(player, round_),
                 turn=format_turn(standing.question, standing.tips, player.language),
                 signoff=signoff)


def turn_refused(player: Player, errors: list[LineError] | None, reason: str,
                 round_: Round | None = None) -> None:
    """Say why a turn was not applied; "round N is open until ..." only while it is.

    A turn sent after the deadline, before the round is resolved, finds the round
    still open but past its deadline: the reason says so, and no past time is
    offered as the deadline to keep.
    """
    if not has_mailbox(player):
        return
    taking_turns = round_ is not None and round_.state == "open" and utcnow() < round_.deadline
    ended = _ended(player)
    outbox.queue("refused", player.email, "refused", player.language, game=player.game,
                 player=player,
                 reply=_current_deadline(threads.answered(), player,
                                         round_ if taking_turns else None),
                 errors=errors or [], reason=reason, round=round_,
                 deadline=_deadline(player, round_) if taking_turns else None,
                 result=ended[0] if ended else None, final_report=ended[1] if ended else None)


def _ended(player: Player) -> tuple[str, str | None] | None:
    """A finished game's result for the player, and the link to its final report."""
    result = outcome(player.game, player, player.language)
    if result is None:
        return None
    link = (f"{base_url()}/games/{player.game_id}/rounds/{result.final_round}"
            if result.final_round else None)
    return result.sentence(player.language), link


def reminder(player: Player, round_: Round, hours: int) -> None:
    if not has_mailbox(player):
        return
    outbox.queue("reminder", player.email, "reminder", player.language, game=player.game,
                 player=player, round=round_, hours=hours, deadline=_deadline(player, round_),
                 turn_template=turn_template(player, round_),
                 board_address=keys.board_address(player))


class _EscapedOnce(str):
    """A text many mails embed: HTML-escaped once, not once per mail.

    Plain-text templates print it as it is; HTML templates ask for ``__html__``.
    """

    def __html__(self) -> Markup:
        html = self.__dict__.get("html")
        if html is None:
            html = self.__dict__["html"] = Markup.escape(str(self))
        return html


def report_readers(game: Game, round_: Round) -> list[Player]:
    """Who gets the report of ``round_`` by mail: every player with a mailbox but
    those withdrawn before the round opened."""
    return [p for p in game.players if has_mailbox(p)
            and (p.active or not p.withdrawn_at or p.withdrawn_at >= round_.opened_at)]


def round_report(game: Game, round_: Round) -> None:
    """The report to every player (reports cannot be turned off)."""
    readers = report_readers(game, round_)
    if not readers:
        return
    # One report per language, one text per language and zone, not one per player.
    built = reports.build_reports(game, round_.number, {p.language for p in readers})
    texts: dict[tuple[str, str], str] = {}
    nexts: dict[tuple[str, str], str] = {}  # the next deadline in words, for the HTML part
    early: dict[tuple[str, str], str | None] = {}  # "closed early, on ...", for the HTML part
    # Rendered once per language and zone too (with each player's name, should the
    # templates greet the player), or whole per player if they read more of them.
    shared: dict[tuple[str, str], render.Shared | None] = {}
    kind = "final_report" if next(iter(built.values())).final else "report"
    personal, whole = [], []
    link = base_url()  # may read the database: once for all
    for player in readers:
        lang, tz = player.language, player.timezone or game.timezone
        if (lang, tz) not in texts:
            texts[(lang, tz)] = _EscapedOnce(reports.render_text(built[lang], tz, lang))
            due = built[lang].next_deadline
            nexts[(lang, tz)] = deadline_text(due, tz, lang) if due else ""
            early[(lang, tz)] = reports.closed_early_text(built[lang], tz, lang)
            shared[(lang, tz)] = render.render_shared(
                "report", lang, player, game=game, report=built[lang],
                report_text=texts[(lang, tz)], next_deadline=nexts[(lang, tz)],
                closed_early=early[(lang, tz)], base_url=link, board_address=render.BOARD)
        if shared[(lang, tz)] is not None:
            personal.append((player, shared[(lang, tz)]))
        else:
            whole.append(outbox.message(kind, player.email, "report", lang, game=game,
                                        player=player, report=built[lang],
                                        report_text=texts[(lang, tz)],
                                        next_deadline=nexts[(lang, tz)],
                                        closed_early=early[(lang, tz)], base_url=link,
                                        board_address=keys.board_address(player)))
    outbox.queue_all(outbox.personal(kind, game, personal) + whole)


_MOVED = {
    "extended": N_("The game master has extended the deadline."),
    "advanced": N_("The game master has brought the deadline forward."),
    "resumed": N_("The game was paused and goes on; the deadline moved by the pause."),
    "outage": N_("The service was down while the deadline passed, so you may not have been "
                 "able to send your turn; the deadline moved by the outage."),
}


def deadline_moved(game: Game, round_: Round, why: str) -> None:
    """Tell every active player; ``why`` is extended, advanced, resumed or outage."""
    for player in game.active_players:
        if not has_mailbox(player):
            continue
        outbox.queue("deadline_moved", player.email, "deadline_moved", player.language,
                     game=game, player=player, round=round_,
                     reason=translate(player.language, _MOVED[why]),
                     deadline=_deadline(player, round_))


def not_understood(to: str, reason: str, lang: str = "en") -> None:
    """A polite refusal to a sender we cannot match to a player (no Reply-To key)."""
    outbox.queue("not_understood", to, "not_understood", lang, reply=threads.answered(),
                 reason=reason)
