"""A player's data (issue 22, 3): all of it as a file, and gone when they leave.

Ada plays in Zircon (finished, rated) and Garnet (running); she has a notebook,
an API token, a feed link, a session, a request to join Otto's open game, a
mail she sent in and the mails sent to her. Ben plays beside her and keeps
notes of his own. Everything is asked for and deleted over real HTTP, and
checked against every table of the database.
"""

from __future__ import annotations

import json
import threading

import pytest
from browser_support import serve
from http_support import Browser
from record_support import new_game, play, tell
from sqlalchemy import event, select

from vpsleuth.extensions import db
from vpsleuth.models import Game, GameMaster, GameStory, InboundMessage, Player, Profile
from vpsleuth.services import (
    accounts,
    auth,
    leaving,
    limits,
    lobby,
    notebook,
    ratings,
    reports,
    resolution,
    turns,
)
from vpsleuth.services.access import viewer_for
from vpsleuth.web.feeds import feed_token

pytestmark = pytest.mark.live_db  # a real server in a thread reads the database

GAIL, OTTO, ADA, BEN, CY = ("gail@example.org", "otto@example.org", "ada@example.org",
                            "ben@example.org", "cy@example.org")
OTHERS = (GAIL, OTTO, BEN, CY)
BEN_NOTES, ADA_NOTES = "Ben suspects B holds the pearls", "Ada's own notes"


