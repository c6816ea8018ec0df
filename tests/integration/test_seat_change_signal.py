"""A seat handed on is announced in its transaction; the mails are queued with it, or
rolled back with it when the hand-over fails."""

from __future__ import annotations

import pytest
from test_service_signals import mails, names, new_game, timeline

from vpsleuth.extensions import db
from vpsleuth.models import SeatChange
from vpsleuth.services import events, games, seats


def test_a_hand_over_is_announced_in_its_transaction_with_the_change(app, now):
    game = new_game()
    ada = games.find_player(game, "Ada")
    with timeline() as seen:
        change = seats.replace_player(game, ada, "Dora", "dora@example.org", actor="gm",
                                      now=now)
    assert names(seen) == ["seat_handed_over", "commit"]
    assert seen[0][1] is ada and seen[0][2]["change"] is change
    assert seen[0][2]["old_language"] == "en" and seen[0][2]["token"]
    assert mails("seat_handed_on") == 1


def test_a_failing_receiver_leaves_the_seat_as_it_was(app, now):
    game = new_game()
    ada = games.find_player(game, "Ada")

    def broken(sender, **payload):
        raise RuntimeError("the outbox is on fire")

    with events.seat_handed_over.connected_to(broken), pytest.raises(RuntimeError):
        seats.replace_player(game, ada, "Dora", "dora@example.org", actor="gm", now=now)
    db.session.rollback()
    assert games.find_player(game, "Ada").email == "ada@example.org"
    assert db.session.query(SeatChange).count() == 0 and mails("seat_handed_on") == 0
