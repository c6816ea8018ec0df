"""What a game's chat is told, in the game's language: only what every player may read.

A round opened (its deadline in the game's zone), a report published (the public
answers of the round and the standings) and the game's end (its winners). Built
from the stored report with the players' public names (services/names.py: never an
address), and from nothing else: no tip, no tip score, no distribution, nothing of
which tips were right. Links point to the service's own pages (services/links.py):
the public archive once a public game has ended, else the players' pages.
"""

from __future__ import annotations

from ..i18n import N_, ntranslate, translate
from ..i18n.dates import deadline_text
from ..models import Game, Round
from ..services import reports
from ..services.errors import NotFound
from ..services.links import base_url
from .chat import Message, Section

GAME_PAGE = N_("The game's page")


def _game_link(game: Game, lang: str) -> tuple[str, str]:
    return translate(lang, GAME_PAGE), f"{base_url()}/games/{game.id}"


def round_opened(game: Game, round_: Round) -> Message:
    """Round N is open until its deadline (the game's zone and language)."""
    lang = game.language
    title = translate(lang, N_("{game}: round {number} of {rounds} is open until {deadline}")
                      ).format(game=game.name, number=round_.number, rounds=game.rounds,
                               deadline=deadline_text(round_.deadline, game.timezone, lang))
    return Message(title, (), _game_link(game, lang))


def report(game: Game, round_: Round) -> Message | None:
    """The report of ``round_`` is out: its public answers and the standings; at the end
    also the winners. None if the round has no stored results."""
    lang = game.language
    try:
        built = reports.build_report(game, round_.number, lang, public=True)
    except NotFound:
        return None
    if built.final:
        title = translate(lang, N_("{game} has ended after round {number}")).format(
            game=game.name, number=built.round)
    else:
        title = translate(lang, N_("{game}: the report of round {number} is out")).format(
            game=game.name, number=built.round)
    answer = translate(lang, "Answer")
    asked = tuple(f"{q.asker}: {q.text} {answer}: {q.answer}" for q in built.questions)
    sections = [Section(translate(lang, "Questions"),
                        asked or (translate(lang, "No questions this round."),))]
    if built.final:
        sections.insert(0, Section("", (_winners(built.winners, lang),)))
    standings = tuple(
        f"{row.rank}. {row.player}: "
        + ntranslate(lang, "{n} point", "{n} points", row.total).format(n=row.total)
        for row in built.rows)
    heading = translate(lang, N_("Final standings") if built.final else
                        N_("Standings after round {number}")).format(number=built.round)
    sections.append(Section(heading, standings))
    return Message(title, tuple(sections), _report_link(game, built.round, built.final, lang))


def _winners(winners: list[str], lang: str) -> str:
    if not winners:
        return translate(lang, "No player was left in the game, so nobody wins.")
    if len(winners) == 1:
        return translate(lang, N_("The winner: {name}")).format(name=winners[0])
    return translate(lang, N_("Tied for first place, the winners: {names}")).format(
        names=", ".join(winners))


def _report_link(game: Game, number: int, final: bool, lang: str) -> tuple[str, str]:
    if final and game.public and not game.practice:
        return (translate(lang, N_("The game in the public archive")),
                f"{base_url()}/archive/{game.id}")
    return (translate(lang, N_("The report (for the players)")),
            f"{base_url()}/games/{game.id}/rounds/{number}")


def test(game: Game) -> Message:
    """The GM's test message: the webhook works, and what the chat will hear."""
    lang = game.language
    title = translate(lang, N_("{game}: a test message from VP-Sleuth")).format(game=game.name)
    said = translate(lang, N_("This chat will be told when a round opens, when a report is "
                              "out and when the game ends."))
    return Message(title, (Section("", (said,)),), _game_link(game, lang))
