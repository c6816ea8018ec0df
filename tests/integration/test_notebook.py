"""The notebook service: marks and notes kept per player and game, and nobody else's to open."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import PlayerNotebook
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, resolution
from vpsleuth.services import notebook as notebooks
from vpsleuth.services.access import viewer_for
from vpsleuth.services.errors import Invalid, NotFound


@pytest.fixture
def game(app):
    """"Lapis", run by Gina, with Ada and Ben; and "Onyx", where Ada plays too."""
    gina = accounts.create_game_master("gina@example.org", "Gina")
    lapis = games.create_game("Lapis", weekly("2027-01-10 20:00", "UTC"),
                              game_master_id=gina.id)
    games.add_player(lapis, "Ada", "ada@example.org")
    games.add_player(lapis, "Ben", "ben@example.org")
    games.start_game(lapis, seed=3)
    return lapis


def player(game, name: str):
    return games.find_player(game, name)


def test_a_new_notebook_is_empty(game):
    book = notebooks.read(player(game, "Ada"))
    assert book.marks == {} and book.notes == "" and book.updated_at is None
    assert book.grid == "." * 288 and book.mark("RD1", "X") == ""


def test_marks_and_notes_are_kept_and_what_is_left_out_stays(game):
    ada = player(game, "Ada")
    notebooks.save(ada, marks={"RD1": {"A": "yes", "X": "no"}, "YO3": {"G": "maybe"}})
    notebooks.save(ada, notes="E has two blues\nnot RD1 at B")
    db.session.expire_all()
    book = notebooks.read(ada)
    assert book.marks == {"RD1": {"A": "yes", "X": "no"}, "YO3": {"G": "maybe"}}
    assert book.notes == "E has two blues\nnot RD1 at B"
    assert book.updated_at is not None
    notebooks.save(ada, marks={"BP2": {"C": "no"}})  # all marks at once: the others go
    assert notebooks.read(ada).marks == {"BP2": {"C": "no"}}
    assert notebooks.read(ada).notes == "E has two blues\nnot RD1 at B"


def test_a_tap_cycles_a_cell_through_yes_no_maybe_and_back_to_nothing(game):
    ada = player(game, "Ada")
    seen = [notebooks.save(ada, cycle=("GO2", "X")).mark("GO2", "X") for _ in range(5)]
    assert seen == ["yes", "no", "maybe", "", "yes"]
    assert notebooks.read(ada).marks == {"GO2": {"X": "yes"}}


def test_the_grid_as_the_page_keeps_it_is_the_same_as_marks_by_gem(game):
    ada = player(game, "Ada")
    grid = "." * 288
    grid = "y" + grid[1:7] + "n" + grid[8:]  # RD1 at A: yes, RD1 at X: no
    assert notebooks.save(ada, grid=grid).marks == {"RD1": {"A": "yes", "X": "no"}}


@pytest.mark.parametrize("change", [
    {"grid": "." * 287}, {"grid": "." * 287 + "q"}, {"marks": {"RD4": {"A": "yes"}}},
    {"marks": {"RD1": {"H": "yes"}}}, {"marks": {"RD1": {"A": "sure"}}},
    {"notes": "x" * 20_001}, {"cycle": ("RD1", "Q")},
    {"grid": "." * 288, "marks": {}},
])
def test_bad_input_is_refused_and_changes_nothing(game, change):
    ada = player(game, "Ada")
    notebooks.save(ada, marks={"RD1": {"A": "yes"}}, notes="kept")
    with pytest.raises(Invalid):
        notebooks.save(ada, **change)
    db.session.rollback()
    assert notebooks.read(ada).marks == {"RD1": {"A": "yes"}}
    assert notebooks.read(ada).notes == "kept"


def test_line_breaks_from_a_browser_count_once_and_any_text_is_kept(game):
    ada = player(game, "Ada")
    notes = "a\r\nb\x00c \ud800 Ü" + "x" * (20_000 - 11)
    saved = notebooks.save(ada, notes=notes)
    db.session.expire_all()
    assert notebooks.read(ada).notes == saved.notes == notes.replace("\r\n", "\n")


def test_only_the_player_opens_their_notebook_the_gm_and_a_stranger_get_not_found(game):
    assert notebooks.owner(viewer_for("Ada@Example.org"), game).name == "Ada"
    assert notebooks.owner(viewer_for("ben@example.org"), game).name == "Ben", \
        "another player opens only a notebook of their own"
    for email in ("gina@example.org", "eve@example.org"):  # the game's GM, a stranger
        with pytest.raises(NotFound):
            notebooks.owner(viewer_for(email), game)
    # A session from Ada's invitation link is Ada; one limited to Ben's row is not Ada.
    ada, ben = player(game, "Ada"), player(game, "Ben")
    assert notebooks.owner(viewer_for("ada@example.org", ada.id), game) == ada
    with pytest.raises(NotFound):
        notebooks.owner(viewer_for("ada@example.org", ben.id), game)


def test_each_player_has_a_notebook_of_their_own_in_each_game(game):
    other = games.create_game("Onyx", weekly("2027-01-10 20:00", "UTC"))
    games.add_player(other, "Ada", "ada@example.org")
    notebooks.save(player(game, "Ada"), notes="Lapis notes")
    notebooks.save(player(game, "Ben"), notes="Ben's")
    assert notebooks.read(player(other, "Ada")).notes == ""
    assert notebooks.read(player(game, "Ada")).notes == "Lapis notes"
    assert notebooks.owner(viewer_for("ada@example.org"), other).game_id == other.id


def test_the_notebook_is_kept_when_the_game_ends(game):
    ada = player(game, "Ada")
    notebooks.save(ada, marks={"YO3": {"X": "yes"}}, notes="X is the yellow opal cluster?")
    while game.state != "finished":
        resolution.resolve_round(game)
    db.session.expire_all()
    assert notebooks.read(ada).marks == {"YO3": {"X": "yes"}}
    notebooks.save(ada, notes="it was")
    assert db.session.scalar(select(PlayerNotebook.notes)) == "it was"
