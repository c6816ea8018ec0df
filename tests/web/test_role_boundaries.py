"""Who gets what on every web page: one table over all of app.url_map, six identities.

Game 1 "Zircon Vault" is run by Gail; Ada and Vera play in it. Game 2 "Basalt
Keep" is run by Otto; Cy plays in it. Vera's address also runs game 3 "Garnet
Hall", but she comes in by the link of her invitation to game 1: a session for
that one player, nothing more. Every identity signs in by a real link.

Path parameters are filled with game 1's ids (its game, Ada, round 1, Ada's
invitation mail, Gail's API token), so "foreign" means game 1 seen by game 2's
people. A route without a row, a row without a route, and every answer that
differs from its row are all reported at once.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from conftest import CSRF, GmWeb, gm_deadline
from device_support import push_subscription
from role_support import snapshot
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Game, OutboxMessage, Player, utcnow
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import (
    absence,
    accounts,
    auth,
    board,
    games,
    heartbeat,
    lobby,
    push,
    resolution,
)
from vpsleuth.services.access import viewer_for
from vpsleuth.web.feeds import feed_token

GAIL, OTTO = "gail@example.org", "otto@example.org"
ADA, VERA, CY = "ada@example.org", "vera@example.org", "cy@example.org"
GAME_1, GAME_2, GAME_3 = "Zircon Vault", "Basalt Keep", "Garnet Hall"
LINK = re.compile(r"/signin/([\w.\-]+)")

# The table's columns: nobody; a player of game 1 (Ada) and of game 2 (Cy); the GM of
# game 1 (Gail) and of game 2 (Otto); Vera's session opened by her invitation to game 1.
WHO = ("anon", "p1", "p2", "gm1", "gm2", "inv1")
# The games each identity has a part in, and its own address.
MEMBER_OF = {"anon": set(), "p1": {GAME_1}, "p2": {GAME_2}, "gm1": {GAME_1},
             "gm2": {GAME_2}, "inv1": {GAME_1}}
EMAIL = {"p1": ADA, "p2": CY, "gm1": GAIL, "gm2": OTTO, "inv1": VERA}

# Answer classes: ok = 2xx, or a redirect anywhere but to sign in; login = a redirect to
# /signin?next=...; bad = 400 or 422 (let in, refused on the empty form); otherwise the
# status itself. Rows are "METHOD rule" with <g> <p> <n> <mail> <tok> short for the
# rule's int parameters (SHORT), and an optional query filled like the path.
SHORT = {"<g>": "<int:game_id>", "<p>": "<int:player_id>", "<n>": "<int:number>",
         "<mail>": "<int:message_id>", "<tok>": "<int:token_id>", "<req>": "<int:request_id>",
         "<profile>": "<int:profile_id>", "<post>": "<int:post_id>",
         "<abs>": "<int:absence_id>", "<device>": "<int:subscription_id>"}
TABLE = {
    #                                                    anon  p1    p2    gm1   gm2   inv1
    "GET /":                                            "ok    ok    ok    ok    ok    ok",
    "GET /healthz":                                     "ok    ok    ok    ok    ok    ok",
    "GET /static/<path:filename>":                      "ok    ok    ok    ok    ok    ok",
    "GET /lang/<code>":                                 "ok    ok    ok    ok    ok    ok",
    "GET /rules":                                       "ok    ok    ok    ok    ok    ok",
    "GET /help/mail":                                   "ok    ok    ok    ok    ok    ok",
    "GET /signin":                                      "ok    ok    ok    ok    ok    ok",
    "POST /signin":                                     "bad   bad   bad   bad   bad   bad",
    "GET /signin/<token>":                              "ok    ok    ok    ok    ok    ok",
    "POST /signin/<token>":                             "bad   bad   bad   bad   bad   bad",
    "POST /signout":                                    "ok    ok    ok    ok    ok    ok",
    "POST /signout/everywhere":                         "ok    ok    ok    ok    ok    ok",
    "GET /settings":                                    "login ok    ok    ok    ok    ok",
    "POST /settings":                                   "login bad   404   404   404   404",
    "GET /settings/address/<token>":                    "ok    ok    ok    ok    ok    ok",
    # The installable app (issue 21): its manifest and service worker are the same for all.
    "GET /manifest.webmanifest":                        "ok    ok    ok    ok    ok    ok",
    "GET /sw.js":                                       "ok    ok    ok    ok    ok    ok",
    # Push on a person's devices: a session of one's own (a device gets every game's
    # notices); an empty form is refused; only Ada's own device <device> is hers to remove.
    "POST /settings/push":                              "login bad   bad   bad   bad   403",
    "POST /settings/push/<device>/remove":              "login ok    404   404   404   403",
    "POST /settings/address/<token>":                   "bad   bad   bad   bad   bad   bad",
    # One-click unsubscribe (RFC 8058): public by design, no session and no CSRF token; the
    # signed token alone says whose mails of which kind. A token not signed by us is
    # refused for everyone and changes nothing (tests/mail/test_unsubscribe.py posts real
    # ones, forged ones and ones edited to another player).
    "GET /unsubscribe/<token>":                         "bad   bad   bad   bad   bad   bad",
    "POST /unsubscribe/<token>":                        "bad   bad   bad   bad   bad   bad",
    # Open games: for anyone signed in by a link of their own (not by an invitation). Game 1
    # is open; Otto has asked to join it, so he is refused a second time, as are its members.
    "GET /games/open":                                  "login ok    ok    ok    ok    403",
    "GET /games/open/<g>":                              "login ok    ok    ok    ok    403",
    "POST /games/open/<g>":                             "login bad   bad   bad   bad   403",
    # Practice against bots: likewise for a link of one's own; an empty form starts nothing.
    "GET /practice":                                    "login ok    ok    ok    ok    403",
    "POST /practice":                                   "login bad   bad   bad   bad   403",
    # The players' pages of game 1: its members read them; its GM has no turn or sheet.
    "GET /games/<g>":                                   "login ok    404   ok    404   ok",
    "GET /games/<g>/rounds":                            "login ok    404   ok    404   ok",
    "GET /games/<g>/rounds/<n>":                        "login ok    404   ok    404   ok",
    "GET /games/<g>/rounds/<n>.txt":                    "login ok    404   ok    404   ok",
    "GET /games/<g>/standings":                         "login ok    404   ok    404   ok",
    "GET /games/<g>/verify":                            "login ok    404   ok    404   ok",
    "GET /games/<g>/rules":                             "login ok    404   ok    404   ok",
    # The game's board (Ada wrote post <post>): its members read and post (an empty post
    # is refused); only the author deletes, only its GM hides.
    "GET /games/<g>/board":                             "login ok    404   ok    404   ok",
    "POST /games/<g>/board":                            "login bad   404   bad   404   bad",
    "POST /games/<g>/board/<post>/delete":              "login ok    404   403   404   403",
    "POST /games/<g>/board/<post>/hide":                "login 403   404   ok    404   403",
    # The game told afterwards: its GM at any time, its players only after the end.
    "GET /games/<g>/story":                             "login 404   404   ok    404   404",
    "GET /games/<g>/story/state":                       "login 404   404   ok    404   404",
    "GET /games/<g>/sheet":                             "login ok    404   404   404   ok",
    "GET /games/<g>/turn":                              "login ok    404   404   404   ok",
    "POST /games/<g>/turn":                             "login bad   404   404   404   bad",
    # A player's own absences (Ada announced <abs>): only the player announces (an empty
    # form is refused) and cancels their own; the GM does it on the GM's page.
    "POST /games/<g>/absences":                         "login bad   404   404   404   bad",
    "POST /games/<g>/absences/<abs>/cancel":            "login ok    404   404   404   404",
    # A player's own notebook: nobody else's, its GM's neither (an empty form is refused).
    "POST /games/<g>/notebook":                         "login bad   404   404   404   bad",
    # Feeds: a reader without a session brings the player's token instead. A token of
    # another game's player is 404, as where no game has this id.
    "GET /games/<g>/feed.atom":                         "403   ok    404   ok    404   ok",
    "GET /games/<g>/feed.atom?token={ada_feed}":        "ok    ok    ok    ok    ok    ok",
    "GET /games/<g>/feed.atom?token={cy_feed}":         "404   404   404   404   404   404",
    "GET /games/<g>/calendar.ics":                      "403   ok    404   ok    404   ok",
    "GET /games/<g>/calendar.ics?token={ada_feed}":     "ok    ok    ok    ok    ok    ok",
    "GET /games/<g>/calendar.ics?token={cy_feed}":      "404   404   404   404   404   404",
    # The GM console: 403 for non-GMs, 404 on a game's pages for all but its own GM.
    "GET /gm/":                                         "login 403   403   ok    ok    403",
    "GET /gm/games/new":                                "login 403   403   ok    ok    403",
    "POST /gm/games/new":                               "login 403   403   bad   bad   403",
    "GET /gm/games/<g>":                                "login 404   404   ok    404   404",
    "POST /gm/games/<g>/players":                       "login 404   404   bad   404   404",
    "POST /gm/games/<g>/bots":                          "login 404   404   bad   404   404",
    "POST /gm/games/<g>/players/<p>/email":             "login 404   404   bad   404   404",
    "POST /gm/games/<g>/players/<p>/replace":           "login 404   404   bad   404   404",
    "POST /gm/games/<g>/start":                         "login 404   404   409   404   404",
    "GET /gm/games/<g>/board":                          "login 404   404   ok    404   404",
    "POST /gm/games/<g>/deadline":                      "login 404   404   bad   404   404",
    "POST /gm/games/<g>/after-early":                   "login 404   404   bad   404   404",
    "POST /gm/games/<g>/aid":                           "login 404   404   409   404   404",
    "POST /gm/games/<g>/missed-turn":                   "login 404   404   409   404   404",
    "GET /gm/games/<g>/absences":                       "login 404   404   ok    404   404",
    "POST /gm/games/<g>/absences":                      "login 404   404   bad   404   404",
    "POST /gm/games/<g>/absences/<abs>/cancel":         "login 404   404   ok    404   404",
    "POST /gm/games/<g>/resume":                        "login 404   404   409   404   404",
    "POST /gm/games/<g>/resolve":                       "login 404   404   bad   404   404",
    "GET /gm/games/<g>/turn":                           "login 404   404   ok    404   404",
    "POST /gm/games/<g>/turn":                          "login 404   404   bad   404   404",
    "GET /gm/games/<g>/distribution":                   "login 404   404   ok    404   404",
    "POST /gm/games/<g>/distribution":                  "login 404   404   ok    404   404",
    "GET /gm/games/<g>/audit":                          "login 404   404   ok    404   404",
    "POST /gm/games/<g>/listing":                       "login 404   404   bad   404   404",
    "POST /gm/games/<g>/requests/<req>/accept":         "login 404   404   bad   404   404",
    "POST /gm/games/<g>/requests/<req>/decline":        "login 404   404   ok    404   404",
    "POST /gm/games/<g>/players/<p>/withdraw":          "login 404   404   ok    404   404",
    "POST /gm/games/<g>/pause":                         "login 404   404   ok    404   404",
    "GET /gm/outbox":                                   "login 403   403   ok    ok    403",
    "GET /gm/outbox?game={game_id}":                    "login 403   403   ok    ok    403",
    "GET /gm/outbox/<mail>":                            "login 403   403   ok    404   403",
    "POST /gm/outbox/<mail>/forward":                   "login 403   403   ok    404   403",
    "GET /gm/tokens":                                   "login 403   403   ok    ok    403",
    "POST /gm/tokens":                                  "login 403   403   bad   bad   403",
    "POST /gm/tokens/<tok>/revoke":                     "login 403   403   ok    404   403",
    # The community's record (issue 22): the archive and the leaderboard are for anyone;
    # game 1 is private and running, so it is not in the archive for anybody, its own
    # players and GM included; nobody is rated yet. No imprint file is set.
    "GET /archive":                                     "ok    ok    ok    ok    ok    ok",
    "GET /archive/<g>":                                 "404   404   404   404   404   404",
    "GET /archive/<g>/rounds/<n>":                      "404   404   404   404   404   404",
    "GET /archive/<g>/story":                           "404   404   404   404   404   404",
    "GET /archive/<g>/replay/<n>":                      "404   404   404   404   404   404",
    "GET /leaderboard":                                 "ok    ok    ok    ok    ok    ok",
    "GET /leaderboard/<profile>":                       "404   404   404   404   404   404",
    "GET /privacy":                                     "ok    ok    ok    ok    ok    ok",
    "GET /imprint":                                     "404   404   404   404   404   404",
    # A person's data: the download covers what the session may see (an invitation's: its
    # one game); deleting the account and the names across games need a session of one's
    # own. The forms below are refused (no confirmation, an address as a name).
    "GET /settings/export":                             "login ok    ok    ok    ok    ok",
    "GET /settings/delete":                             "login ok    ok    ok    ok    ok",
    "POST /settings/delete":                            "login bad   bad   bad   bad   bad",
    "POST /settings/profile":                           "login bad   bad   bad   bad   403",
    # The GM's choices: the archive at any time (saving "private" again changes nothing),
    # the ratings only before the start (game 1 runs).
    "POST /gm/games/<g>/public":                        "login 404   404   ok    404   404",
    "POST /gm/games/<g>/rated":                         "login 404   404   409   404   404",
    # The chat webhook (none set): an empty address is refused, a test needs one first,
    # and removing none changes nothing.
    "POST /gm/games/<g>/webhook":                       "login 404   404   bad   404   404",
    "POST /gm/games/<g>/webhook/remove":                "login 404   404   ok    404   404",
    "POST /gm/games/<g>/webhook/test":                  "login 404   404   bad   404   404",
}
# Form data for POSTs (besides the CSRF token); the rest send none.
FORMS = {
    "POST /settings": {"player_id": "{ada_id}", "language": "xx"},  # Ada's row, a bad value
    "POST /gm/tokens": {"label": "x" * 81},  # too long a label
    "POST /gm/games/<g>/listing": {"open_to_join": "y", "max_players": "many"},
    "POST /gm/games/<g>/requests/<req>/accept": {"name": "Ada"},  # a name taken
    "POST /settings/profile": {"display_name": "me@example.org"},  # never an address
}
# Authorised calls that do change things (even with an empty form): run last, in table
# order, and left out of the "nothing changed" check.
CHANGES = {
    "POST /gm/outbox/<mail>/forward": "gm1",  # a fresh link, audited
    "POST /gm/tokens/<tok>/revoke": "gm1",
    "POST /gm/games/<g>/players/<p>/withdraw": "gm1",
    "POST /gm/games/<g>/pause": "gm1",
    "POST /gm/games/<g>/requests/<req>/decline": "gm1",  # Otto is told by mail
    "POST /games/<g>/board/<post>/delete": "p1",  # Ada's own post
    "POST /games/<g>/absences/<abs>/cancel": "p1",  # Ada's own absence
    "POST /gm/games/<g>/absences/<abs>/cancel": "gm1",  # audited
    "POST /games/<g>/board/<post>/hide": "gm1",
    "POST /settings/push/<device>/remove": "p1",  # Ada's own device
}
# Routes that end the session: each identity tries them with a session of its own.
ENDS_SESSION = {"POST /signout", "POST /signout/everywhere"}


def parse_key(key: str) -> tuple[str, str, str]:
    """(method, url_map rule, query) of a row of TABLE."""
    method, target = key.split(" ", 1)
    rule, _, query = target.partition("?")
    for short, full in SHORT.items():
        rule = rule.replace(short, full)
    return method, rule, query


def served_routes(app) -> set[tuple[str, str]]:
    """(method, rule) of every web route; the API has a table of its own."""
    return {(method, rule.rule) for rule in app.url_map.iter_rules()
            if not rule.rule.startswith("/api/")
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def fill(rule: str, values: dict) -> str:
    """The rule with each <converter:name> replaced by values[name]."""
    def value(match: re.Match) -> str:
        if match.group(1) not in values:
            raise KeyError(f"no value for the path parameter {match.group(1)!r}: add one to "
                           "World.values")
        return str(values[match.group(1)])
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", value, rule)


def answer_class(response) -> str:
    status = response.status_code
    if 300 <= status < 400:
        target = urlsplit(response.headers.get("Location", ""))
        return "login" if target.path == "/signin" and "next=" in target.query else "ok"
    if 200 <= status < 300:
        return "ok"
    return "bad" if status in (400, 422) else str(status)


def _game(name: str, gm_email: str, players: dict[str, str], start: bool = True):
    """A game run by a new GM account at ``gm_email``; (the account, the game)."""
    gm = accounts.create_game_master(gm_email, gm_email.split("@")[0].title())
    game = games.create_game(name, weekly(gm_deadline(), "Europe/Berlin"), actor=gm_email,
                             game_master_id=gm.id)
    for player_name, email in players.items():
        games.add_player(game, player_name, email, actor=gm_email)
    if start:
        games.start_game(game, seed=5, actor=gm_email)
    return gm, game


class World:
    """The three games, the values that fill path parameters, a signed-in browser each."""

    def __init__(self, app):
        self.app = app
        gail, self.game = _game(GAME_1, GAIL, {"Ada": ADA, "Vera": VERA})
        resolution.resolve_round(self.game, number=1, actor=GAIL)  # a report to read
        _, other = _game(GAME_2, OTTO, {"Cy": CY})
        _, self.vera_game = _game(GAME_3, VERA, {}, start=False)
        self.ada, self.vera = self.game.players
        lobby.set_listing(self.game, open_to_join=True, max_players=None, actor=GAIL)
        otto_asks = lobby.ask_to_join(viewer_for(OTTO), self.game.id, "Otto")
        ada_mail = self.invitation(self.ada)
        self.vera_link = LINK.search(self.invitation(self.vera).body_text).group(1)
        gail_token, _ = accounts.issue_api_token(game_master=gail, label="gail-bot")
        ada_post = board.post(self.game, "Good luck, all!", player=self.ada, channel="web")
        today = utcnow().date()
        ada_away = absence.announce(self.ada, today, today + timedelta(days=5), "a note",
                                    channel="web", entered_by=ADA)
        heartbeat.record_heartbeat(utcnow())
        self.values = {
            "game_id": self.game.id, "player_id": self.ada.id, "number": 1,
            "message_id": ada_mail.id, "token_id": gail_token.id, "ada_id": self.ada.id,
            "ada_feed": feed_token(self.ada), "cy_feed": feed_token(other.players[0]),
            "token": "not-a-sign-in-link", "code": "en", "filename": "style.css",
            "request_id": otto_asks.id, "profile_id": 1, "post_id": ada_post.id,
            "absence_id": ada_away.id,
            "subscription_id": push.subscribe(ADA, push_subscription(), "Ada's phone").id,
        }
        db.session.commit()

    @staticmethod
    def invitation(player: Player) -> OutboxMessage:
        return db.session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "invitation", OutboxMessage.player_id == player.id)).one()

    def browser(self, who: str) -> GmWeb:
        """A new browser for ``who``, signed in by a real link (anon: not at all)."""
        web = GmWeb(self.app, self.app.test_client())
        if who == "inv1":
            # The link of Vera's invitation mail; it is single use, so later browsers
            # get a new link of the same kind, as the GM's "forward" makes.
            token, self.vera_link = self.vera_link, None
            if token is None:
                token = auth.issue_token(VERA, purpose="invitation", player=self.vera)
                db.session.commit()
            page = web.get(f"/signin/{token}").get_data(as_text=True)
            answer = web.open("POST", f"/signin/{token}",
                              data={"csrf_token": CSRF.search(page).group(1)})
            assert answer.headers["Location"] == f"/games/{self.game.id}", answer.status
        elif who != "anon":
            web.sign_in(EMAIL[who])
        return web


@pytest.fixture
def world(app) -> World:
    return World(app)


def forbidden_words(who: str, world: World) -> set[str]:
    """Names of games ``who`` has no part in, and the addresses of their players."""
    words = set()
    for game in db.session.scalars(select(Game)):
        if game.name not in MEMBER_OF[who]:
            # An open game's name (never its players) is shown to everyone signed in by a
            # link of their own.
            listed = game.open_to_join and who not in ("anon", "inv1")
            words |= (set() if listed else {game.name}) | {p.email for p in game.players}
    return words - {EMAIL.get(who)}


def test_every_web_route_has_a_row_and_every_row_a_route(app):
    tabled = {parse_key(key)[:2] for key in TABLE}
    served = served_routes(app)
    assert not served - tabled, f"routes without a row in TABLE: {sorted(served - tabled)}"
    assert not tabled - served, f"rows for routes that do not exist: {sorted(tabled - served)}"
    for key in (*FORMS, *CHANGES, *ENDS_SESSION):
        assert key in TABLE, key
    for key, row in TABLE.items():
        assert len(row.split()) == len(WHO), key


def test_every_identity_gets_what_the_table_says_on_every_web_route(world):
    browsers = {who: world.browser(who) for who in WHO}
    words = {who: forbidden_words(who, world) for who in WHO}
    mismatches: list[str] = []

    # The state after one unchanging call is the state before the next: taken once.
    last: list[tuple | None] = [None]

    def attempt(key: str, who: str, web: GmWeb, check_unchanged: bool) -> None:
        method, rule, query = parse_key(key)
        data = {k: v.format(**world.values) for k, v in FORMS.get(key, {}).items()}
        before = (last[0] or snapshot()) if check_unchanged else None
        last[0] = None  # until this call is known to have changed nothing
        try:
            url = fill(rule, world.values) + ("?" + query.format(**world.values) if query
                                              else "")
            response = web.post(url, data) if method == "POST" else web.open(method, url)
        except Exception as exc:  # noqa: BLE001 - listed with the rest
            mismatches.append(f"{who:4} {key}: raised {exc!r}")
            return
        expected = TABLE[key].split()[WHO.index(who)]
        got = answer_class(response)
        if got != expected:
            mismatches.append(f"{who:4} {key}: expected {expected}, got {got} "
                              f"({response.status_code} {response.headers.get('Location', '')})")
        body = html.unescape(response.get_data(as_text=True))
        response.close()
        # Ada's feed token stands in for Ada: whoever brings it reads what she may.
        leaked = sorted(w for w in words["p1" if "{ada_feed}" in key else who] if w in body)
        if leaked:
            mismatches.append(f"{who:4} {key}: the answer names {leaked}")
        if check_unchanged:
            after = snapshot()
            if after != before:
                mismatches.append(f"{who:4} {key}: changed something ({got})")
            last[0] = after

    for key in TABLE:
        if key in ENDS_SESSION:
            continue
        for who in WHO:
            if CHANGES.get(key) != who:
                attempt(key, who, browsers[who], check_unchanged=True)
    for key, who in CHANGES.items():
        attempt(key, who, browsers[who], check_unchanged=False)
    for key in ENDS_SESSION:
        for who in WHO:
            web = world.browser(who)  # signing in may write: the state is taken afresh
            last[0] = None
            attempt(key, who, web, check_unchanged=True)
    assert not mismatches, f"{len(mismatches)} answers differ from TABLE:\n" + "\n".join(
        mismatches)


def test_an_invitation_session_has_no_gm_role_even_where_its_address_is_the_gm(world):
    """Vera runs Garnet Hall; come in by her invitation to game 1, she is only its player."""
    own_game = world.vera_game.id
    invited, signed_in = world.browser("inv1"), GmWeb(world.app, world.app.test_client())
    signed_in.sign_in(VERA)
    for path in ("/gm/", "/gm/tokens", f"/gm/games/{own_game}", f"/gm/games/{own_game}/audit",
                 f"/games/{own_game}", "/"):
        answer = invited.get(path)
        assert answer.status_code in ((200,) if path == "/" else (403, 404)), path
        assert GAME_3 not in html.unescape(answer.get_data(as_text=True)), path
    # The same address signed in by a link it asked for itself is the GM of Garnet Hall.
    assert signed_in.get(f"/gm/games/{own_game}").status_code == 200
    assert GAME_3 in signed_in.get("/gm/").get_data(as_text=True)
