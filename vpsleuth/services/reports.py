"""Round reports, built from stored results only (never recomputed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime

from flask import render_template
from sqlalchemy import select

from ..extensions import db
from ..i18n import N_, ntranslate, translate, translator
from ..i18n.dates import deadline_text
from ..models import Game, Player, Round, RoundResult, StandingQuestion
from ..rules import Question
from .errors import NotFound
from .names import former_name, public_names
from .seats import holders_from, labelled


@dataclass(frozen=True)
class AskedQuestion:
    asker: str
    placeholder: str
    attributes: str  # attribute codes, e.g. "BO"
    text: str
    answer: int


@dataclass(frozen=True)
class ReportRow:
    player: str
    submitted: bool
    tip_score: int
    bonus: int
    points: int
    total: int
    rank: int
    # The missed-turn rule played last round's tips for this player (services/missed_turns).
    repeated: bool = False


@dataclass(frozen=True)
class RoundReport:
    game: str
    round: int
    rounds: int
    resolved_at: datetime
    bonus_round: bool
    questions: list[AskedQuestion]
    rows: list[ReportRow]
    history: dict[str, list[int | None]]  # player -> total after each round so far
    next_deadline: datetime | None
    final: bool
    commitment: str
    winners: list[str] = field(default_factory=list)
    distribution: str | None = None  # revealed only in the final report
    salt: str | None = None
    deadline: datetime | None = None  # the round's own deadline
    # Resolved before its deadline: "all_sent" (early resolution, every active player had
    # sent a turn) or "game_master" (resolved by hand); None at the deadline.
    closed_early: str | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        data["resolved_at"] = self.resolved_at.isoformat()
        data["next_deadline"] = self.next_deadline.isoformat() if self.next_deadline else None
        data["deadline"] = self.deadline.isoformat() if self.deadline else None
        return data


def resolved_rounds(game: Game) -> list[Round]:
    return [r for r in game.rounds_ if r.state == "resolved"]


def build_report(game: Game, number: int | None = None, lang: str = "en", *,
                 public: bool = False) -> RoundReport:
    """The report of round ``number`` (default: the latest resolved round).

    ``public``: players by their public names (the archive: services/names.py).
    """
    return build_reports(game, number, (lang,), public=public)[lang]


def build_reports(game: Game, number: int | None = None,
                  langs: Iterable[str] = ("en",), *, public: bool = False,
                  ) -> dict[str, RoundReport]:
    """The report of one round in each of ``langs``, reading the database once for all."""
    done = resolved_rounds(game)
    if not done:
        raise NotFound(N_("no round of '{game}' has been resolved yet"), game=game.name)
    round_ = done[-1] if number is None else next((r for r in done if r.number == number), None)
    if round_ is None:
        raise NotFound(N_("round {round} of '{game}' has not been resolved"), round=number,
                       game=game.name)
    # Rows of columns, not objects: a big game has a thousand of each.
    results = db.session.execute(select(
        RoundResult.player_id, RoundResult.submitted, RoundResult.tip_score, RoundResult.bonus,
        RoundResult.points, RoundResult.total, RoundResult.rank, RoundResult.repeated)
        .where(RoundResult.round_id == round_.id)
        .order_by(RoundResult.rank, RoundResult.player_id)).all()
    asked = db.session.execute(select(
        StandingQuestion.player_id, StandingQuestion.question, StandingQuestion.answer)
        .where(StandingQuestion.round_id == round_.id).join(Player).order_by(Player.name)).all()
    history = _history(game, [r for r in done if r.number <= round_.number])
    nxt = game.round(round_.number + 1)
    final = game.state == "finished" and round_ is done[-1]
    top = min((r.rank for r in results), default=None)
    early = _closed_early(game, round_, [r.submitted for r in results])
    changed = holders_from(game)  # seats handed on: their holder's first round
    reports = {}
    for lang in langs:
        names = labelled(public_names(game, lang) if public else player_names(game, lang),
                         game, lang, changed)
        questions = []
        worded: dict[str, tuple[str, str, str]] = {}  # many players ask the same question
        for player_id, codes, answer in asked:
            if codes not in worded:
                question = Question.from_codes(codes)
                worded[codes] = (question.placeholder,
                                 "".join(a.code for a in question.attributes),
                                 question.text(lang))
            questions.append(AskedQuestion(names[player_id], *worded[codes], answer))
        reports[lang] = RoundReport(
            game=game.name, round=round_.number, rounds=game.rounds,
            resolved_at=round_.resolved_at,
            bonus_round=game.ruleset.is_bonus_round(round_.number), questions=questions,
            rows=[ReportRow(names[r.player_id], r.submitted, r.tip_score, r.bonus, r.points,
                            r.total, r.rank, bool(r.repeated)) for r in results],
            history={names[player_id]: list(totals) for player_id, totals in history.items()},
            # A practice round is resolved by the player's turn: its deadline means nothing.
            next_deadline=nxt.deadline if nxt and not game.practice else None, final=final,
            commitment=game.commitment or "",
            winners=[names[r.player_id] for r in results if final and r.rank == top],
            distribution=game.secret.distribution if final else None,
            salt=game.secret.salt if final else None,
            deadline=round_.deadline, closed_early=early,
        )
    return reports


def _closed_early(game: Game, round_: Round, submitted: list[bool]) -> str | None:
    """Why the round was resolved before its deadline, if it was (the stored times say)."""
    if round_.resolved_at is None or round_.resolved_at >= round_.deadline:
        return None
    if game.early_resolution and submitted and all(submitted):
        return "all_sent"
    return "game_master"


def player_names(game: Game, lang: str = "en") -> dict[int, str]:
    """Each player's name as reports show it: a computer player marked "(bot)", a seat
    whose person left as "former player N"."""
    bot = translate(lang, "bot")
    return {p.id: former_name(p.former_number, lang) if p.left_at is not None
            else f"{p.name} ({bot})" if p.is_bot else p.name for p in game.players}


def _history(game: Game, rounds: list[Round]) -> dict:
    """Each player's total after each round (None before they joined), by player id."""
    by_round = {r.id: i for i, r in enumerate(rounds)}
    history: dict[int, list[int | None]] = {p.id: [None] * len(rounds) for p in game.players}
    rows = db.session.execute(select(RoundResult.round_id, RoundResult.player_id,
                                     RoundResult.total)
                              .where(RoundResult.round_id.in_(list(by_round)))).all()
    for round_id, player_id, total in rows:
        history[player_id][by_round[round_id]] = total
    return {who: totals for who, totals in history.items() if any(t is not None for t in totals)}


def render_text(report: RoundReport, timezone: str, lang: str = "en") -> str:
    """The report as plain text in the traditional zine style."""
    deadline = deadline_text(report.next_deadline, timezone, lang) if report.next_deadline else ""
    return render_template("reports/round.txt", report=report, t=translator(lang),
                           ngettext=lambda one, many, n: ntranslate(lang, one, many, n),
                           next_deadline=deadline,
                           closed_early=closed_early_text(report, timezone, lang))


_CLOSED_EARLY = {
    "all_sent": N_("This round closed early, on {when}: every player had sent a turn "
                   "(the deadline was {deadline})."),
    "game_master": N_("The game master resolved this round on {when}, before its deadline "
                      "({deadline})."),
}


def closed_early_text(report: RoundReport, timezone: str, lang: str = "en") -> str | None:
    """That the round closed before its deadline, and why, in ``lang``; None if it did not."""
    if report.closed_early is None or report.deadline is None:
        return None
    return translate(lang, _CLOSED_EARLY[report.closed_early]).format(
        when=deadline_text(report.resolved_at, timezone, lang),
        deadline=deadline_text(report.deadline, timezone, lang))
