"""axe-core on every page: 360 and 1280 px, English, German and Spanish, light and dark.

Every GET route of the web app that answers with a page is visited, as the
person it is for (a visitor, a player, the game master), together with the
error pages and a few states a page only shows after an action (a form sent
back with errors, "check your mail"). A new route is walked without a new
line here as long as its path parameters are among ``World.values``. The test
fails on any serious or critical WCAG 2.0-2.2 A/AA violation (2.2's
``wcag22aa`` tag brings the 24 px target size of 2.5.8) and prints the counts
per page, ``serious+critical/all`` failing elements (tests/conftest.py prints them
at the end of the run).

One browser; one context per identity, language and colour scheme, reused for
every page and both widths, so the run stays short.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from axe_support import FAILING, Findings, axe_version, check, preload
from browser_support import chromium, live_sqlite
from sqlalchemy import select

from vpsleuth import ROOT
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import (
    accounts,
    archive,
    auth,
    games,
    lobby,
    resolution,
    stories,
    turns,
    unsubscribe,
)
from vpsleuth.services.access import viewer_for

pytestmark = pytest.mark.walk  # one long walk: handed out early (tests/conftest.py)

WIDTHS = {"360": {"width": 360, "height": 800}, "1280": {"width": 1280, "height": 900}}
LANGUAGES = ("en", "de", "es")
GM, ADA = "gail@example.org", "ada@example.org"
PLAYERS = {"Ada": ADA, "Ben": "ben@example.org", "Cleo": "cleo@example.org"}
# Answers that are not pages: feeds, plain text, files, health, redirects.
NOT_PAGES = {"/static/<path:filename>", "/healthz", "/lang/<code>",
             "/games/<int:game_id>/feed.atom", "/games/<int:game_id>/calendar.ics",
             "/games/<int:game_id>/rounds/<int:number>.txt",
             "/games/<int:game_id>/story/state",
             "/settings/export",  # a JSON file to download, not a page
             "/manifest.webmanifest", "/sw.js"}  # the installable app's JSON and script


def schemes(lang: str) -> tuple[str, ...]:
    """Light always; dark too once the stylesheet has a dark theme, in English only.

    Colours do not change with the language, and the German and Spanish pages' own
    layout (longer words, wider tables) is checked in light: a dark round of each
    would add a third to the run time and find nothing the English one does not.
    """
    css = (ROOT / "vpsleuth" / "static" / "style.css").read_text()
    dark = "prefers-color-scheme: dark" in css and lang == "en"
    return ("light", "dark") if dark else ("light",)


def local(days: float) -> str:
    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d %H:%M")


class World:
    """Gail runs a running game (round 1 resolved, round 2 open), an ended game and one
    in setup; Ada plays in the first two. Values fill the routes' path parameters."""

    def __init__(self) -> None:
        gail = accounts.create_game_master(GM, "Gail")
        self.running = self._game("Opal Court", gail, Ruleset())
        ada, ben, cleo = self.running.players
        turns.submit_turn(ada, "QUESTION E yellow\nTIP A YD1, YP2, RD1\nTIP X YO3",
                          channel="web")
        turns.submit_turn(ben, "QUESTION B blue opal\nTIP C GP2", channel="web")
        resolution.resolve_round(self.running, number=1)
        turns.submit_turn(ada, "QUESTION D green pearl\nREPEAT\nTIP B YO1", channel="web")
        self.ended = self._game("Jet Hall", gail, Ruleset(rounds=1, first_bonus_round=1))
        turns.submit_turn(self.ended.players[0], "QUESTION A diamond\nTIP A YD1",
                          channel="web")
        resolution.resolve_round(self.ended, number=1)
        stories.tell_queued()  # the ended game's story, told as the job does after the end
        self.setup = self._game("Quartz Row", gail, Ruleset(), start=False)
        # Open games: Opal Court with a request waiting, Beryl Gate for Ada to ask to join.
        lobby.set_listing(self.running, open_to_join=True, max_players=6)
        lobby.ask_to_join(viewer_for("dan@example.org"), self.running.id, "Dan",
                          "Evenings only, please.\nI play by mail.")
        self.beryl = self._game("Beryl Gate", gail, Ruleset(),
                                players={"Ben": PLAYERS["Ben"], "Cleo": PLAYERS["Cleo"]})
        lobby.set_listing(self.beryl, open_to_join=True, max_players=4)
        mail = db.session.scalars(select(OutboxMessage).where(
            OutboxMessage.game_id == self.running.id).order_by(OutboxMessage.id)).first()
        token, _ = accounts.issue_api_token(game_master=gail, label="sheet")
        archive.set_public(self.ended, True, actor=GM)  # the archive shows it (issue 22)
        # One-click unsubscribe links (issue 21): Ben's only asked, Cleo's pressed.
        self.unsubscribe_ask = unsubscribe.token(ben, "round")
        self.unsubscribe_done = unsubscribe.token(cleo, "reminder")
        self.values = {"game_id": self.running.id, "number": 1, "message_id": mail.id,
                       "token_id": token.id, "token": "not-a-link", "player_id": ada.id,
                       "profile_id": 1}
        db.session.commit()

    @staticmethod
    def _game(name, gail, rules, start=True, players=PLAYERS):
        game = games.create_game(name, weekly(local(3), "Europe/Berlin"), rules, actor=GM,
                                 game_master_id=gail.id)
        for player, email in players.items():
            games.add_player(game, player, email, actor=GM)
        if start:
            games.start_game(game, seed=3, actor=GM)
        return game


