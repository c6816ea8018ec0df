"""A game read at a glance: the games list, who has sent a turn, and where a GM lands."""

from __future__ import annotations

import html
import re
from contextlib import contextmanager

from sqlalchemy import event

from vpsleuth.extensions import db
from vpsleuth.rules import Ruleset
from vpsleuth.services import accounts, auth, games, gm, resolution, turns
from vpsleuth.services.access import viewer_for
from vpsleuth.services.glance import games_at_a_glance

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def plain(response) -> str:
    """The page's text without tags, entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(
        as_text=True))))


def player(game, name):
    return games.find_player(game, name)


@contextmanager
def counted_queries():
    """The number of SQL statements run inside the block."""
    seen = []

    def count(*_args):
        seen.append(1)
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_the_games_list_shows_round_deadline_my_turn_and_how_many_sent(moonstone, ada):
    turns.submit_turn(player(moonstone, "Ben"), "TIP A RD1", channel="web")
    page = ada.get("/").get_data(as_text=True)
    deadline = moonstone.open_round.deadline.strftime("%Y-%m-%dT%H:%M:%SZ")
    card = plain(ada.get("/"))
    assert "Moonstone running Round 1 of 12" in card
    assert f'<time class="js-local-time" datetime="{deadline}">' in page
    assert re.search(r'class="time-left" data-deadline="[^"]+">(2|3) days', page)
    assert "Your turn is due" in card and "1 of 3 sent" in card
    assert f'href="/games/{moonstone.id}/turn"' in page and "Enter your turn" in card
    turns.submit_turn(player(moonstone, "Ada"), "QUESTION E blue opal", channel="web")
    card = plain(ada.get("/"))
    assert "✓ Your turn is in" in card and "2 of 3 sent" in card and "Change your turn" in card
    assert "blue opal" not in card


def test_the_games_list_in_the_players_own_zone_and_in_german(moonstone, ada):
    ada_row = player(moonstone, "Ada")
    ada_row.timezone = "America/New_York"
    db.session.commit()
    page = ada.get("/").get_data(as_text=True)
    assert 'data-tz="America/New_York"' in page and re.search(r"E[SD]T</time>", page)
    ada.get("/lang/de")
    card = plain(ada.get("/"))
    assert "Runde 1 von 12" in card and "0 von 3 abgeschickt" in card
    assert "Dein Zug fehlt noch" in card


def test_the_games_list_shows_games_not_started_and_ended(make_game, ada):
    make_game("Setup", start=False)
    done = make_game("Short", rules=Ruleset(rounds=1))
    resolution.resolve_round(done)
    card = plain(ada.get("/"))
    assert "The game has not started yet" in card
    assert ("Short finished · won jointly by Ada, Ben, and Cleo (0 points each) · you: joint 1st "
            "of 3, 0 points") in card
    assert "The game has ended. Final report" in card
    assert f'href="/games/{done.id}/rounds/1"' in ada.get("/").get_data(as_text=True)


def test_a_withdrawn_player_and_a_latest_report_show_in_the_list(moonstone, ada):
    resolution.resolve_round(moonstone)
    games.withdraw_player(player(moonstone, "Ada"))
    card = plain(ada.get("/"))
    assert "Round 2 of 12" in card and "withdrawn" in card and "0 of 2 sent" in card
    assert "Enter your turn" not in card and "Latest report: Round 1" in card


def test_the_games_list_costs_the_same_queries_for_one_game_or_five(make_game, ada):
    one = make_game("One")
    turns.submit_turn(player(one, "Ada"), "TIP A RD1", channel="web")
    resolution.resolve_round(make_game("Ended", rules=Ruleset(rounds=1)))  # its result too
    viewer = viewer_for("ada@example.org")

    def queries() -> int:
        db.session.expire_all()
        with counted_queries() as seen:
            shown = games_at_a_glance(viewer)
            for g in shown:  # what the page reads of each
                _ = (g.game.name, g.round and g.round.deadline, g.player and g.player.active,
                     g.sent, g.of, g.mine_in, g.turn_due)
        return len(seen)

    def page_queries() -> int:
        with counted_queries() as seen:
            assert ada.get("/").status_code == 200
        return len(seen)

    alone, page_alone = queries(), page_queries()
    for n in range(4):
        game = make_game(f"More {n}", rules=Ruleset(rounds=1) if n == 0 else None)
        turns.submit_turn(player(game, "Ben"), "TIP B RD2", channel="web")
    resolution.resolve_round(games.find_game("More 0"))
    assert len(games_at_a_glance(viewer)) == 6
    assert 3 <= queries() == alone <= 6, alone
    assert page_queries() == page_alone


def test_the_overview_lists_who_has_sent_a_turn_and_when_but_never_what(moonstone, ada):
    turns.submit_turn(player(moonstone, "Cleo"), "QUESTION E blue opal\nTIP A RD1",
                      channel="email")
    page = ada.get(f"/games/{moonstone.id}").get_data(as_text=True)
    text = plain(ada.get(f"/games/{moonstone.id}"))
    assert "Turns this round 1 of 3 sent" in text
    assert re.search(r"Ada \(you\) – not yet Ben – not yet Cleo ✓ sent \w{3} \d+ \w{3} \d{4}, "
                     r"\d\d:\d\d CE", text)
    assert "Who has sent a turn and when; never what it says." in text
    assert "blue opal" not in text and "RD1" not in page


def test_the_game_master_sees_the_same_list_on_the_overview(moonstone, signed_in):
    gina = accounts.create_game_master("gina@example.org", "Gina")
    moonstone.game_master_id = gina.id
    db.session.commit()
    text = plain(signed_in("gina@example.org").get(f"/games/{moonstone.id}"))
    assert "Turns this round 0 of 3 sent" in text and "(you)" not in text


def test_a_game_master_lands_on_the_console_unless_sent_elsewhere(moonstone, client, app):
    accounts.create_game_master("ada@example.org", "Ada")  # Ada runs games and plays
    for target, landing in (("", "/gm/"), (f"/games/{moonstone.id}/turn",
                                            f"/games/{moonstone.id}/turn")):
        client.post("/signout", data={"csrf_token": csrf(client)})
        client.post("/signin", data={"email": "ada@example.org", "next": target,
                                     "csrf_token": csrf(client)})
        token = auth.issue_token("ada@example.org")
        db.session.commit()
        page = client.get(f"/signin/{token}").get_data(as_text=True)
        response = client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page)[1]})
        assert response.status_code == 302 and response.headers["Location"] == landing
    console = plain(client.get("/gm/"))
    assert "Games you play in Moonstone Round 1 of 12 · Your turn is due · 0 of 3 sent" in console


def test_a_player_without_a_console_still_lands_on_the_games_list(moonstone, client):
    client.post("/signin", data={"email": "ben@example.org", "csrf_token": csrf(client)})
    token = auth.issue_token("ben@example.org")
    db.session.commit()
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    response = client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page)[1]})
    assert response.headers["Location"] == "/"


def csrf(client) -> str:
    return CSRF.search(client.get("/signin").get_data(as_text=True))[1]


def test_early_resolution_is_said_on_the_overview_and_the_turn_form(make_game, ada):
    game = make_game("Swift", rules=Ruleset(early_resolution=True))
    gm.set_after_early(game, "fresh", actor="gm")
    overview = plain(ada.get(f"/games/{game.id}"))
    assert "The round closes as soon as everyone has sent a turn; a change after that is " \
           "too late." in overview
    assert "Round end as soon as every player has sent a turn, at the latest at the " \
           "deadline" in overview
    assert "After an early close the next round gets a whole interval from the close" in overview
    form = plain(ada.get(f"/games/{game.id}/turn"))
    assert "The round closes as soon as everyone has sent a turn" in form
    assert "You can change it until the deadline." not in form
    ada.get("/lang/de")
    assert "Rundenende sobald alle Spieler einen Zug geschickt haben" in plain(
        ada.get(f"/games/{game.id}"))


def test_without_early_resolution_the_round_ends_at_the_deadline(moonstone, ada):
    overview = plain(ada.get(f"/games/{moonstone.id}"))
    assert "Round end at the deadline" in overview and "After an early close" not in overview
    assert "as soon as everyone" not in overview
    form = plain(ada.get(f"/games/{moonstone.id}/turn"))
    assert "You can change it until the deadline." in form


def test_a_report_explains_its_no_turn_rows(moonstone, ada):
    turns.submit_turn(player(moonstone, "Ada"), "TIP A RD1", channel="web")
    resolution.resolve_round(moonstone)
    note = "No turn: this player sent no turn this round, so no tips were scored."
    assert note in plain(ada.get(f"/games/{moonstone.id}/rounds/1"))
    assert note in ada.get(f"/games/{moonstone.id}/rounds/1.txt").get_data(as_text=True)
    for name in ("Ada", "Ben", "Cleo"):
        turns.submit_turn(player(moonstone, name), "TIP A RD1", channel="web")
    resolution.resolve_round(moonstone)
    assert "No turn:" not in plain(ada.get(f"/games/{moonstone.id}/rounds/2"))
    assert "No turn:" not in ada.get(f"/games/{moonstone.id}/rounds/2.txt").get_data(
        as_text=True)
