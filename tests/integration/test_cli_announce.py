"""``vpsleuth game announce GAME --file F``: the GM's pinned announcement from the shell."""

from __future__ import annotations

from sqlalchemy import select
from test_cli import fails, ok

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, BoardPost, Game


def create(runner, name: str, *options) -> str:
    return ok(runner, "game", "create", name, "--first-deadline", "2099-01-10 20:00",
              "--timezone", "Europe/Berlin", *options)


def stored_game(name: str) -> Game:
    return db.session.scalar(select(Game).where(Game.name == name))


def test_announce_from_a_file_and_from_stdin_pins_a_gm_post(runner, tmp_path):
    create(runner, "Board", "--rounds", "3")
    ok(runner, "player", "add", "Board", "Ada", "ada@example.org")
    ok(runner, "game", "start", "Board", "--seed", "3")
    text = tmp_path / "note.txt"
    text.write_text("Round 2 runs a day longer.\n<b>not bold</b>\n", encoding="utf-8")
    out = ok(runner, "game", "announce", "Board", "--file", str(text))
    assert "Announced on the board of 'Board'" in out
    assert "every player gets it by mail" in out
    ok(runner, "game", "announce", "Board", "--file", "-", input="From stdin\n")
    posts = db.session.scalars(select(BoardPost).order_by(BoardPost.id)).all()
    assert [p.body for p in posts] == ["Round 2 runs a day longer.\n<b>not bold</b>",
                                       "From stdin"]
    assert all(p.pinned and p.player_id is None and p.channel == "cli" for p in posts)
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "announce")).actor \
        == "cli"
    assert stored_game("Board").state == "running"


def test_announce_refuses_an_empty_or_too_long_text_and_a_missing_file(runner, tmp_path):
    create(runner, "Quiet", "--rounds", "3")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n", encoding="utf-8")
    assert "the post is empty" in fails(runner, "game", "announce", "Quiet", "--file",
                                        str(empty))
    long = tmp_path / "long.txt"
    long.write_text("x" * 2001, encoding="utf-8")
    assert "this one has 2,001" in fails(runner, "game", "announce", "Quiet", "--file",
                                         str(long))
    assert "No such file" in fails(runner, "game", "announce", "Quiet", "--file",
                                   str(tmp_path / "nope.txt"))
    assert db.session.query(BoardPost).count() == 0
