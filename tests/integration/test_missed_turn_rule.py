"""The missed-turn rule at resolution, and an absence's effect on it and on reminders.

On both databases: none / repeat / repeat-when-absent; a player who sent an empty
turn is never repeated; round 1 has nothing to repeat; the repeated turn is
stored (channel repeat, accepted, at the deadline) and scored like any turn.
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from season_scorer import reference_rounds
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage, ReminderSent, RoundResult, StandingTip, TurnVersion
from vpsleuth.rules import GEMS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import absence, games, missed_turns, reminders, reports, resolution, turns
from vpsleuth.services.absence import local_day


def make(rule: str, now):
    game = games.create_game(f"Missed {rule}", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             missed_turn_rule=rule)
    for name in ("Ada", "Ben", "Cleo"):
        games.add_player(game, name, f"{name.lower()}@example.org")
    games.start_game(game, now=now, seed=3)
    return game


def tips(game, right: int, wrong: int) -> str:
    """``right`` right tips, then ``wrong`` wrong ones (gems in sheet order)."""
    deal = Distribution.from_canonical(game.secret.distribution)
    lines = [f"TIP {deal[g]} {g.code}" for g in GEMS[:right]]
    lines += [f"TIP {'A' if deal[g] != 'A' else 'B'} {g.code}"
              for g in GEMS[right:right + wrong]]
    return "\n".join(lines)


def round_one(game, now):
    ada, ben, cleo = game.players
    turns.submit_turn(ada, tips(game, 3, 1), channel="web", now=now)
    turns.submit_turn(ben, tips(game, 2, 0), channel="web", now=now)
    turns.submit_turn(cleo, tips(game, 1, 0), channel="web", now=now)
    resolution.resolve_round(game, now=game.open_round.deadline)
    return ada, ben, cleo


def result(game, number: int, player) -> RoundResult:
    return db.session.scalar(select(RoundResult).where(
        RoundResult.round_id == game.round(number).id, RoundResult.player_id == player.id))


def test_none_repeats_nobody(app, now):
    game = make("none", now)
    ada, ben, cleo = round_one(game, now)
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert [result(game, 2, p).repeated for p in (ada, ben, cleo)] == [False] * 3
    assert result(game, 2, ada).tips == 0 and result(game, 2, ada).points == 0
    assert missed_turns.repeated_in(game, 2) == {}


def test_repeat_plays_last_rounds_tips_for_a_silent_seat_and_scores_them(app, now):
    game = make("repeat", now)
    ada, ben, cleo = round_one(game, now)
    deadline = game.open_round.deadline
    turns.submit_turn(ben, "DROP ALL", channel="web", now=now)  # an empty turn, but a turn
    turns.submit_turn(cleo, tips(game, 4, 0), channel="email", now=now)
    resolution.resolve_round(game, now=deadline)
    two = result(game, 2, ada)
    assert two.repeated and two.submitted and two.tips == 4
    assert (two.correct, two.wrong, two.points) == (3, 1, 3 - 2)  # +1 right, -2 wrong
    assert result(game, 2, ada).total == result(game, 1, ada).total + two.points
    assert not result(game, 2, ben).repeated and result(game, 2, ben).tips == 0
    assert not result(game, 2, cleo).repeated and result(game, 2, cleo).tips == 4
    [version] = db.session.scalars(select(TurnVersion).where(
        TurnVersion.player_id == ada.id, TurnVersion.round_id == game.round(2).id)).all()
    assert (version.channel, version.status, version.entered_by) == (
        "repeat", "accepted", "system")
    assert version.received_at == deadline
    assert version.text.startswith("# repeated automatically: the tips of round 1")
    first = {(t.gem, t.location) for t in db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == game.round(1).id, StandingTip.player_id == ada.id))}
    again = {(t.gem, t.location) for t in db.session.scalars(select(StandingTip).where(
        StandingTip.round_id == game.round(2).id, StandingTip.player_id == ada.id))}
    assert again == first and len(again) == 4
    assert missed_turns.repeated_in(game, 2) == {ada.id: 4}


def test_the_first_round_has_nothing_to_repeat(app, now):
    game = make("repeat", now)
    resolution.resolve_round(game, now=game.open_round.deadline)
    assert [r.repeated for r in db.session.scalars(select(RoundResult))] == [False] * 3


def test_repeat_when_absent_repeats_only_a_seat_whose_absence_covers_the_deadline(app, now):
    game = make("repeat-when-absent", now)
    ada, ben, cleo = round_one(game, now)
    deadline = game.open_round.deadline
    day = local_day(ada, deadline)
    absence.announce(ada, day - timedelta(days=2), day, "a wedding", channel="web",
                     entered_by=ada.email, now=now)
    absence.announce(ben, day + timedelta(days=1), day + timedelta(days=9), "", channel="web",
                     entered_by=ben.email, now=now)  # begins the day after the deadline
    gone = absence.announce(cleo, day, day, "", channel="web", entered_by=cleo.email, now=now)
    absence.cancel(gone, cleo.email, now=now)  # a cancelled one no longer counts
    resolution.resolve_round(game, now=deadline)
    assert [result(game, 2, p).repeated for p in (ada, ben, cleo)] == [True, False, False]
    assert result(game, 2, ada).tips == 4 and result(game, 2, ben).tips == 0


def test_an_absent_player_who_sends_a_turn_plays_that_turn(app, now):
    game = make("repeat-when-absent", now)
    ada, _, _ = round_one(game, now)
    deadline = game.open_round.deadline
    absence.announce(ada, local_day(ada, now), local_day(ada, deadline), "", channel="api",
                     entered_by=ada.email, now=now)
    turns.submit_turn(ada, tips(game, 1, 0), channel="web", now=now)
    resolution.resolve_round(game, now=deadline)
    assert not result(game, 2, ada).repeated and result(game, 2, ada).tips == 1


@pytest.mark.parametrize("lang, mark", [("en", "repeated automatically"),
                                        ("de", "automatisch wiederholt"),
                                        ("es", "repetido automáticamente")])
def test_the_report_marks_the_repeated_line_and_keeps_the_tips_secret(app, now, lang, mark):
    game = make("repeat", now)
    ada, ben, cleo = round_one(game, now)
    turns.submit_turn(ben, "QUESTION A red", channel="web", now=now)
    turns.submit_turn(cleo, tips(game, 2, 0), channel="web", now=now)
    resolution.resolve_round(game, now=game.open_round.deadline)
    report = reports.build_report(game, 2, lang)
    assert [r.repeated for r in report.rows if r.player == "Ada"] == [True]
    assert not any(r.repeated for r in report.rows if r.player != "Ada")
    text = reports.render_text(report, "Europe/Berlin", lang)
    [line] = [ln for ln in text.splitlines() if "Ada" in ln and mark in ln]
    assert sum(mark in ln for ln in text.splitlines()) == 1
    deal = Distribution.from_canonical(game.secret.distribution)
    for gem in GEMS[:4]:  # Ada's repeated tips: neither gem nor place in the report
        assert gem.code not in text and f"TIP {deal[gem]}" not in text


def test_no_reminder_to_a_player_while_away(app, now):
    game = make("none", now)
    ada, ben, cleo = game.players
    deadline = game.open_round.deadline
    absence.announce(ada, local_day(ada, now), local_day(ada, deadline), "", channel="web",
                     entered_by=ada.email, now=now)
    later = deadline - timedelta(hours=3)  # the 4-hour reminder is due
    absence.announce(cleo, local_day(cleo, later) + timedelta(days=1),
                     local_day(cleo, later) + timedelta(days=3), "", channel="web",
                     entered_by=cleo.email, now=now)  # away only after the reminder
    sent = reminders.send_reminders(later)
    assert {r.player_id for r in sent} == {ben.id, cleo.id}
    assert db.session.scalar(select(ReminderSent).where(ReminderSent.player_id == ada.id)) \
        is None


@pytest.mark.parametrize("lang, said", [
    ("en", "the game's rule repeated your tips automatically: 4 tips were played again."),
    ("de", "deine Tipps automatisch wiederholt: 4 Tipps wurden noch einmal gespielt."),
    ("es", "repitió tus apuestas automáticamente: se jugaron otra vez 4 apuestas."),
])
def test_the_next_round_mail_tells_the_repeated_player_how_many_never_which(app, now, lang,
                                                                            said):
    game = make("repeat", now)
    ada, ben, cleo = round_one(game, now)
    for player in (ada, ben, cleo):
        player.language = lang
    turns.submit_turn(ben, "QUESTION A red", channel="web", now=now)
    turns.submit_turn(cleo, "DROP ALL", channel="web", now=now)
    resolution.resolve_round(game, now=game.open_round.deadline)
    # By player, the later (round 2's) mail last.
    mails = {m.player_id: m for m in db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == "round_opened").order_by(OutboxMessage.id))}
    ada_text, ben_text = mails[ada.id].body.text, mails[ben.id].body.text
    [line] = [ln for ln in ada_text.splitlines() if said in ln]
    assert said not in ben_text and said not in mails[cleo.id].body.text
    # Apart from that sentence, Ada's mail is everyone's: it names no tip of hers.
    assert ada_text.replace(line + "\n\n", "", 1) == ben_text
    assert said in html.unescape(mails[ada.id].body.html)


def test_an_absence_is_in_the_players_data_and_goes_with_their_account(app, now):
    from vpsleuth.models import Absence
    from vpsleuth.services import leaving, personal_data
    from vpsleuth.services.access import viewer_for

    game = make("none", now)
    ada, ben, _ = game.players
    day = local_day(ada, now)
    absence.announce(ada, day, day + timedelta(days=3), "at the dentist", channel="web",
                     entered_by=ada.email, now=now)
    absence.announce(ben, day, day + timedelta(days=3), "ben's own", channel="web",
                     entered_by=ben.email, now=now)
    data = personal_data.export(viewer_for(ada.email), now=now)
    assert [a["note"] for a in data["tables"]["absence"]] == ["at the dentist"]
    leaving.delete_account(viewer_for(ada.email), now=now)
    db.session.commit()
    left = {a.player_id for a in db.session.scalars(select(Absence))}
    assert left == {ben.id}


@pytest.mark.parametrize("rule", ["none", "repeat", "repeat-when-absent"])
def test_four_rounds_score_as_the_independent_reference_scorer_says(app, now, rule):
    game = games.create_game(f"Season {rule}", weekly("2026-12-06 20:00", "Europe/Berlin"),
                             Ruleset(rounds=4, first_bonus_round=2), missed_turn_rule=rule)
    for name in ("Ada", "Ben", "Cleo"):
        games.add_player(game, name, f"{name.lower()}@example.org")
    games.start_game(game, now=now, seed=9)
    deal = Distribution.from_canonical(game.secret.distribution)
    codes = {g.code: deal[g] for g in GEMS}
    wrong = {c: ("A" if p != "A" else "B") for c, p in codes.items()}
    gems = [g.code for g in GEMS]
    # Per round, per seat: the tips sent (None: no turn at all); who is away at the deadline.
    plan = [
        {"Ada": {c: codes[c] for c in gems[:3]}, "Ben": {gems[5]: wrong[gems[5]]},
         "Cleo": {c: codes[c] for c in gems[8:10]}},
        {"Ada": None, "Ben": {c: codes[c] for c in gems[:4]}, "Cleo": None},
        {"Ada": None, "Ben": {}, "Cleo": {gems[11]: codes[gems[11]]}},
        {"Ada": {c: codes[c] for c in gems[20:22]}, "Ben": None, "Cleo": None},
    ]
    away = [set(), {"Ada"}, {"Ada"}, {"Cleo"}]
    seats = {p.name: p for p in game.players}
    for number, (sent, gone) in enumerate(zip(plan, away, strict=True), start=1):
        deadline = game.open_round.deadline
        for name in gone:
            day = local_day(seats[name], deadline)
            absence.announce(seats[name], day, day, "", channel="web",
                             entered_by=seats[name].email, now=now)
        for name, tips_sent in sent.items():
            if tips_sent is not None:
                text = "\n".join(f"TIP {p} {c}" for c, p in tips_sent.items()) or "DROP ALL"
                turns.submit_turn(seats[name], text, channel="web", now=now)
        resolution.resolve_round(game, now=deadline)
        assert game.round(number).state == "resolved"
    expected = reference_rounds(codes, plan, rule=rule, absent=away, first_bonus_round=2)
    for number, seats_expected in enumerate(expected, start=1):
        for name, want in seats_expected.items():
            got = result(game, number, seats[name])
            assert (got.tip_score, got.bonus, got.points, got.total, got.tips) == (
                want["tip_score"], want["bonus"], want["points"], want["total"],
                want["tips"]), (rule, number, name)
            assert got.repeated == want["repeated"], (rule, number, name)