def text_of(value) -> str:
    if isinstance(value, bytes | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return "" if value is None else str(value)


def rows_holding(needle: str) -> dict[str, list]:
    """Every row of every table with ``needle`` in any column, by table (primary keys)."""
    found = {}
    for table in db.metadata.sorted_tables:
        key = list(table.primary_key.columns)[0].name
        hits = [row._mapping[key] for row in db.session.execute(select(table))
                if any(needle.lower() in text_of(v).lower() for v in row)]
        if hits:
            found[table.name] = hits
    return found


def rows_about(email: str, seats: set[int], profile: int | None) -> dict[str, set]:
    """Rows about the person, by the database alone: their address anywhere in the row, a
    seat of theirs, their profile, or their counted requests."""
    found = {name: set(ids) for name, ids in rows_holding(email).items()}
    for table in db.metadata.sorted_tables:
        key = list(table.primary_key.columns)[0].name
        for row in db.session.execute(select(table)):
            m = row._mapping
            if (m.get("player_id") in seats or (profile and m.get("profile_id") == profile)
                    or (table.name == "rate_event" and m["key"] == limits.key_of(email))):
                found.setdefault(table.name, set()).add(m[key])
    return found


@pytest.fixture
def world(app):
    gail = accounts.create_game_master(GAIL, "Gail")
    otto = accounts.create_game_master(OTTO, "Otto")
    zircon = play(new_game("Zircon", gail, {"Ada": ADA, "Ben": BEN, "Cy": CY}, rated=True))
    garnet = new_game("Garnet", gail, {"Ada": ADA, "Ben": BEN, "Cy": CY}, rounds=4)
    play(garnet, rounds=1)
    basalt = new_game("Basalt", otto, {"Cy": CY}, start=False)
    lobby.set_listing(basalt, open_to_join=True, max_players=None, actor=OTTO)
    lobby.ask_to_join(viewer_for(ADA), basalt.id, "Ada", message="May I?")
    ada, ben = garnet.players[0], garnet.players[1]
    notebook.save(ada, notes=ADA_NOTES)
    notebook.save(ben, notes=BEN_NOTES)
    turns.submit_turn(ben, "TIP B BP1  # Ben's secret tip", channel="cli")
    db.session.add(InboundMessage(
        source="pipe", raw=b"From: Ada <ada@example.org>\r\nSubject: Re: Garnet\r\n\r\n"
        b"TIP A RD1\r\n",
        from_addr="Ada <ada@example.org>", subject="Re: Garnet", status="applied",
        game_id=garnet.id, player_id=ada.id, body_text="TIP A RD1"))
    db.session.commit()
    accounts.issue_api_token(player=ada, label="ada-script")
    auth.request_sign_in(ADA, "203.0.113.9")  # counted, by keyed hashes
    with serve(app) as base:
        yield base, {"zircon": zircon.id, "garnet": garnet.id, "basalt": basalt.id}


def test_the_export_holds_every_row_about_the_player_and_nothing_about_another(world):
    base, ids = world
    browser = Browser(base).sign_in(ADA)
    answer = browser.get("/settings/export")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert "attachment" in answer.headers["Content-Disposition"]
    data = answer.json()
    assert data["scope"] == "account" and data["address"] == ADA
    db.session.rollback()
    seats = set(db.session.scalars(select(Player.id).where(Player.email == ADA)))
    profile = db.session.scalar(select(Profile.id).where(Profile.email == ADA))
    exported = {name: {r.get("id", r.get("profile_id")) for r in rows}
                for name, rows in data["tables"].items()}
    expected = rows_about(ADA, seats, profile)
    bodies = expected.pop("mail_body", set())  # a mail's text comes with the mail
    assert bodies <= {r["body_id"] for r in data["tables"]["outbox_message"]}
    for table, keys in expected.items():
        assert keys <= exported.get(table, set()), (table, keys - exported.get(table, set()))
    for table in ("player", "turn_version", "player_notebook", "standing_tip", "round_result",
                  "rate_event", "inbound_message", "join_request", "api_token", "web_session"):
        assert exported[table], table  # the world has rows of each kind for her
    whole = json.dumps(data)
    assert ADA_NOTES in whole and "TIP A RD1" in whole
    for secret in (*OTHERS, BEN_NOTES, "Ben's secret tip"):
        assert secret not in whole, secret
    assert all("token_hash" not in r for r in data["tables"]["api_token"])
    assert all("nonce" not in r for r in data["tables"]["login_token"])


def test_a_forged_or_borrowed_export_link_gives_nothing_but_ones_own(world):
    base, ids = world
    db.session.rollback()
    ben = db.session.scalars(select(Player).where(Player.email == BEN)).first()
    browser = Browser(base).sign_in(ADA)
    forged = browser.get(f"/settings/export?player_id={ben.id}&email={BEN}").json()
    assert forged["address"] == ADA and BEN not in json.dumps(forged)
    assert Browser(base).get("/settings/export").status_code == 302  # signed out: sign in
    # An invitation's session, as the GM who forwarded it would have: one game, no more.
    garnet_seat = db.session.scalars(select(Player).where(
        Player.email == ADA, Player.game_id == ids["garnet"])).one()
    token = auth.issue_token(ADA, purpose="invitation", player=garnet_seat)
    db.session.commit()
    invited = Browser(base)
    assert invited.open_link(token).status_code == 302
    scoped = invited.get("/settings/export").json()
    assert scoped["scope"] == "one game" and set(scoped["games"]) == {str(ids["garnet"])}
    assert "Zircon" not in json.dumps(scoped)
    assert invited.post("/settings/delete", {"confirm": "yes"},
                        form_page="/settings/delete").status_code == 403
    db.session.rollback()
    assert db.session.scalar(select(Player.id).where(Player.email == ADA).limit(1))
    api = Browser(base)
    for token in ("vps_forged", ""):
        api.http.headers["Authorization"] = f"Bearer {token}"
        assert api.get("/api/v1/me/export").status_code == 401


def test_deleting_the_account_leaves_no_trace_of_the_address_and_the_reports_add_up(world):
    base, ids = world
    db.session.rollback()
    ada_seat = db.session.scalars(select(Player).where(
        Player.email == ADA, Player.game_id == ids["garnet"])).one()
    feed, (_, api_token) = feed_token(ada_seat), accounts.issue_api_token(player=ada_seat)
    db.session.commit()
    tell()  # Zircon's story names Ada: it must lose her name too
    browser = Browser(base).sign_in(ADA)
    copy = browser.copy()
    page = browser.get("/settings/delete").text
    assert 'id="delete-running-warning"' in page and "Garnet" in page
    assert browser.post("/settings/delete", {}, form_page="/settings/delete").status_code == 400
    done = browser.post("/settings/delete", {"confirm": "yes"}, form_page="/settings/delete")
    assert done.status_code == 302
    db.session.rollback()
    assert rows_holding(ADA) == {}  # every table, every column
    assert rows_holding("Ada's own notes") == {}
    for game_id in (ids["zircon"], ids["garnet"]):
        game = db.session.get(Game, game_id)
        former = next(p for p in game.players if p.left_at is not None)
        assert former.name == "former player 1" and not former.active
        assert "Ada" not in {p.name for p in game.players}
        for number in range(1, len(reports.resolved_rounds(game)) + 1):
            report = reports.build_report(game, number)
            assert "former player 1" in [r.player for r in report.rows]
            for row in report.rows:
                assert row.points == row.tip_score + row.bonus
                before = report.history[row.player][number - 2] if number > 1 else 0
                assert row.total == (before or 0) + row.points
    told = db.session.scalars(select(GameStory.data).where(
        GameStory.game_id == ids["zircon"])).one()
    assert "former player 1" in told and '"Ada"' not in told  # the stored story too
    assert ratings.recompute().differences() == []
    # Sessions, tokens and feed links end at once; the GM sees that a player left, not who.
    assert copy.get("/settings").status_code == 302
    api = Browser(base)
    api.http.headers["Authorization"] = f"Bearer {api_token}"
    assert api.get("/api/v1/me").status_code == 401
    assert Browser(base).get(f"/games/{ids['garnet']}/feed.atom?token={feed}").status_code \
        == 404
    audit = Browser(base).sign_in(GAIL).get(f"/gm/games/{ids['garnet']}/audit").text
    assert "a player left" in audit and ADA not in audit
    assert Browser(base).sign_in(BEN).get(f"/games/{ids['zircon']}/rounds/2").status_code \
        == 200


def test_a_game_master_who_leaves_hands_the_games_on_or_leaves_them_to_run(world, app):
    base, ids = world
    otto_token = accounts.issue_api_token(game_master=db.session.scalars(
        select(GameMaster).where(GameMaster.email == OTTO)).one())[1]
    ada_token = accounts.issue_api_token(player=db.session.scalars(select(Player).where(
        Player.email == ADA)).first())[1]
    api = Browser(base)
    api.http.headers["Authorization"] = f"Bearer {ada_token}"
    refused = api.http.post(f"{base}/api/v1/me/delete", json={"confirm": "yes"}, timeout=10)
    assert refused.status_code == 403  # a player token acts for one game
    api.http.headers["Authorization"] = f"Bearer {otto_token}"
    gail = db.session.scalars(select(GameMaster).where(GameMaster.email == GAIL)).one()
    gone = api.http.post(f"{base}/api/v1/me/delete",
                         json={"confirm": "yes", "successor_id": gail.id}, timeout=10)
    assert gone.status_code == 200 and gone.json()["handed_over"] == ["Basalt"]
    db.session.rollback()
    assert db.session.get(Game, ids["basalt"]).game_master_id == gail.id
    assert rows_holding(OTTO) == {}
    # Without a successor the games run on: rounds still resolve at their deadlines.
    garnet = db.session.get(Game, ids["garnet"])
    leaving.delete_account(viewer_for(GAIL))
    garnet = db.session.get(Game, ids["garnet"])
    assert garnet.game_master_id is None and garnet.state == "running"
    assert resolution.resolve_round(garnet, number=2) is not None
    assert rows_holding(GAIL) == {}


def test_a_turn_on_its_way_when_the_account_is_deleted_is_refused_and_leaves_no_trace(world, app):
    base, ids = world
    db.session.rollback()
    seat = db.session.scalars(select(Player).where(
        Player.email == ADA, Player.game_id == ids["garnet"])).one()
    arrived, release, outcome = threading.Event(), threading.Event(), {}
    main = threading.current_thread()

    def hold(conn, cursor, statement, *args):
        if threading.current_thread() is not main and statement.lstrip().upper().startswith(
                "UPDATE ROUND"):
            arrived.set()
            release.wait(30)

    def submit() -> None:
        with app.app_context():
            player = db.session.get(Player, seat.id)
            try:
                turns.submit_turn(player, "TIP A RD1\n# signed, ada@example.org",
                                  channel="web", entered_by=ADA)
                outcome["result"] = "accepted"
            except Exception as exc:  # noqa: BLE001 - what happened is the finding
                outcome["result"] = type(exc).__name__
            finally:
                db.session.remove()

    event.listen(db.engine, "before_cursor_execute", hold)
    try:
        thread = threading.Thread(target=submit)
        thread.start()
        assert arrived.wait(30), "the turn never reached its round's lock"
        leaving.delete_account(viewer_for(ADA))  # the version is stored, not yet applied
        release.set()
        thread.join(30)
    finally:
        event.remove(db.engine, "before_cursor_execute", hold)
    assert outcome["result"] == "PlayerLeft"
    db.session.rollback()
    assert rows_holding(ADA) == {} and rows_holding("signed, ada") == {}
