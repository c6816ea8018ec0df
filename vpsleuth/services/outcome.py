"""How a finished game came out: its winners, and where a player ended, in words.

Read from the stored results of the final round (RoundResult), never
recomputed; a list of games costs a fixed number of queries however many it
shows. The words are for lists and replies ("won by Ada (34 points) · you: 2nd
of 4, 21 points"); the final report itself says more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from babel import Locale
from babel.lists import format_list
from sqlalchemy import func, select

from ..extensions import db
from ..i18n import ntranslate, translate
from ..models import Game, Player, Round, RoundResult

# English ordinal endings by CLDR's ordinal category: 1st, 2nd, 3rd, 4th, 11th, 21st.
_ENGLISH_ENDINGS = {"one": "st", "two": "nd", "few": "rd"}


@dataclass(frozen=True)
class Place:
    """Where one player ended: ``rank`` None if withdrawn before the end."""

    rank: int | None
    total: int | None  # None: withdrawn before any round of theirs was scored
    shared: bool  # another player ended on the same rank


@dataclass(frozen=True)
class Outcome:
    """A finished game's result as one player (or its GM) sees it in a list."""

    final_round: int | None  # the round of the final report (None: none resolved)
    winners: tuple[str, ...]  # names as the reports write them ("Robo (bot)")
    top: int | None  # the winners' total
    ranked: int  # players in the final standings
    place: Place | None  # the viewer's own (None: the viewer does not play)

    @property
    def won_alone(self) -> bool:
        return self.place is not None and self.place.rank == 1 and not self.place.shared

    def winner_text(self, lang: str) -> str:
        """"won by Ada (34 points)", "you won (34 points)", or that nobody won."""
        if not self.winners or self.top is None:
            return translate(lang, "nobody won: no player was left in the game")
        if self.won_alone:
            return ntranslate(lang, "you won ({points} point)", "you won ({points} points)",
                              self.top).format(points=self.top)
        if len(self.winners) == 1:
            return ntranslate(lang, "won by {names} ({points} point)",
                              "won by {names} ({points} points)", self.top).format(
                names=self.winners[0], points=self.top)
        return ntranslate(lang, "won jointly by {names} ({points} point each)",
                          "won jointly by {names} ({points} points each)", self.top).format(
            names=format_list(list(self.winners), locale=lang), points=self.top)

    def place_text(self, lang: str) -> str | None:
        """"you: 2nd of 4, 21 points" (joint if shared, or withdrawn); None if the
        viewer does not play or won alone (the winner text says so)."""
        place = self.place
        if place is None or self.won_alone:
            return None
        if place.rank is None:
            if place.total is None:
                return translate(lang, "you: withdrawn")
            return ntranslate(lang, "you: withdrawn, {points} point",
                              "you: withdrawn, {points} points", place.total).format(
                points=place.total)
        values = dict(place=ordinal(place.rank, lang), rank=place.rank, players=self.ranked,
                      points=place.total)
        if place.shared:
            return ntranslate(lang, "you: joint {place} of {players}, {points} point",
                              "you: joint {place} of {players}, {points} points",
                              place.total or 0).format(**values)
        return ntranslate(lang, "you: {place} of {players}, {points} point",
                          "you: {place} of {players}, {points} points",
                          place.total or 0).format(**values)

    def texts(self, lang: str) -> list[str]:
        """The winner text and the viewer's place, as the lists show them side by side."""
        return [t for t in (self.winner_text(lang), self.place_text(lang)) if t]

    def sentence(self, lang: str) -> str:
        """Both texts as one sentence, for a mail: "Won by Ada (34 points); you: ..."."""
        text = "; ".join(self.texts(lang))
        return text[:1].upper() + text[1:] + "."


def ordinal(n: int, lang: str) -> str:
    """A place as written in ``lang``: 2nd, 2., 2.º."""
    if lang == "en":
        return f"{n}{_ENGLISH_ENDINGS.get(Locale('en').ordinal_form(n), 'th')}"
    if lang == "es":
        return f"{n}.º"
    return f"{n}."


def outcomes(games: Iterable[Game], players: Mapping[int, Player | None],
             lang: str = "en") -> dict[int, Outcome]:
    """The outcome of each finished game among ``games``, by game id.

    ``players``: the viewer's own player in a game, by game id (absent or None:
    the viewer only runs it). Four queries for any number of games (one more for a
    game that ended with nobody left to score).
    """
    finished = {g.id: g for g in games if g.state == "finished"}
    if not finished:
        return {}
    last = (select(Round.game_id, func.max(Round.number).label("number"))
            .where(Round.game_id.in_(list(finished)), Round.state == "resolved")
            .group_by(Round.game_id).subquery())
    rows = db.session.execute(
        select(Round.game_id, Round.number, RoundResult.player_id, RoundResult.total,
               RoundResult.rank)
        .join(last, (last.c.game_id == Round.game_id) & (last.c.number == Round.number))
        .join(RoundResult, RoundResult.round_id == Round.id)).all()
    final_round: dict[int, int] = {}
    standings: dict[int, dict[int, tuple[int, int]]] = {g: {} for g in finished}
    for game_id, number, player_id, total, rank in rows:
        final_round[game_id] = number
        standings[game_id][player_id] = (total, rank)
    top_ids = {pid for table in standings.values() for pid, (_, rank) in table.items()
               if rank == 1}
    bot = translate(lang, "bot")
    names = {pid: f"{name} ({bot})" if level else name for pid, name, level in
             db.session.execute(select(Player.id, Player.name, Player.bot_level)
                                .where(Player.id.in_(list(top_ids))))} if top_ids else {}
    mine = {gid: p for gid, p in players.items() if p is not None and gid in finished}
    left = [p.id for gid, p in mine.items() if p.id not in standings[gid]]
    last_totals = _last_totals(left)
    found = {}
    for game_id, table in standings.items():
        winners = sorted((pid for pid, (_, rank) in table.items() if rank == 1),
                         key=lambda pid: names[pid].lower())
        ranks = [rank for _, rank in table.values()]
        player = mine.get(game_id)
        place = None
        if player is not None and player.id in table:
            total, rank = table[player.id]
            place = Place(rank, total, ranks.count(rank) > 1)
        elif player is not None:
            place = Place(None, last_totals.get(player.id), False)
        found[game_id] = Outcome(
            final_round=_final_number(finished[game_id], final_round.get(game_id)),
            winners=tuple(names[pid] for pid in winners),
            top=table[winners[0]][0] if winners else None, ranked=len(table), place=place)
    return found


def outcome(game: Game, player: Player | None, lang: str = "en") -> Outcome | None:
    """The outcome of one game (None while it is not finished)."""
    return outcomes([game], {game.id: player}, lang).get(game.id)


def _final_number(game: Game, with_results: int | None) -> int | None:
    """The final round even when nobody was left to score in it (no results stored)."""
    if with_results is not None:
        return with_results
    return db.session.scalar(select(func.max(Round.number)).where(
        Round.game_id == game.id, Round.state == "resolved"))


def _last_totals(player_ids: list[int]) -> dict[int, int]:
    """Each (withdrawn) player's total after the last round they were scored in."""
    if not player_ids:
        return {}
    totals: dict[int, int] = {}
    for player_id, total in db.session.execute(
            select(RoundResult.player_id, RoundResult.total)
            .join(Round, Round.id == RoundResult.round_id)
            .where(RoundResult.player_id.in_(player_ids)).order_by(Round.number)):
        totals[player_id] = total
    return totals
