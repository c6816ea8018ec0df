"""The services announce what happened, each signal at its moment (services/events.py).

A recorder connected to every signal and to the session's commits writes one
timeline: a signal sent in the transaction comes before the service's commit,
an ``after_`` signal after it. What the mail channel queues on a signal is
committed with what happened, or rolled back with it.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from blinker import NamedSignal
from sqlalchemy import event, func, select

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, Round
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import (
    access,
    accounts,
    address,
    events,
    games,
    gm,
    lobby,
    reminders,
    resolution,
    stories,
    story,
    turns,
)
from vpsleuth.services.bots import add_bot

SIGNALS = {name: s for name, s in vars(events).items() if isinstance(s, NamedSignal)}
AFTER_COMMIT = {name for name in SIGNALS if name.startswith("after_")}


@contextlib.contextmanager
def timeline():
    """Every signal sent (name, sender, payload) and every commit ("commit"), in order."""
    seen: list[tuple[str, object, dict]] = []
    session = db.session()

    def committed(_session) -> None:
        seen.append(("commit", None, {}))

    with contextlib.ExitStack() as stack:
        for name, signal in SIGNALS.items():
            def receive(sender, _name=name, **payload):
                seen.append((_name, sender, payload))
            stack.enter_context(signal.connected_to(receive))
        event.listen(session, "after_commit", committed)
        stack.callback(event.remove, session, "after_commit", committed)
        yield seen


def names(seen) -> list[str]:
    return [name for name, _, _ in seen]


def mails(kind: str) -> int:
    return db.session.scalar(select(func.count()).select_from(OutboxMessage)
                             .where(OutboxMessage.kind == kind))


def new_game(name: str = "Opal", **rules):
    game = games.create_game(name, weekly("2026-12-06 20:00", "Europe/Berlin"), Ruleset(**rules))
    games.add_player(game, "Ada", "ada@example.org")
    games.add_player(game, "Ben", "ben@example.org")
    return game


def test_every_signal_says_when_it_is_sent():
    assert {"round_opened", "round_resolved", "turn_accepted", "after_round_opened",
            "after_turn_accepted"} <= set(SIGNALS)
    for name, signal in SIGNALS.items():
        moment = "After the commit" if name in AFTER_COMMIT else "In the transaction"
        assert moment.lower() in " ".join(signal.__doc__.lower().split()), name


def test_an_invitation_is_announced_in_the_transaction_that_adds_the_player(app):
    game = games.create_game("Opal", weekly("2026-12-06 20:00", "Europe/Berlin"))
    with timeline() as seen:
        player = games.add_player(game, "Ada", "ada@example.org")
    assert names(seen) == ["player_invited", "commit"]
    assert seen[0][1] is player and seen[0][2]["token"]
    assert mails("invitation") == 1
    with timeline() as seen:
        games.add_player(game, "Ben", "ben@example.org", invite=False)
    assert names(seen) == ["commit"]


def test_a_game_opens_round_one_in_its_transaction_and_bots_play_after_the_commit(app, now):
    game = new_game()
    add_bot(game, "Clue", "easy", now=now)
    with timeline() as seen:
        first = games.start_game(game, now=now)
    # The bot plays on after_round_opened (services/after_commit.py, connected before this
    # recorder, so its turn shows first): after the round's commit, through the turn service.
    assert names(seen) == ["round_opened", "commit",
                           "commit", "turn_accepted", "commit", "after_turn_accepted",
                           "after_round_opened"]
    assert seen[0][2] == {"round_": first} and seen[-1][2] == {"round_": first, "now": now}
    assert seen[3][1].name == "Clue" and seen[3][2]["channel"] == "bot"
    assert mails("round_opened") == 2  # the humans', queued with the round


def test_a_turn_is_announced_in_its_transaction_and_after_its_commit(app, now):
    game = new_game()
    games.start_game(game, now=now)
    ada = games.find_player(game, "Ada")
    with timeline() as seen:
        turns.submit_turn(ada, "TIP A RD1", channel="web", now=now)
    # The version is stored first (nothing received is lost), then the turn applied.
    assert names(seen) == ["commit", "turn_accepted", "commit", "after_turn_accepted"]
    accepted, after = seen[1][2], seen[3][2]
    assert seen[1][1] is ada and accepted["round_"].number == 1
    assert accepted["channel"] == "web" and accepted["entered_by"] == "ada@example.org"
    assert [gem.code for gem in accepted["standing"].tips] == ["RD1"]
    assert after == {"game": game, "channel": "web", "practice": False, "now": now}


def test_a_refused_turn_announces_nothing(app, now):
    game = new_game()
    games.start_game(game, now=now)
    with timeline() as seen, pytest.raises(turns.TurnRefused):
        turns.submit_turn(games.find_player(game, "Ada"), "TIP A XX9", channel="web", now=now)
    assert names(seen) == ["commit", "commit"]  # the version stored, then its refusal


def test_a_resolution_announces_results_and_the_next_round_then_after_the_commit(app, now):
    game = new_game()
    games.start_game(game, now=now)
    with timeline() as seen:
        resolved = resolution.resolve_round(game, now=now)
    assert names(seen) == ["round_resolved", "round_opened", "commit", "after_round_opened"]
    assert seen[0][2] == {"round_": resolved, "ended": False, "report_waits": False}
    assert seen[1][2]["round_"].number == 2
    assert mails("report") == 2 and mails("round_opened") == 4


def test_the_final_report_waits_for_the_story_and_goes_with_it(app, now, monkeypatch):
    game = new_game(rounds=1)
    games.start_game(game, now=now)
    with timeline() as seen:
        last = resolution.resolve_round(game, now=now)
    assert names(seen) == ["round_resolved", "commit"]  # no round opens after the last
    assert seen[0][2] == {"round_": last, "ended": True, "report_waits": True}
    assert mails("final_report") == 0

    def broken(*args, **kwargs):
        raise RuntimeError("the engine failed")
    monkeypatch.setattr(story, "tell", broken)
    with timeline() as seen:
        for _ in range(stories.ATTEMPTS):
            stories.tell_queued(now=now)
    told = [(sender, payload) for name, sender, payload in seen if name == "story_told"]
    # Given up after its last try: announced once, and the report goes without the story.
    assert len(told) == 1 and told[0][0] is game
    assert told[0][1]["story"].state == "failed" and told[0][1]["story"].final_report
    assert told[0][1]["round_"].number == 1
    assert names(seen)[-2:] == ["story_told", "commit"]
    assert mails("final_report") == 2


@pytest.mark.parametrize("later", [True, False])
def test_a_moved_deadline_is_announced_in_its_transaction(app, now, later):
    game = new_game()
    first = games.start_game(game, now=now)
    to = first.deadline + (timedelta(days=1) if later else -timedelta(days=1))
    with timeline() as seen:
        gm.move_deadline(game, to, actor="gm", now=now)
    assert names(seen) == ["deadline_moved", "commit"]
    assert seen[0][2] == {"round_": first, "why": "extended" if later else "advanced"}
    assert mails("deadline_moved") == 2


def test_a_pause_and_an_outage_move_the_deadline_and_say_why(app, now):
    game = new_game()
    first = games.start_game(game, now=now)
    gm.pause_game(game, actor="gm", now=now)
    with timeline() as seen:
        gm.resume_game(game, actor="gm", now=now + timedelta(hours=2))
    assert [(n, p["why"]) for n, _, p in seen if n == "deadline_moved"] == [("deadline_moved",
                                                                          "resumed")]
    deadline = first.deadline
    with timeline() as seen:
        resolution.apply_outage_rule(deadline + timedelta(hours=1),
                                     deadline - timedelta(hours=1))
    assert names(seen) == ["deadline_moved", "commit"]
    assert seen[0][1] is game and seen[0][2]["why"] == "outage"


def test_an_address_change_is_announced_with_its_link(app, now):
    game = new_game()
    ada = games.find_player(game, "Ada")
    with timeline() as seen:
        address.request_change(ada, "ada@example.net", now=now)
    assert names(seen) == ["address_change_requested", "commit"]
    assert seen[0][1] is ada and seen[0][2]["new_email"] == "ada@example.net"
    assert seen[0][2]["token"]
    assert mails("address_change") == 1


def test_a_request_to_join_and_its_refusal_are_announced(app, now):
    master = accounts.create_game_master("gil@example.org", "Gil")
    game = games.create_game("Opal", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             game_master_id=master.id)
    lobby.set_listing(game, open_to_join=True, max_players=None)
    with timeline() as seen:
        request = lobby.ask_to_join(access.viewer_for("cleo@example.org"), game.id, "Cleo",
                                    now=now)
    assert names(seen) == ["join_requested", "commit"]
    assert seen[0][1] is game and seen[0][2] == {"request": request}
    with timeline() as seen:
        lobby.decline(game, request.id, now=now)
    assert names(seen) == ["join_declined", "commit"]
    assert mails("join_request") == 1 and mails("join_declined") == 1


def test_a_reminder_is_announced_in_the_transaction_that_records_it(app, now):
    game = new_game()
    first = games.start_game(game, now=now)
    with timeline() as seen:
        sent = reminders.send_reminders(first.deadline - timedelta(hours=23))
    assert len(sent) == 2
    # One round's reminders are recorded and announced in one transaction (it locks
    # the round, so that several schedulers divide the rounds: services/reminders.py).
    assert names(seen) == ["reminder_due", "reminder_due", "commit"]
    assert {p["hours"] for n, _, p in seen if n == "reminder_due"} == {23}
    assert mails("reminder") == 2


def test_a_rounds_mails_are_queued_in_its_transaction_or_not_at_all(app, now):
    game = new_game()
    games.start_game(game, now=now)
    queued = []

    def fails_after_the_mail_channel(sender, **payload):
        queued.append(mails("round_opened"))  # the session's own view, before any commit
        raise RuntimeError("a later step of the round fails")

    # Connected after the mail channel (create_app), so it runs after its mails are queued.
    with (events.round_opened.connected_to(fails_after_the_mail_channel),
          pytest.raises(RuntimeError)):
        resolution.resolve_round(game, now=now)
    db.session.rollback()
    assert queued == [4]  # round 2's two mails were queued, in the round's transaction
    assert mails("round_opened") == 2 and mails("report") == 0  # and went with it
    assert db.session.scalar(select(Round.state).where(Round.game_id == game.id,
                                                       Round.number == 1)) == "open"


def test_the_mail_channel_queues_once_however_many_apps_the_process_builds(app):
    create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    game = games.create_game("Opal", weekly("2026-12-06 20:00", "Europe/Berlin"))
    games.add_player(game, "Ada", "ada@example.org")
    assert mails("invitation") == 1
