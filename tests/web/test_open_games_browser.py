"""Open games in a real browser, as the people involved would go through them.

Grace lists her game as open on its page. Cleo (she plays elsewhere, so she
can sign in) finds it from the home page, reads its house rules and asks to
join with a message; Dan asks too. Grace sees both requests on the game's
page, accepts Cleo and declines Dan. Cleo opens the invitation from her mail
and lands in the game as its new player; Dan's mail says no. Screenshots of
each page, narrow and wide, go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from browser_support import (
    SIZES,
    chromium,
    follow_sign_in_link,
    live_sqlite,
    screenshot,
    sign_in_link,
    watch,
)
from playwright.sync_api import expect
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, auth, games

GRACE, CLEO, DAN = "grace@example.org", "cleo@example.org", "dan@example.org"


@pytest.fixture
def live(tmp_path):
    with live_sqlite(tmp_path) as served:
        yield served


def first_deadline() -> str:
    moment = datetime.now(UTC) + timedelta(days=5)
    return moment.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d 20:00")


def signed_in(browser, base: str, email: str):
    """A fresh browser (its own cookies) signed in by a sign-in link to ``email``."""
    page = watch(browser.new_context(viewport=SIZES["wide"]).new_page())
    token = auth.issue_token(email)
    db.session.commit()
    follow_sign_in_link(page, f"{base}/signin/{token}")
    return page


def shoot(page, name: str) -> None:
    """Screenshots of the page as it is, at both sizes."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        screenshot(page, f"open-games-{name}", size)
    page.set_viewport_size(SIZES["wide"])


def last_mail(kind: str, to: str) -> OutboxMessage:
    db.session.rollback()
    return db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.kind == kind, OutboxMessage.to_addr == to)
        .order_by(OutboxMessage.id.desc())).first()


def test_a_visitor_asks_to_join_the_gm_accepts_and_the_new_player_signs_in(live):
    app, base = live
    with app.app_context(), chromium() as browser:
        grace = accounts.create_game_master(GRACE, "Grace")
        game = games.create_game("Moonlit Vault", weekly(first_deadline(), "Europe/Berlin"),
                                 actor=GRACE, game_master_id=grace.id)
        games.add_player(game, "Ada", "ada@example.org", actor=GRACE)
        games.start_game(game, seed=4, actor=GRACE)
        elsewhere = games.create_game("Elsewhere", weekly(first_deadline(), "UTC"))
        games.add_player(elsewhere, "Cleo", CLEO, invite=False)
        games.add_player(elsewhere, "Dan", DAN, invite=False)
        game_id = game.id

        # Grace lists the game as open, for four players at most.
        gm = signed_in(browser, base, GRACE)
        gm.goto(f"{base}/gm/games/{game_id}")
        gm.check("#open_to_join")
        gm.fill("#max_players", "4")
        gm.click("#save-listing")
        expect(gm.locator(".flash")).to_contain_text("listed as open")
        expect(gm.locator("#listed")).to_be_visible()
        expect(gm.locator("#no-requests")).to_be_visible()

        # Cleo finds it from the home page and reads its house rules.
        cleo = signed_in(browser, base, CLEO)
        cleo.click("#open-games-link")
        card = cleo.locator(f"#game-{game_id}")
        expect(card).to_contain_text("Moonlit Vault")
        expect(card.locator(".players-count")).to_have_text("1 of 4")
        expect(card).to_contain_text("right +1, wrong -2")
        expect(card).to_contain_text("Grace")
        shoot(cleo, "list")
        card.locator(".ask-to-join").click()
        expect(cleo.locator("h1")).to_have_text("Moonlit Vault")
        cleo.fill("#join-name", "Ada")  # taken: refused, with the input kept
        cleo.fill("#join-message", "Sundays suit me.\nI have played Sleuth at the table.")
        cleo.click("#send-join-request")
        expect(cleo.locator("#join-error")).to_contain_text("plays in this game already")
        expect(cleo.locator("#join-message")).to_have_value(
            "Sundays suit me.\nI have played Sleuth at the table.")
        shoot(cleo, "ask-refused")
        cleo.fill("#join-name", "Cleo")
        cleo.select_option("#join-language", "de")
        cleo.click("#send-join-request")
        expect(cleo.locator(".flash")).to_contain_text("Your request is sent")
        expect(cleo.locator(f"#standing-{game_id}")).to_contain_text(
            "You asked to join as Cleo: waiting for the game master's answer")
        shoot(cleo, "asked")

        # Dan asks too, without a message.
        dan = signed_in(browser, base, DAN)
        dan.goto(f"{base}/games/open/{game_id}")
        dan.fill("#join-name", "Dan")
        dan.click("#send-join-request")
        expect(dan.locator(".flash")).to_contain_text("Your request is sent")

        # Grace was told by mail and sees both on the game's page.
        db.session.rollback()
        asked = db.session.scalars(select(OutboxMessage.subject).where(
            OutboxMessage.kind == "join_request", OutboxMessage.to_addr == GRACE)).all()
        assert sorted(asked) == ['Cleo asks to join "Moonlit Vault"',
                                 'Dan asks to join "Moonlit Vault"']
        gm.goto(f"{base}/gm/games/{game_id}#join-requests")
        gm.reload()  # the same page with another fragment is not fetched again
        requests = gm.locator(".join-request")
        expect(requests).to_have_count(2)
        expect(gm.locator(".request-message")).to_contain_text("Sundays suit me.")
        shoot(gm, "gm-requests")
        cleo_request = requests.filter(has_text=CLEO)
        cleo_request.locator(".accept-request").click()
        expect(gm.locator(".flash")).to_contain_text("Cleo joins the game")
        expect(gm.locator(".player-list .player").filter(has_text="Cleo")).to_have_count(2)
        gm.once("dialog", lambda dialog: dialog.accept())  # "Decline this request?"
        gm.locator(".join-request").filter(has_text=DAN).locator(".decline-request").click()
        expect(gm.locator(".flash")).to_contain_text("The request of Dan is declined")
        shoot(gm, "gm-decided")

        # Dan hears no; Cleo's invitation opens the game, as its player and nothing more.
        assert "declined" in last_mail("join_declined", DAN).body_text
        invitation = last_mail("invitation", CLEO)
        assert "Einladung" in invitation.subject  # she asked in German
        newcomer = watch(browser.new_context(viewport=SIZES["wide"]).new_page())
        follow_sign_in_link(newcomer, sign_in_link(invitation.body_text))
        expect(newcomer).to_have_url(f"{base}/games/{game_id}")
        expect(newcomer.locator("h1")).to_contain_text("Moonlit Vault")
        newcomer.goto(f"{base}/games/{game_id}/turn")
        expect(newcomer.locator("form").first).to_be_visible()
        shoot(newcomer, "new-player")
        db.session.rollback()
        cleo_player = games.find_player(db.session.get(Game, game_id), "Cleo")
        assert (cleo_player.email, cleo_player.language) == (CLEO, "de")
        cleo.goto(f"{base}/games/open")
        expect(cleo.locator(f"#standing-{game_id}")).to_contain_text("You play in this game.")
        for page in (gm, cleo, dan, newcomer):
            assert page.console_errors == [], page.console_errors
            assert [f for f in page.failed if f[0] != 400] == [], page.failed
