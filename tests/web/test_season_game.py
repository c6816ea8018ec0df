"""A whole season: twelve rounds with the ``repeat`` rule, an absence, a substitute from
round 4, board posts by the web and by mail and a GM announcement, every round's results
checked against the independent reference scorer (tests/season_scorer.py)."""

from __future__ import annotations

import os
from datetime import timedelta

from conftest import CSRF
from season_scorer import reference_rounds
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import ingest
from vpsleuth.models import BoardPost, RoundResult, SeatChange, TurnVersion, utcnow
from vpsleuth.rules import GEMS, LOCATIONS, Distribution
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import absence, board, games, reports, resolution, seats, turns

SEATS = {"Ada": "ada@example.org", "Ben": "ben@example.org", "Cleo": "cleo@example.org",
         "Dan": "dan@example.org"}
GEM_CODES = sorted(g.code for g in GEMS)


def planned(number: int) -> dict[str, tuple[int, int] | None]:
    """(right, wrong) tips per seat in a round; None: no turn comes."""
    return {
        "Ada": None if number == 3 else (2 * number, 0),
        "Ben": None if number == 5 else (number, 1),
        "Cleo": None if number == 8 else (number + (2 if number >= 4 else 0), 0),
        "Dan": None if number in (6, 7) else (0, 0) if number == 10 else (number, 0),
    }


def tips_for(deal: Distribution, right: int, wrong: int, offset: int) -> dict[str, str]:
    codes = GEM_CODES[offset:] + GEM_CODES[:offset]
    tips = {c: deal[next(g for g in GEMS if g.code == c)] for c in codes[:right]}
    for code in codes[right:right + wrong]:
        true = deal[next(g for g in GEMS if g.code == code)]
        tips[code] = next(p for p in LOCATIONS if p != true)
    return tips


def turn_text(tips: dict[str, str], number: int) -> str:
    lines = [f"QUESTION {'ABCDEFG'[number % 7]} red"]
    lines += [f"TIP {place} {code}" for code, place in sorted(tips.items())]
    return "\n".join(lines)


def board_mail(address: str, body: str) -> bytes:
    return (f"From: Ben <ben@example.org>\nTo: <{address}>\nSubject: Re: Season\n"
            f"Message-ID: <{os.urandom(8).hex()}@example.org>\n"
            "Date: Tue, 1 Dec 2026 10:12:43 +0100\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
            f"{body}\n\nBen\n\n> Season, round 6 of 12\n").encode()


