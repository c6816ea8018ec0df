"""Two whole rounds in headless Chromium: a game master and two players, three people at once.

Grace (the GM) signs in by the link from her sign-in mail, creates a game in the
form, invites Ada (English) and Bert (German) and starts the game. The players
sign in by the links in their invitation mails, as a GM on the embedded
defaults (no mail server) would forward them from the outbox. Ada tips by
mouse and keyboard in the grid, Bert pastes a German turn; Grace resolves
round 1 from the status board. In round 2 Bert fills in last round's tips,
moves one and asks a new question, Ada sends REPEAT; Grace resolves round 2
and both players read the report and the standings chart, Bert in German.

The app under test is the suite's ``app`` (SQLite and PostgreSQL) served on a
real port. The tips are chosen from the secret deal, so every number the pages
show is known in advance; it is checked against what the services stored too.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from browser_support import (
    SIZES,
    chromium,
    follow_sign_in_link,
    invite,
    screenshot,
    serve,
    sign_in_link,
    watch,
)
from playwright.sync_api import expect
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, RoundResult, StandingQuestion, utcnow
from vpsleuth.rules import GEMS, LOCATIONS, Distribution, Question
from vpsleuth.rules.schedule import to_local
from vpsleuth.services import accounts, turns

GRACE, ADA, BERT = "grace@example.org", "ada@example.org", "bert@example.org"
# The round-2 results, known from the deal: Ada 3 right and 1 wrong tip (+1, the most
# right: bonus 3), Bert 2 right and 1 wrong (+0, second: bonus 2). Round 1: +1 and -3.
RESULTS = {"Ada": ["1", "Ada", "+1", "3", "+4", "5"], "Bert": ["2", "Bert", "+0", "2", "+2", "-1"]}
TOTALS = {"Ada": ["1", "5"], "Bert": ["-3", "-1"]}
# What each player reads after round 2, in their language and time zone.
SEEN = {
    "Ada": {"h1": "Round report · Round 2 of 12", "badge": "bonus round", "round": "Round",
            "standings": "Standings", "next": "19:00 GMT",
            "questions": {"Ada": "How many red gems does C hold?",
                          "Bert": "How many cluster diamonds does G hold?"}},
    "Bert": {"h1": "Rundenbericht · Runde 2 von 12", "badge": "Bonusrunde", "round": "Runde",
             "standings": "Tabelle", "next": "20:00 MEZ",
             "questions": {"Ada": "Wie viele rote Steine hat C?",
                           "Bert": "Wie viele Dreier-Diamanten hat G?"}},
}


@pytest.fixture
def base(app):
    """The suite's app (on SQLite or PostgreSQL) on a real server: its base URL."""
    with serve(app) as url:
        yield url


@pytest.fixture
def browser(base):
    with chromium() as browser:
        yield browser


def person(browser, size: str, locale: str, timezone: str):
    """A browser of one's own (cookies, language, clock, window size), watched for errors.

    Questions the page asks (``confirm``) are answered yes and kept in ``page.dialogs``.
    """
    page = browser.new_context(viewport=SIZES[size], locale=locale,
                               timezone_id=timezone).new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.accept()))
    return watch(page)


def mail(to: str, kind: str) -> OutboxMessage:
    """The newest mail of a kind to an address, read afresh from the outbox."""
    db.session.rollback()  # see what the server's requests committed
    return db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_addr == to, OutboxMessage.kind == kind)
        .order_by(OutboxMessage.id.desc())).first()


def turn_text(words: tuple[str, str], question: str, tips: dict[str, str]) -> str:
    """A standing turn as the pages show it: question, then tips per location in sheet order."""
    order = [g.code for g in GEMS]
    lines = [f"{words[0]} {question}"]
    for loc in LOCATIONS:
        codes = sorted((c for c, at in tips.items() if at == loc), key=order.index)
        if codes:
            lines.append(f"{words[1]} {loc} " + ", ".join(codes))
    return "\n".join(lines) + "\n"


def stored_tips(game: Game, number: int, email: str) -> dict[str, str]:
    """A player's standing tips of a round, as the service has them."""
    db.session.rollback()
    player = next(p for p in game.players if p.email == email)
    return {g.code: loc for g, loc in turns.standing_turn(game.round(number), player).tips.items()}


