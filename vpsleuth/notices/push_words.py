"""The words of a push notice, in the reader's language: ``{title, body, url, tag}``.

Each says what the first lines of the matching mail say (most of the texts are
the mails' own, so a catalogue has them once) and nothing else: a round's number
and deadline, that a report is out, who wrote on the board. Never a secret: no
tip, no question's answer, no result before the report is read on its page.
``tag`` is the game's, so the browser's notification replaces the game's last one.
"""

from __future__ import annotations

import re

from ..i18n import N_, ntranslate, translate
from ..i18n.dates import deadline_text
from ..models import BoardPost, Game, Player, Round
from ..services.board import author_of
from ..services.errors import as_sentence

BODY_CHARS = 140  # a board post's opening: what a phone shows of a notification's body
DEADLINE = N_("The deadline is {deadline}.")


def payload(title: str, body: str, url: str, game: Game) -> dict[str, str]:
    """The JSON the service worker shows: its title, body, the page it opens, its tag."""
    return {"title": title, "body": body, "url": url, "tag": f"game-{game.id}"}


def _deadline(game: Game, round_: Round, player: Player) -> str:
    when = deadline_text(round_.deadline, player.zone, player.language)
    return translate(player.language, DEADLINE).format(deadline=when)


def round_opened(game: Game, round_: Round, player: Player, link: str) -> dict[str, str]:
    """Round N is open, and its deadline in the reader's zone; opens the turn form."""
    lang = player.language
    title = translate(lang, N_("{game}: round {number} is open")).format(
        game=game.name, number=round_.number)
    return payload(title, _deadline(game, round_, player), f"{link}/games/{game.id}/turn", game)


def reminder(game: Game, round_: Round, player: Player, link: str,
             hours: int) -> dict[str, str]:
    """No turn yet, ``hours`` left; opens the turn form."""
    lang = player.language
    title = ntranslate(lang, "{game}: {num} hour left for round {number}",
                       "{game}: {num} hours left for round {number}", hours).format(
        game=game.name, num=hours, number=round_.number)
    missing = translate(lang, N_('we have no turn from you for round {number} of "{game}" '
                                 'yet.')).format(number=round_.number, game=game.name)
    body = f"{as_sentence(missing)} {_deadline(game, round_, player)}"
    return payload(title, body, f"{link}/games/{game.id}/turn", game)


def turn_received(game: Game, round_: Round, player: Player, link: str) -> dict[str, str]:
    """A turn sent by mail is stored (the mail's confirmation says the same, with the
    turn; the notice leaves the turn out); opens the game's page."""
    lang = player.language
    title = translate(lang, N_("{game}: your turn for round {number} is stored")).format(
        game=game.name, number=round_.number)
    arrived = translate(lang, N_("Your mail with the turn has arrived."))
    body = f"{arrived} {_deadline(game, round_, player)}"
    return payload(title, body, f"{link}/games/{game.id}", game)


def report(game: Game, round_: Round, final: bool, player: Player,
           link: str) -> dict[str, str]:
    """A round's report (or the final report) is out: that, and not what it says;
    opens the report's page."""
    lang = player.language
    if final:
        title = translate(lang, N_("{game}: final report")).format(game=game.name)
        body = translate(lang, N_('The final report of "{game}" is out.')).format(
            game=game.name)
    else:
        title = translate(lang, N_("{game}: report of round {number}")).format(
            game=game.name, number=round_.number)
        body = translate(lang, N_('The report of round {number} of "{game}" is out.')).format(
            game=game.name, number=round_.number)
    return payload(title, body, f"{link}/games/{game.id}/rounds/{round_.number}", game)


def board_post(game: Game, post: BoardPost, announcement: bool, player: Player,
               link: str) -> dict[str, str]:
    """A post on the game's board (or the GM's announcement): who, and its opening, as
    the board's mail shows the post itself; opens the board."""
    lang = player.language
    if announcement:
        title = translate(lang, N_("{game}: an announcement from the game master")).format(
            game=game.name)
    else:
        title = translate(lang, N_("{game}: {author} wrote on the board")).format(
            game=game.name, author=author_of(post, lang))
    return payload(title, opening(post.body), f"{link}/games/{game.id}/board", game)


def opening(text: str) -> str:
    """The first BODY_CHARS characters of a post on one line, cut at a word."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= BODY_CHARS:
        return flat
    return flat[:BODY_CHARS].rsplit(" ", 1)[0].rstrip(",;:.") + "…"
