"""Every page read in German or Spanish keeps no English sentence.

Each GET page (players', the GM's, the lobby, sign-in, settings, reports, the
sheet, the turn form, feeds and the calendar) is rendered in English and in
de/es by the same viewer. The visible text segments of the English rendering
(text nodes and the attributes a reader meets: title, aria-label, placeholder,
data-confirm) that have at least two words are looked up among the segments of
the other rendering: one found there is English left over. Names, addresses,
codes and numbers are no sentences and drop out: a segment with no space
(a time zone, a hash), one that looks like stored data (JSON, a repr, a key
with an underscore), one of names only, one naming the game (a page title, a mail subject in the
outbox: mails keep the language they were written in) and ALLOWED below.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from conftest import GM_EMAIL, GM_PLAYERS

from vpsleuth.extensions import db
from vpsleuth.services import games, lobby, resolution, stories, turns
from vpsleuth.web.feeds import feed_token

# The same in every language: the brand, and words of the turn language that
# the pages quote as typed (English keywords keep working for every player).
ALLOWED = {"VP-Sleuth", "Authorization: Bearer"}
GAME = "Emerald"
NAMES = re.compile(r"VP-Sleuth|Ada|Bob|Grace")  # the brand, the players, the GM
DATA = re.compile(r"[_{}=]")
SHOWN = ("title", "aria-label", "placeholder", "data-confirm", "alt")
WORD = re.compile(r"[^\W\d_]{2,}")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.segments: set[str] = set()
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "pre", "code", "textarea"):
            self._skip += 1
        for name, value in attrs:
            if name in SHOWN and value:
                self._add(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "pre", "code", "textarea") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.segments.add(text)


def segments(body: str, mimetype: str) -> set[str]:
    """The visible texts of a page (or the summaries and notes of a calendar)."""
    if mimetype == "text/calendar":
        found = re.findall(r"^(?:SUMMARY|DESCRIPTION):(.*)$", body.replace("\r\n ", ""), re.M)
        return {" ".join(re.sub(r"https?://\S+", "", f).split()) for f in found}
    parser = _Text()
    parser.feed(body)
    return parser.segments


def sentences(found: set[str]) -> set[str]:
    """Segments that are sentences: two words or more, no address or link, not allowed."""
    return {s for s in found if len(WORD.findall(NAMES.sub("", s))) >= 2 and " " in s
            and "@" not in s and "://" not in s and not DATA.search(s) and GAME not in s
            and s not in ALLOWED}


def leftovers(get, path: str, lang: str, player=None) -> set[str]:
    """The English sentences of ``path`` that the ``lang`` rendering still shows.

    Feeds and the calendar have no session: they follow ``player``'s own setting."""
    rendered = {}
    for code in ("en", lang):
        get("/lang/" + code)
        if player is not None:
            player.language = code
            db.session.commit()
        response = get(path)
        assert response.status_code == 200, (path, response.status_code)
        rendered[code] = segments(response.get_data(as_text=True), response.mimetype)
    assert rendered["en"] != rendered[lang], path  # the page did change language
    return sentences(rendered["en"]) & rendered[lang]


def report(found: dict[str, set[str]]) -> str:
    return "English left over:\n" + "\n".join(
        f"{path}: {sorted(left)}" for path, left in found.items() if left)


@pytest.fixture
def played(gm_running_game):
    """The GM's "Emerald" after round 1 (Ada asked and tipped, Bob sent nothing);
    Ada's turn for round 2 is in; the game is listed as open to join."""
    ada = games.find_player(gm_running_game, "Ada")
    turns.submit_turn(ada, "QUESTION E blue opal\nTIP A RD1, BP2", channel="web")
    resolution.resolve_round(gm_running_game)
    turns.submit_turn(ada, "TIP A RD1", channel="email")
    lobby.set_listing(gm_running_game, open_to_join=True, max_players=5, actor=GM_EMAIL)
    stories.request(gm_running_game)  # the GM's story of round 1, told as the job does
    db.session.commit()
    stories.tell_queued()
    return gm_running_game


def player_pages(game) -> list[str]:
    ada = games.find_player(game, "Ada")
    base = f"/games/{game.id}"
    token = feed_token(ada)
    return ["/", "/settings", "/games/open", f"/games/open/{game.id}", "/practice", base,
            base + "/turn", base + "/sheet", base + "/rounds", base + "/rounds/1",
            base + "/standings",
            f"{base}/feed.atom?token={token}", f"{base}/calendar.ics?token={token}"]


def gm_pages(game) -> list[str]:
    base = f"/gm/games/{game.id}"
    return ["/gm/", "/gm/games/new", base, base + "/board", base + "/turn",
            base + "/distribution", base + "/audit", "/gm/outbox", "/gm/tokens",
            "/games/open", f"/games/{game.id}/story"]  # the GM reads the story at any time


@pytest.mark.parametrize("lang", ["de", "es"])
def test_a_players_pages_keep_no_english_sentence(played, signed_in, lang):
    ada = signed_in(GM_PLAYERS["Ada"])
    player = games.find_player(played, "Ada")
    found = {path: leftovers(ada.get, path, lang, player) for path in player_pages(played)}
    assert not any(found.values()), report(found)


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_game_masters_pages_keep_no_english_sentence(played, gm_web, lang):
    found = {path: leftovers(gm_web.get, path, lang) for path in gm_pages(played)}
    assert not any(found.values()), report(found)


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_signed_out_pages_keep_no_english_sentence(client, lang):
    found = {path: leftovers(client.get, path, lang) for path in ("/signin",)}
    assert not any(found.values()), report(found)


def test_the_gm_reads_the_board_in_spanish(played, gm_web):
    gm_web.get("/lang/es")
    board = gm_web.get(f"/gm/games/{played.id}/board").get_data(as_text=True)
    assert "Panel de estado" in board and "quedan " in board
    assert GM_EMAIL not in board or "Cerrar sesión" in board