def answer(dealt: Distribution, question: str) -> int:
    """How many gems the placeholder holds with all the attributes: from the secret deal."""
    asked = Question.from_codes(question)
    return sum(all(g.has(a) for a in asked.attributes) for g in dealt.holding(asked.placeholder))


def grace_signs_in_and_sets_up_the_game(gm, base: str) -> None:
    gm.goto(f"{base}/gm/")
    expect(gm.locator("h1")).to_have_text("Sign in")
    gm.fill("#email", GRACE)
    gm.click("main form button[type=submit]")
    expect(gm.locator("h1")).to_have_text("Check your mail")
    follow_sign_in_link(gm, sign_in_link(mail(GRACE, "sign_in").body_text))
    expect(gm.locator("h1")).to_have_text("Your games")  # back where she wanted to go
    gm.click("#new-game")
    gm.fill("#name", "Walk-through")
    first = to_local(utcnow() + timedelta(days=9), "Europe/Berlin")
    gm.fill("#first_deadline", first.strftime("%Y-%m-%dT20:00"))
    gm.select_option("#timezone", "Europe/Berlin")
    gm.fill("#first_bonus_round", "2")
    gm.click("#create-game")
    expect(gm.locator(".flash")).to_contain_text("Game created")
    invite(gm, (("Ada", ADA, "en"), ("Bert", BERT, "de")))
    gm.click("#start-game")
    expect(gm.locator("#turns-in")).to_have_text("0 / 2")
    expect(gm.locator("#deadline")).to_contain_text("20:00")
    # The click may return before the dialog's event reaches this process (once in a
    # full run, the list was still empty): Playwright hands it over while it waits.
    for _ in range(50):
        if gm.dialogs:
            break
        gm.wait_for_timeout(100)
    assert gm.dialogs == ["Start the game now? House rules and schedule cannot change "
                          "afterwards."]


def grace_sees_both_turns_counted(gm, tips: dict[str, int], secrets: set[str]) -> None:
    """The status board after a reload: counts per player, never what was asked or tipped."""
    gm.reload()
    expect(gm.locator("#turns-in")).to_have_text("2 / 2")
    for name, count in tips.items():
        row = gm.locator("table.board tbody tr", has_text=name).locator("td")
        expect(row.nth(1)).to_have_text("✓ in")
        expect(row.nth(3)).to_have_text("web")
        expect(row.nth(4)).to_have_text("yes")
        expect(row.nth(5)).to_have_text(str(count))
    assert not any(code in gm.content() for code in secrets)


def grace_resolves(gm, number: int) -> None:
    """Grace resolves the open round from the status board and confirms the question."""
    gm.click("#resolve")
    expect(gm.locator(".flash")).to_contain_text(f"Round {number} is resolved")
    assert gm.dialogs[-1] == "Resolve this round now? This cannot be undone."
    expect(gm.locator("#round-title")).to_contain_text(f"Round {number + 1} of 12")
    expect(gm.locator("#turns-in")).to_have_text("0 / 2")


def reads_round_two(page, name: str, answers: dict[str, int], hidden: set[str]) -> None:
    """A player opens the round-2 report and the standings; screenshots at both sizes."""
    seen = SEEN[name]
    page.click("nav.game-nav a[href$='/rounds']")
    page.click(f"a[href$='/rounds/2']:text-is('{seen['round']} 2')")
    expect(page.locator("h1")).to_have_text(seen["h1"])
    expect(page.locator(".badge")).to_have_text(seen["badge"])
    expect(page.locator("#questions tbody tr")).to_have_count(2)
    for asker, text in seen["questions"].items():
        expect(page.locator("#questions tbody tr", has_text=asker).locator("td")).to_have_text(
            [asker, text, str(answers[asker])])
    for player, row in RESULTS.items():
        expect(page.locator("#results tbody tr", has_text=player).locator("td")).to_have_text(row)
    expect(page.locator("#results tr.me")).to_contain_text(name)
    expect(page.locator("time.js-local-time.localised")).to_contain_text(seen["next"])
    assert not any(code in page.content() for code in hidden)  # others' tips stay secret
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        screenshot(page, f"walk-{name.lower()}-report", size)

    page.click(f"nav.game-nav >> text={seen['standings']}")
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        chart = page.locator("svg.chart:visible")  # one drawing for phones, one for desktops
        expect(chart).to_have_count(1)
        for player, totals in TOTALS.items():
            series = chart.locator(f"g.series[data-player={player}]")
            expect(series.locator("polyline")).to_have_count(1)
            expect(series.locator("circle title")).to_have_text(
                [f"{player}, {seen['round']} {n}: {t}" for n, t in enumerate(totals, 1)],
                use_inner_text=False)
            expect(page.locator("#standings tbody tr", has_text=player).locator("td")
                   ).to_have_text([RESULTS[player][0], *totals])
        assert not any(code in page.content() for code in hidden)
        screenshot(page, f"walk-{name.lower()}-standings", size)