@dataclass(frozen=True)
class Visit:
    """One page: a name for the table, who looks, the path, and what to do there first."""

    name: str
    who: str  # anon, player, gm
    path: str
    then: Callable | None = None


def who_for(rule: str) -> str:
    if rule.startswith("/gm"):
        return "gm"
    if rule.startswith(("/games", "/settings")) and "<token>" not in rule:
        return "player"
    return "anon"


def fill(rule: str, values: dict) -> str:
    def value(match: re.Match) -> str:
        assert match.group(1) in values, (
            f"no value for the path parameter {match.group(1)!r} of {rule}: add one to "
            "World.values in tests/web/test_accessibility.py")
        return str(values[match.group(1)])
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", value, rule)


def submit(selector: str, fields: dict[str, str] | None = None) -> Callable:
    def act(page) -> None:
        for target, value in (fields or {}).items():
            page.fill(target, value)
        page.click(selector)
        page.wait_for_load_state()
    return act


def visits(app, world: World) -> list[Visit]:
    """Every GET page of the app, then the states and error pages no route names."""
    found = []
    for rule in sorted({r.rule for r in app.url_map.iter_rules() if "GET" in r.methods}):
        if rule.startswith("/api/") or rule in NOT_PAGES:
            continue
        found.append(Visit(rule, who_for(rule), fill(rule, world.values)))
    ended, setup = world.ended.id, world.setup.id
    found += [
        Visit("final report", "player", f"/games/{ended}/rounds/1"),
        Visit("verify, ended", "player", f"/games/{ended}/verify"),
        Visit("the game told afterwards, ended", "player", f"/games/{ended}/story"),
        # The running game's story is asked for on the GM's first look: being worked out.
        Visit("the game told afterwards, being told", "gm", f"/games/{world.running.id}/story"),
        Visit("players' view, GM", "gm", f"/games/{world.running.id}"),
        Visit("/gm/games/<setup>", "gm", f"/gm/games/{setup}"),
        Visit("/gm/games/<ended>", "gm", f"/gm/games/{ended}"),
        # The settings of a GM: their games' chat webhooks among the ways news reaches them.
        Visit("settings, GM", "gm", "/settings"),
        Visit("new game, refused", "gm", "/gm/games/new", submit("#create-game")),
        Visit("distribution, shown", "gm", f"/gm/games/{world.running.id}/distribution",
              submit("#confirm-distribution")),
        Visit("check your mail", "anon", "/signin",
              submit("form.stack button[type=submit]", {"#email": "nobody@example.org"})),
        Visit("open game, ask to join", "player", f"/games/open/{world.beryl.id}"),
        Visit("open game, request refused", "player", f"/games/open/{world.beryl.id}",
              submit("#send-join-request", {"#join-name": "Ben"})),
        Visit("unsubscribe, asking", "anon", f"/unsubscribe/{world.unsubscribe_ask}"),
        # Pressed at the first look; later looks find it off already (the same page).
        Visit("unsubscribe, done", "anon", f"/unsubscribe/{world.unsubscribe_done}",
              lambda page: page.locator("#unsubscribe").count() and submit("#unsubscribe")(page)),
        Visit("archive, a game", "anon", f"/archive/{ended}"),
        Visit("archive, its story", "anon", f"/archive/{ended}/story"),
        Visit("archive, a round report", "anon", f"/archive/{ended}/rounds/1"),
        Visit("archive, replay", "anon", f"/archive/{ended}/replay/1"),
        Visit("archive, the deal revealed", "anon", f"/archive/{ended}/replay/2"),
        Visit("error 404", "player", "/games/999999"),
        Visit("error 403", "player", "/gm/"),
        Visit("error 404, signed out", "anon", "/no-such-page"),
    ]
    return found