def test_a_season_with_an_absence_repeats_a_substitute_and_a_board(app, signed_in, gm_account):
    first = (utcnow() + timedelta(days=3)).strftime("%Y-%m-%d 20:00")
    game = games.create_game("Season", weekly(first, "UTC"), missed_turn_rule="repeat",
                             game_master_id=gm_account.id, actor=gm_account.email)
    for name, email in SEATS.items():
        games.add_player(game, name, email)
    games.start_game(game, seed=20, actor=gm_account.email)
    deal = Distribution.from_canonical(game.secret.distribution)
    seat_of = {name: games.find_player(game, name) for name in SEATS}
    sent: list[dict[str, dict[str, str] | None]] = []
    away: list[set[str]] = []

    for number in range(1, 13):
        round_ = game.open_round
        assert round_.number == number
        moment = round_.deadline - timedelta(hours=6)
        if number == 4:  # Cleo leaves after round 3; Dora takes the seat from round 4 on
            change = seats.replace_player(game, seat_of["Cleo"], "Dora", "dora@example.org",
                                          actor=gm_account.email, now=moment)
            assert change.from_round == 4
            board.announce(game, "Welcome Dora, who takes Cleo's seat.",
                           actor=gm_account.email, channel="web", now=moment)
        if number == 5:  # Dan announces his absence over the deadlines of rounds 6 and 7
            six = round_.deadline + timedelta(days=7)
            absence.announce(seat_of["Dan"], (six - timedelta(days=1)).date(),
                             (six + timedelta(days=7)).date(), "at sea", channel="web",
                             entered_by=seat_of["Dan"].email, now=moment)
        plan = planned(number)
        this_round: dict[str, dict[str, str] | None] = {}
        for offset, (name, counts) in enumerate(plan.items()):
            if counts is None:
                this_round[name] = None
                continue
            tips = tips_for(deal, *counts, offset=5 * offset + number)
            this_round[name] = tips
            text = turn_text(tips, number) if tips else "QUESTION A red"
            result = turns.submit_turn(seat_of[name], text, channel="web", now=moment)
            assert result.version.status == "accepted"
        sent.append(this_round)
        away.append({"Dan"} if number in (6, 7) else set())
        if number == 2:  # Ada writes on the board on the web
            ada = signed_in("ada@example.org")
            token = CSRF.search(ada.get("/signin").get_data(as_text=True)).group(1)
            response = ada.post(f"/games/{game.id}/board",
                                data={"csrf_token": token, "body": "Who has seen a <b>red</b>?"})
            assert response.status_code in (200, 302, 303)
        if number == 6:  # Ben writes on the board by mail, quoted text and sign-off stripped
            row = ingest(board_mail(keys.board_address(seat_of["Ben"]),
                                    "Dan is at sea, I hear."), "pipe")
            assert row.status == "applied"
        done = resolution.resolve_round(game, now=round_.deadline, number=number)
        assert done is not None
        db.session.expire_all()
        if game.state == "finished":
            break

    assert game.state == "finished" and len(sent) == 12
    expected = reference_rounds({g.code: deal[g] for g in GEMS}, sent, rule="repeat",
                                absent=away)
    ids = {name: seat_of[name].id for name in SEATS}
    for number, want in enumerate(expected, start=1):
        round_ = game.round(number)
        got = {r.player_id: r for r in db.session.scalars(
            select(RoundResult).where(RoundResult.round_id == round_.id))}
        for name, row in want.items():
            result = got[ids[name]]
            assert (result.tip_score, result.bonus, result.points, result.total,
                    result.repeated, result.tips) == (
                row["tip_score"], row["bonus"], row["points"], row["total"],
                row["repeated"], row["tips"]), (number, name)
    # Repeats happened where the plan said, and only there; an empty turn is never repeated.
    repeated = {(n, name) for n, want in enumerate(expected, 1)
                for name, row in want.items() if row["repeated"]}
    assert repeated == {(3, "Ada"), (5, "Ben"), (8, "Cleo"), (6, "Dan"), (7, "Dan")}
    assert db.session.scalar(select(TurnVersion.channel).where(
        TurnVersion.round_id == game.round(3).id,
        TurnVersion.player_id == ids["Ada"])) == "repeat"

    # The reports say it: the repeats, and the seat's holder from round 4.
    text = reports.render_text(reports.build_report(game, 8, "en"), "UTC", "en")
    assert "Dora (from round 4)" in text and "repeated automatically" in text
    assert "Cleo" not in text
    german = reports.render_text(reports.build_report(game, 3, "de"), "UTC", "de")
    assert "automatisch wiederholt" in german
    [change] = db.session.scalars(select(SeatChange)).all()
    assert (change.old_name, change.new_name, change.from_round) == ("Cleo", "Dora", 4)

    # The board: Ada's post from the web, escaped; Ben's by mail, stripped; the GM's pinned.
    posts = {p.author or "GM": p for p in db.session.scalars(select(BoardPost))}
    assert posts["Ada"].channel == "web" and posts["Ada"].body == "Who has seen a <b>red</b>?"
    assert posts["Ben"].channel == "email" and posts["Ben"].body == "Dan is at sea, I hear."
    assert posts["GM"].pinned
    ada = signed_in("ada@example.org")
    page = ada.get(f"/games/{game.id}/board").get_data(as_text=True)
    assert "Who has seen a &lt;b&gt;red&lt;/b&gt;?" in page and "<b>red</b>" not in page
    assert "Dan is at sea, I hear." in page and "Welcome Dora" in page