def test_a_game_master_and_two_players_play_two_rounds_in_their_browsers(app, base, browser):
    accounts.create_game_master(GRACE, "Grace")
    gm = person(browser, "wide", "en-GB", "Europe/Berlin")
    grace_signs_in_and_sets_up_the_game(gm, base)
    invitations = {email: mail(email, "invitation") for email in (ADA, BERT)}
    assert invitations[ADA].subject == 'You are invited to the VP-Sleuth game "Walk-through"'
    assert invitations[BERT].subject == 'Einladung zur VP-Sleuth-Partie "Walk-through"'
    game = db.session.scalar(select(Game).where(Game.name == "Walk-through"))
    assert (game.state, game.first_bonus_round, game.rounds) == ("running", 2, 12)
    dealt = Distribution.from_canonical(game.secret.distribution)  # the test may peek
    a = [g.code for g in dealt.holding("A")]
    b0, x = dealt.holding("B")[0].code, dealt.holding("X")[0].code

    # The players sign in by the links in their invitations.
    ada = person(browser, "wide", "en-GB", "Europe/London")
    follow_sign_in_link(ada, sign_in_link(invitations[ADA].body_text))
    # An invitation opens its own game, and nothing else.
    expect(ada.locator("#my-turn-status")).to_have_text(
        "You have not sent a turn for this round yet.")
    bert = person(browser, "narrow", "de-DE", "Europe/Berlin")
    bert.goto(sign_in_link(invitations[BERT].body_text))
    expect(bert.locator("#confirm-sign-in")).to_have_text("Bei VP-Sleuth anmelden")
    bert.click("#confirm-sign-in")
    expect(bert.locator("html")).to_have_attribute("lang", "de")
    expect(bert.locator("#my-turn-status")).to_have_text(
        "Du hast für diese Runde noch keinen Zug geschickt.")

    # Round 1. Ada: a question and four tips in the grid, by mouse and by keyboard.
    ada.click("#enter-turn")
    ada.select_option("#q-place", "E")
    ada.select_option("#q-colour", "B")
    ada.select_option("#q-kind", "O")
    expect(ada.locator("#q-size")).to_be_disabled()  # two attributes are the most
    for code, loc in ((a[0], "A"), (a[2], "A"), (x, "X")):
        ada.click(f"label[for=tip-{code}-{loc}]")
    ada.focus(f"#tip-{a[1]}-none")
    ada.keyboard.press("ArrowRight")
    ada.keyboard.press("ArrowRight")  # past A to B: a wrong tip, as a[1] is at A
    expect(ada.locator(f"#tip-{a[1]}-B")).to_be_checked()
    expect(ada.locator("#tip-count")).to_have_text("4")
    ada.click("#save-turn")
    expect(ada.locator(".flash.ok")).to_have_text("Your turn for round 1 is saved.")
    ada_tips = {a[0]: "A", a[1]: "B", a[2]: "A", x: "X"}
    expect(ada.locator("#standing-text")).to_have_text(
        turn_text(("QUESTION", "TIP"), "E blue opal", ada_tips))
    assert stored_tips(game, 1, ADA) == ada_tips

    # Bert pastes a turn in German, with the gems' German names.
    bert.click("#enter-turn")
    expect(bert.locator("h1")).to_contain_text("Dein Zug")
    bert.click("#paste summary")
    de = {g.code: g.name("de") for g in GEMS}
    bert.fill("#turn-text", f"FRAGE A Diamant\nTIPP C {de[a[3]]}\nTIPP A {de[a[4]]}, X {de[b0]}\n")
    bert.click("#save-turn")  # one save: the choices above (none) and the text
    expect(bert.locator(".flash.ok")).to_have_text("Dein Zug für Runde 1 ist gespeichert.")
    bert_tips = {a[3]: "C", a[4]: "A", b0: "X"}
    expect(bert.locator("#standing-text")).to_have_text(
        turn_text(("FRAGE", "TIPP"), "A Diamanten", bert_tips))
    assert stored_tips(game, 1, BERT) == bert_tips

    grace_sees_both_turns_counted(gm, {"Ada": 4, "Bert": 3}, {*ada_tips, *bert_tips})
    grace_resolves(gm, 1)

    # Round 2. Bert fills in last round's tips, moves one and asks something new.
    bert.click("nav.game-nav >> text=Dein Zug")
    expect(bert.locator("h1")).to_contain_text("Runde 2 von 12")
    expect(bert.locator(f"#tip-{a[3]}-none")).to_be_checked()
    bert.click("#prefill")
    expect(bert.locator("#prefill-note")).to_have_text(
        "Die Tipps der letzten Runde sind unten eingesetzt. Sie zählen erst, wenn du speicherst.")
    for code, loc in bert_tips.items():
        expect(bert.locator(f"#tip-{code}-{loc}")).to_be_checked()
    expect(bert.locator("#tip-count")).to_have_text("3")
    bert.click(f"label[for=tip-{a[3]}-A]")  # now right: a[3] is at A
    bert.select_option("#q-place", "G")
    bert.select_option("#q-kind", "D")
    bert.select_option("#q-size", "3")
    expect(bert.locator("#q-colour")).to_be_disabled()
    bert.click("#save-turn")
    expect(bert.locator(".flash.ok")).to_have_text("Dein Zug für Runde 2 ist gespeichert.")
    bert_tips[a[3]] = "A"
    expect(bert.locator("#standing-text")).to_have_text(
        turn_text(("FRAGE", "TIPP"), "G Dreier-Diamanten", bert_tips))
    assert stored_tips(game, 2, BERT) == bert_tips

    ada.click("nav.game-nav >> text=Your turn")
    ada.click("#paste summary")
    ada.fill("#turn-text", "QUESTION C red\nREPEAT\n")
    ada.click("#save-turn")
    expect(ada.locator(".flash.ok")).to_have_text("Your turn for round 2 is saved.")
    expect(ada.locator("#standing-text")).to_have_text(
        turn_text(("QUESTION", "TIP"), "C red", ada_tips))
    assert stored_tips(game, 2, ADA) == ada_tips

    grace_sees_both_turns_counted(gm, {"Ada": 4, "Bert": 3}, {*ada_tips, *bert_tips})
    grace_resolves(gm, 2)

    # The report's numbers are the stored ones; the answers are those of the deal.
    db.session.rollback()
    names = {p.id: p.name for p in game.players}
    round_2 = game.round(2).id
    for r in db.session.scalars(select(RoundResult).where(RoundResult.round_id == round_2)):
        assert [str(r.rank), names[r.player_id], f"{r.tip_score:+d}", str(r.bonus),
                f"{r.points:+d}", str(r.total)] == RESULTS[names[r.player_id]]
    asked = db.session.scalars(select(StandingQuestion).where(
        StandingQuestion.round_id == round_2)).all()
    answers = {names[q.player_id]: q.answer for q in asked}
    assert answers == {names[q.player_id]: answer(dealt, q.question) for q in asked}
    reads_round_two(ada, "Ada", answers, hidden=set(bert_tips))
    reads_round_two(bert, "Bert", answers, hidden=set(ada_tips))

    reports = {to: mail(to, "report") for to in (ADA, BERT)}
    assert (reports[ADA].subject, reports[BERT].subject) == (
        "Walk-through: report of round 2", "Walk-through: Bericht zu Runde 2")
    assert not any(code in reports[ADA].body_text for code in bert_tips)
    assert not any(code in reports[BERT].body_text for code in ada_tips)
    for page in (gm, ada, bert):
        assert (page.console_errors, page.failed) == ([], [])