def open_context(browser, base: str, who: str, lang: str, scheme: str):
    context = browser.new_context(viewport=WIDTHS["1280"], color_scheme=scheme)
    preload(context)
    page = context.new_page()
    if who != "anon":
        token = auth.issue_token(GM if who == "gm" else ADA)
        db.session.commit()
        page.goto(f"{base}/signin/{token}")
        page.click("#confirm-sign-in")
        page.wait_for_load_state()
    page.goto(f"{base}/lang/{lang}")
    return context, page


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    with live_sqlite(tmp_path_factory.mktemp("axe")) as served:
        yield served


def test_no_page_has_a_serious_or_critical_accessibility_violation(live):
    app, base = live
    with app.app_context():
        world = World()
        pages = visits(app, world)
        results: dict[tuple[str, str, str, str], Findings] = {}
        with chromium() as browser:
            for who in ("anon", "player", "gm"):
                mine = [v for v in pages if v.who == who]
                for lang in LANGUAGES:
                    for scheme in schemes(lang):
                        context, page = open_context(browser, base, who, lang, scheme)
                        for visit in mine:
                            # Loaded once, at the first width, and looked at in each: a
                            # resize reflows the page as a load would (table-scroll.js
                            # listens for it), at half the loads and form submissions.
                            page.set_viewport_size(next(iter(WIDTHS.values())))
                            page.goto(base + visit.path)
                            if visit.then:
                                visit.then(page)
                            for width, viewport in WIDTHS.items():
                                page.set_viewport_size(viewport)
                                results[visit.name, width, lang, scheme] = check(page)
                        context.close()
            version = axe_version(browser.new_page())
        db.session.remove()
    report = table(pages, results, version)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "accessibility.txt").write_text(report)  # printed at the end
    failures = [f"{name} at {width} px, {lang}, {scheme}: {detail}"
                for (name, width, lang, scheme), found in results.items()
                for detail in found.details]
    assert not failures, (f"{len(failures)} serious or critical violations "
                          f"({'/'.join(FAILING)}):\n" + "\n".join(failures))


def table(pages: list[Visit], results: dict, version: str) -> str:
    """Per page and setting: serious+critical/all failing elements."""
    settings = sorted({key[1:] for key in results}, key=lambda s: (int(s[0]), s[1], s[2]))
    heads = [f"{w} {lang}{' dark' if scheme == 'dark' else ''}" for w, lang, scheme in settings]
    width = max(len(v.name) for v in pages) + 2
    lines = [f"axe-core {version}, WCAG 2.0-2.2 A/AA: "
             "serious+critical/all failing elements per page",
             "page".ljust(width) + "".join(h.rjust(14) for h in heads)]
    for visit in pages:
        cells = [results[(visit.name, *s)].cell() for s in settings]
        lines.append(f"{visit.name:<{width}}" + "".join(c.rjust(14) for c in cells))
    return "\n".join(lines)
