"""One signed-in account cannot stall the server for everyone else (issue 24, 1).

Through real HTTP against ``vpsleuth serve`` (waitress, four threads, the
scheduler beside it): two accounts with two finished practice games each,
and a running one. Eight concurrent costly requests by one account (stories
of finished games and practice turns) while another client reads /healthz
and a page: those answer within 0.5 s; each story was computed once, by the
job, never in a request; what is over the account's limits is refused with
429 at once, never a 500.
"""

from __future__ import annotations

import http.cookiejar
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from process_support import environment, start, stop
from smtp_sink import free_port
from sqlalchemy import select

from vpsleuth import create_app
from vpsleuth.extensions import db
from vpsleuth.models import Game, GameStory
from vpsleuth.services import auth, practice, stories, turns

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ADA, BEN = "ada@example.org", "ben@example.org"


def finished_practice(email: str, seed: int) -> int:
    game = practice.create_practice(email, name="Me", bots=2, level="easy", rounds=2, seed=seed)
    human = practice.human_of(game)
    for letter in "AB":
        turns.submit_turn(human, f"QUESTION {letter} red\nTIP {letter} RD1", channel="web")
    assert game.state == "finished"
    return game.id


class Browser:
    """A client with cookies, signed in by a link as a person is."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str, timeout: float = 60) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def post(self, path: str, fields: dict, timeout: float = 60) -> int:
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=data),
                                  timeout=timeout) as answer:
                return answer.status
        except urllib.error.HTTPError as exc:
            return exc.code

    def sign_in(self, token: str) -> None:
        page = self.get(f"/signin/{token}")[1]
        assert self.post(f"/signin/{token}", {"csrf_token": CSRF.search(page).group(1)}) == 200


def up(client: Browser) -> bool:
    try:
        return client.get("/healthz", timeout=2)[0] == 200
    except (urllib.error.URLError, ConnectionError):
        return False


@pytest.mark.alone  # it times the other client's answers: no other test may take the cores
def test_eight_costly_requests_by_one_account_leave_the_server_to_everyone_else(tmp_path):
    url = f"sqlite:///{tmp_path / 'stall.db'}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "stall-test"})
    with app.app_context():
        from flask_migrate import upgrade  # the schema, as `vpsleuth db upgrade` makes it

        upgrade()
        ended = [finished_practice(ADA, 1), finished_practice(ADA, 2),
                 finished_practice(BEN, 3), finished_practice(BEN, 4)]
        running = practice.create_practice(ADA, name="Me", bots=3, level="hard", seed=5).id
        assert sorted(stories.tell_queued()) == sorted(ended)  # the job, after each end
        tokens = {who: auth.issue_token(who) for who in (ADA, BEN)}
        db.session.commit()
        db.engine.dispose()
    port = free_port()
    log = tmp_path / "serve.log"
    env = environment(SQLALCHEMY_DATABASE_URI=url, SECRET_KEY="stall-test")
    server = start(["serve", "--port", str(port)], env | {"PYTHONUNBUFFERED": "1"}, log)
    base = f"http://127.0.0.1:{port}"
    try:
        other = Browser(base)
        deadline = time.monotonic() + 60
        while not up(other):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        ada = Browser(base)
        ada.sign_in(tokens[ADA])
        turn_page = ada.get(f"/games/{running}/turn")[1]
        form = {"csrf_token": CSRF.search(turn_page).group(1), "action": "text",
                "round": re.search(r'name="round" value="(\d+)"', turn_page).group(1),
                "text": "QUESTION C blue"}
        # Ada reads stories of games she is not in (404) and her own, and sends turns.
        work = [lambda g=g: ada.get(f"/games/{g}/story")[0] for g in ended] + \
               [lambda: ada.post(f"/games/{running}/turn", form)] * 4
        answers: list[int] = []
        spent: list[float] = []

        def costly(job) -> None:
            answers.append(job())

        def watch(stop_at: float) -> None:
            while time.monotonic() < stop_at:
                for path in ("/healthz", "/rules"):
                    began = time.monotonic()
                    status, _ = other.get(path, timeout=10)
                    spent.append(time.monotonic() - began)
                    assert status == 200
                time.sleep(0.02)

        threads = [threading.Thread(target=costly, args=(job,)) for job in work]
        watcher = threading.Thread(target=watch, args=(time.monotonic() + 6,))
        watcher.start()
        for thread in threads:
            thread.start()
        for thread in threads + [watcher]:
            thread.join(timeout=120)
            assert not thread.is_alive()
        # Everything answered: the story (stored), a 404 for another's game, a saved
        # turn (303 to the round it resolved), or 429 at once past the account's limits.
        assert len(answers) == 8 and set(answers) <= {200, 303, 404, 429}, answers
        assert answers.count(429) >= 1, answers  # two at a time: the rest are refused
        assert len(spent) >= 20 and max(spent) < 0.5, sorted(spent)[-5:]
    finally:
        code = stop(server)
    assert code == 0, log.read_text()
    assert "Traceback" not in log.read_text()
    with app.app_context():
        rows = db.session.scalars(select(GameStory).where(GameStory.game_id.in_(ended))).all()
        # One story per game, told by the job once after the game ended; no request told
        # it again.
        assert sorted(r.game_id for r in rows) == sorted(ended)
        assert all(r.state == "ready" and r.attempts == 1 for r in rows)
        assert db.session.get(Game, running).state == "running"
        db.engine.dispose()
