"""What each costly request path costs one process, to decide which to limit (issue 24, 1).

Through the real app and its test client on SQLite (a fresh database made by
the migrations), signed in by a link as a player is: a practice game created
and played to the end (each turn resolves the round and lets the bots play),
its story (asked for, told by the job, read as stored), the information sheet
with the deduction aid on, notebook saves, the exports (feed, calendar, a
report as text, the API's story). Prints CPU milliseconds per request
(median and max of the runs) beside the cheapest page, /healthz.

    .venv/bin/python bench/request_costs.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vpsleuth import create_app  # noqa: E402
from vpsleuth.extensions import db  # noqa: E402
from vpsleuth.models import Game  # noqa: E402
from vpsleuth.services import auth, stories, story  # noqa: E402

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
EMAIL = "bench@example.org"


class Client(FlaskClient):
    """A request in an app context of its own, as on a server."""

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


def cpu(call) -> tuple[float, object]:
    start = time.process_time()
    result = call()
    return (time.process_time() - start) * 1000, result


def sign_in(app) -> Client:
    app.test_client_class = Client
    client = app.test_client()
    with app.app_context():
        token = auth.issue_token(EMAIL)
        db.session.commit()
    page = client.get(f"/signin/{token}").get_data(as_text=True)
    client.post(f"/signin/{token}", data={"csrf_token": CSRF.search(page).group(1)})
    return client


def token_of(client, path: str) -> str:
    return CSRF.search(client.get(path).get_data(as_text=True)).group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="practice games played (default 3)")
    parser.add_argument("--level", default="medium", help="the bots' level (default medium)")
    parser.add_argument("--tell", action="store_true",
                        help="let the job tell each whole story and time it (minutes on "
                             "practice records); else the stored story is rounds 1-4's")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="vpsleuth-costs-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/costs.db",
                      "PRACTICE_PER_HOUR": 10_000, "COSTLY_PER_MINUTE": 10_000})
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
    client = sign_in(app)
    costs: dict[str, list[float]] = {}

    def measure(name: str, call):
        spent, response = cpu(call)
        costs.setdefault(name, []).append(spent)
        return response

    for _ in range(args.runs):
        token = token_of(client, "/practice")
        response = measure("POST /practice (deal, bots' first turns)", lambda t=token: client.post(
            "/practice", data={"csrf_token": t, "bots": "3", "level": args.level, "name": "Me"}))
        game_id = int(re.search(r"/games/(\d+)/", response.headers["Location"]).group(1))
        base = f"/games/{game_id}"
        for number in range(1, 13):
            page = client.get(base + "/turn").get_data(as_text=True)
            token = CSRF.search(page).group(1)
            posted = re.search(r'name="round" value="(\d+)"', page).group(1)
            what = ("red", "blue", "pearl", "opal")[number % 4]
            text = f"QUESTION {'ABCDEFG'[number % 7]} {what}"
            response = measure("POST /games/N/turn, practice (resolve, bots play)",
                               lambda t=token, r=posted, x=text, b=base: client.post(
                                   b + "/turn", data={"csrf_token": t, "round": r,
                                                      "action": "text", "text": x}))
            assert response.status_code in (200, 302, 303), response.status_code
            with app.app_context():
                if db.session.get(Game, game_id).state == "finished":
                    break
        measure("GET /games/N/story, not told yet (asks for it)",
                lambda b=base: client.get(b + "/story"))
        with app.app_context():
            if args.tell:
                spent, _ = cpu(stories.tell_queued)
                costs.setdefault("(job) tell-stories: the practice game's story",
                                 []).append(spent)
            else:  # the job's minutes on a practice record are the engine's (issue 25)
                row = stories.find(db.session.get(Game, game_id))
                row.state, row.data = "ready", json.dumps(story.tell(
                    db.session.get(Game, game_id), with_tips=True, after_round=4))
                db.session.commit()
        response = measure("GET /games/N/story, stored", lambda b=base: client.get(b + "/story"))
        assert response.status_code == 200, response.status_code
        measure("GET /api/v1/games/N/story (session-less: 401)",
                lambda b=base: client.get(f"/api/v1{b}/story"))
        measure("GET /games/N/sheet", lambda b=base: client.get(b + "/sheet"))
        token = token_of(client, base + "/sheet")
        for _ in range(5):
            measure("POST /games/N/notebook", lambda t=token, b=base: client.post(
                b + "/notebook", data={"csrf_token": t, "notes": "x" * 2000}))
        measure("GET /games/N/rounds/12.txt", lambda b=base: client.get(b + "/rounds/12.txt"))
        measure("GET /games/N/rounds/12", lambda b=base: client.get(b + "/rounds/12"))
        for _ in range(5):
            measure("GET /healthz", lambda: client.get("/healthz"))
    print(f"CPU per request, one process, SQLite; {args.runs} practice games of 3 {args.level} "
          "bots")
    print(f"{'path':58} {'median ms':>10} {'max ms':>9} {'n':>4}")
    for name, spent in costs.items():
        print(f"{name:58} {statistics.median(spent):10.1f} {max(spent):9.1f} {len(spent):4}")


if __name__ == "__main__":
    main()
