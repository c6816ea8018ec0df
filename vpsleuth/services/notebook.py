"""A player's private notebook: a 36 x 8 grid of marks (gems by A-G and X) and free notes.

It belongs to one player in one game and to nobody else: not to the game's
other players, not to its game master, not to a stranger. Each of them is told
there is no such notebook (NotFound), as for a game that does not exist. It is
kept when the game ends; nothing here reads or reveals the secret deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..i18n import N_
from ..models import Game, Player, PlayerNotebook, utcnow
from ..rules import GEM_BY_CODE, GEMS, LOCATIONS
from . import access
from .errors import Invalid, NotFound

NO_GEM = N_("no gem {gem}: write a gem code such as RD1 or YO3")

MARKS = ("yes", "no", "maybe")
CYCLE = ("", "yes", "no", "maybe")  # what a tap on a cell does: the next in this order
MAX_NOTES = 20_000  # characters
CELLS = len(GEMS) * len(LOCATIONS)
_CODE = {"": ".", "yes": "y", "no": "n", "maybe": "m"}
_WORD = {code: word for word, code in _CODE.items()}
_GEM_INDEX = {g.code: i for i, g in enumerate(GEMS)}
_LOCATION_INDEX = {loc: i for i, loc in enumerate(LOCATIONS)}
EMPTY = "." * CELLS

Marks = dict[str, dict[str, str]]  # gem code -> location -> yes | no | maybe (marked cells only)


@dataclass(frozen=True)
class Notebook:
    """What a notebook holds: ``grid`` as a 288-character string, notes, when last saved."""

    grid: str
    notes: str
    updated_at: datetime | None
    places: ClassVar[tuple[str, ...]] = LOCATIONS  # the grid's columns: A-G, then X
    max_notes: ClassVar[int] = MAX_NOTES

    def mark(self, gem: str, location: str) -> str:
        """'yes', 'no', 'maybe' or '' for one cell."""
        return _WORD[self.grid[_cell(gem, location)]]

    @property
    def marks(self) -> Marks:
        """The marked cells, by gem and location."""
        out: Marks = {}
        for gem in GEMS:
            for location in LOCATIONS:
                word = self.mark(gem.code, location)
                if word:
                    out.setdefault(gem.code, {})[location] = word
        return out


def owner(viewer: access.Viewer, game: Game) -> Player:
    """The viewer's own player in ``game``, whose notebook they may open.

    Anyone else, the game master of the game included, gets NotFound: a
    notebook is never shown to anybody but its player.
    """
    player = access.player_in(viewer, game)
    if player is None:
        raise NotFound(N_("no notebook of yours in game {id}"), id=game.id)
    return player


def read(player: Player) -> Notebook:
    """The player's notebook (empty if nothing was ever written)."""
    row = _row(player)
    if row is None:
        return Notebook(EMPTY, "", None)
    return Notebook(_padded(row.marks), row.notes, row.updated_at)


def save(player: Player, *, grid: str | None = None, marks: Mapping | None = None,
         notes: str | None = None, cycle: tuple[str, str] | None = None) -> Notebook:
    """Change what is given and keep the rest; commits.

    ``grid``: all 288 cells at once as the page keeps them (``.ynm``);
    ``marks``: all cells at once by gem and location (unlisted cells are cleared);
    ``notes``: the free notes; ``cycle``: (gem, location) of one cell to move on
    to its next mark, as a tap on the page does. Bad input raises Invalid and
    changes nothing.
    """
    if grid is not None and marks is not None:
        raise Invalid(N_("give the marks either as a grid or by gem, not both"))
    new_grid = _checked_grid(grid) if grid is not None else None
    if marks is not None:
        new_grid = _grid_of(marks)
    if notes is not None:
        notes = _checked_notes(notes)
    index = _cell(*cycle) if cycle is not None else None
    for attempt in (1, 2):
        row = _row(player) or PlayerNotebook(player_id=player.id, marks=EMPTY, notes="")
        current = new_grid if new_grid is not None else _padded(row.marks)
        if index is not None:
            word = CYCLE[(CYCLE.index(_WORD[current[index]]) + 1) % len(CYCLE)]
            current = current[:index] + _CODE[word] + current[index + 1:]
        row.marks = current
        if notes is not None:
            row.notes = notes
        row.updated_at = utcnow()
        db.session.add(row)
        try:
            db.session.commit()
        except IntegrityError:
            # Two first saves at once (two tabs): the other made the row; write over it.
            db.session.rollback()
            if attempt == 2:
                raise
        else:
            break
    return Notebook(row.marks, row.notes, row.updated_at)


def _row(player: Player) -> PlayerNotebook | None:
    return db.session.scalar(select(PlayerNotebook).where(PlayerNotebook.player_id == player.id))


def _padded(grid: str) -> str:
    """A stored grid at full length (a row made before any mark holds '')."""
    return (grid + EMPTY)[:CELLS]


def _cell(gem: str, location: str) -> int:
    if gem not in _GEM_INDEX:
        raise Invalid(NO_GEM, gem=repr(gem))
    if location not in _LOCATION_INDEX:
        raise Invalid(N_("{place} is not a place: A-G or X"), place=repr(location))
    return _GEM_INDEX[gem] * len(LOCATIONS) + _LOCATION_INDEX[location]


def _checked_grid(grid: str) -> str:
    if len(grid) != CELLS or set(grid) - set(_WORD):
        raise Invalid(N_("the grid must be {cells} characters, each one of . y n m"),
                      cells=CELLS)
    return grid


def _grid_of(marks: Mapping) -> str:
    cells = list(EMPTY)
    for gem, row in marks.items():
        if gem not in GEM_BY_CODE or not isinstance(row, Mapping):
            raise Invalid(NO_GEM, gem=repr(gem))
        for location, word in row.items():
            if word not in MARKS:
                raise Invalid(N_("{word} is not a mark: yes, no or maybe"), word=repr(word))
            cells[_cell(gem, location)] = _CODE[word]
    return "".join(cells)


def _checked_notes(notes: str) -> str:
    notes = notes.replace("\r\n", "\n")  # as a browser's textarea sends line breaks
    if len(notes) > MAX_NOTES:
        raise Invalid(N_("the notes may be at most {most} characters long, not {length}"),
                      most=MAX_NOTES, length=len(notes))
    return notes
