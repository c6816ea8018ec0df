"""The information sheet: every public answer, and the player's own tips, for deduction."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...models import Game, Player
from ...rules import ATTRIBUTES, GEMS, PLACEHOLDERS
from ...rules.phrases import phrase
from ...services import reports, seats, standing_turns


@dataclass(frozen=True)
class SheetAnswer:
    round: int
    asker: str
    answer: int


@dataclass
class InfoSheet:
    """Answers by placeholder and attribute(s), and the viewer's tips by gem and round."""

    columns: list[tuple[str, str]]  # (attribute codes, label): singles, then combinations
    answers: dict[tuple[str, str], list[SheetAnswer]]  # (placeholder, codes) -> answers
    rounds: list[int]  # resolved rounds
    tips: dict[str, dict[int, str]] = field(default_factory=dict)  # gem -> round -> location
    scores: dict[int, int | None] = field(default_factory=dict)  # round -> own tip score
    tip_counts: dict[int, int] = field(default_factory=dict)
    open_round: int | None = None  # a column with the tips standing now (not scored yet)

    @property
    def rows(self) -> tuple[str, ...]:
        return PLACEHOLDERS


def build_sheet(game: Game, player: Player, lang: str = "en") -> InfoSheet:
    """The sheet from stored data only: published answers, own standing tips, tip scores."""
    done = reports.resolved_rounds(game)
    answers: dict[tuple[str, str], list[SheetAnswer]] = {}
    combos: set[str] = set()
    scores: dict[int, int | None] = {}
    me = seats.labelled({player.id: player.name}, game, lang)[player.id]  # as reports name it
    for round_ in done:
        report = reports.build_report(game, round_.number, lang)
        for q in report.questions:
            answers.setdefault((q.placeholder, q.attributes), []).append(
                SheetAnswer(report.round, q.asker, q.answer))
            if len(q.attributes) > 1:
                combos.add(q.attributes)
        mine = next((r for r in report.rows if r.player == me), None)
        scores[round_.number] = mine.tip_score if mine is not None and mine.submitted else None
    # Each row says what its answers count, as the reports' questions do ("blaue Opale").
    columns = [(a.code, phrase(a.code, lang)) for a in ATTRIBUTES]
    columns += [(codes, phrase(codes, lang)) for codes in sorted(combos, key=_combo_order)]
    sheet = InfoSheet(columns, answers, [r.number for r in done], scores=scores)
    shown = list(done)
    if game.open_round is not None and game.state != "finished":
        sheet.open_round = game.open_round.number
        shown.append(game.open_round)
    for round_ in shown:
        standing = standing_turns.standing_turn(round_, player).tips
        sheet.tip_counts[round_.number] = len(standing)
        for gem, location in standing.items():
            sheet.tips.setdefault(gem.code, {})[round_.number] = location
    return sheet


def _combo_order(codes: str) -> tuple[int, ...]:
    order = [a.code for a in ATTRIBUTES]
    return tuple(order.index(c) for c in codes)


def gem_order() -> list:
    """The 36 gems in information-sheet order (kind, size, colour)."""
    return list(GEMS)
