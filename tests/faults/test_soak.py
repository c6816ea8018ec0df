"""Soak: two app servers and two schedulers on one PostgreSQL database, many rounds.

Three games of four players and six rounds run at once against real processes:
gunicorn (2 workers) and ``vpsleuth serve --no-scheduler`` serve the JSON API,
two ``vpsleuth scheduler`` processes resolve rounds and send mail to an SMTP
sink. Every player sends three whole turns a round (DROP ALL, a question,
tips) through both servers in turn. Two games resolve early once everyone has
a turn in, the third when the test moves its deadline into the past: either
way later turns of the round race its resolution. Afterwards: every round was
resolved once, every API call stored exactly one version, the last accepted
turn of each player is the one that was scored, and each mail went out once.
All loops are bounded in count and time; every process is stopped at the end.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from process_support import all_sent
from smtp_sink import DATABASES, REPLY_ADDRESS, free_port
from sqlalchemy import create_engine, func, select, text

import vpsleuth
from vpsleuth.extensions import db
from vpsleuth.models import (
    AuditEntry,
    Game,
    OutboxMessage,
    Player,
    Round,
    RoundResult,
    StandingQuestion,
    TurnVersion,
)
from vpsleuth.orders import parse_turn
from vpsleuth.rules import ATTRIBUTES, GEMS, LOCATIONS, PLACEHOLDERS, Distribution, Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import accounts, games, turns

ROOT = Path(vpsleuth.__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GAMES, PLAYERS, ROUNDS, TRIES = 3, 4, 6, 3
DEADLINE_GAME = 2  # resolved at its deadline; the others resolve early
LIMIT = 150  # seconds any one wait may take


@dataclass(frozen=True)
class Sent:
    """One turn sent through the API, and what the server answered."""

    game: int
    player: int
    round: int
    attempt: int
    text: str
    status: int
    code: str | None
    version: int | None


def env_for(url: str, sink_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPSLEUTH_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update({f"VPSLEUTH_{k}": str(v) for k, v in {
        "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "soak-test", "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": sink_port, "REPLY_ADDRESS": REPLY_ADDRESS,
        "MAIL_DEFAULT_SENDER": f"VP-Sleuth <{REPLY_ADDRESS}>", "MAIL_TIMEOUT": 10,
        "SCHEDULER_TICK_SECONDS": "0.2", "BASE_URL": "https://sleuth.test"}.items()})
    return env


def spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(args, env=env, cwd=log.parent, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop(process: subprocess.Popen) -> int:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(timeout=30)


def wait_until(condition, what: str, seconds: float = LIMIT, pause: float = 0.2) -> None:
    limit = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > limit:
            raise AssertionError(f"gave up waiting for {what} after {seconds} s")
        time.sleep(pause)


def call(base: str, method: str, path: str, token: str, body: dict | None = None):
    """(status, JSON) of one API request; a refused connection is a failure."""
    request = urllib.request.Request(
        f"{base}/api/v1{path}", method=method, data=json.dumps(body).encode() if body else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def whole_turn(rng: random.Random) -> str:
    """A turn that replaces everything standing: DROP ALL, a question, 1-12 tips."""
    question = f"QUESTION {rng.choice(PLACEHOLDERS)} {rng.choice(ATTRIBUTES).word('en')}"
    tips = ", ".join(f"{rng.choice(LOCATIONS)} {g.code}"
                     for g in rng.sample(GEMS, rng.randint(1, 12)))
    return f"DROP ALL\n{question}\nTIP {tips}"


class Table:
    """The players' and the clock's shared notes: what was sent, which rounds are open."""

    def __init__(self, servers: list[str]) -> None:
        self.servers, self.sent, self.lock = servers, [], threading.Lock()
        self.errors: list[BaseException] = []

    def add(self, sent: Sent) -> None:
        with self.lock:
            self.sent.append(sent)

    def accepted(self, game: int, number: int) -> set[int]:
        with self.lock:
            return {s.player for s in self.sent
                    if (s.game, s.round, s.status) == (game, number, 200)}


def play(table: Table, game: int, player: int, token: str, seat: int) -> None:
    """One player: each round, wait for it to open, then send TRIES whole turns."""
    rng = random.Random(player)
    for number in range(1, ROUNDS + 1):
        def opened(number: int = number) -> bool:
            status, body = call(table.servers[seat % 2], "GET", f"/games/{game}/turn", token)
            assert status in (200, 409), body
            return status == 409 or body["round"] >= number  # 409: the game has ended
        wait_until(opened, f"round {number} of game {game}", pause=0.25)
        for attempt in range(TRIES):
            turn, base = whole_turn(rng), table.servers[(seat + attempt) % 2]
            status, body = call(base, "PUT", f"/games/{game}/turn", token,
                                {"text": turn, "round": number})
            table.add(Sent(game, player, number, attempt, turn, status,
                           body.get("error", {}).get("code"), body.get("version", {}).get("id")))
            time.sleep(rng.uniform(0, 0.15))


def clock(table: Table, game: int, url: str) -> None:
    """Moves each round's deadline into the past once every player has a turn in."""
    engine = create_engine(url)
    try:
        for number in range(1, ROUNDS + 1):
            wait_until(lambda n=number: len(table.accepted(game, n)) == PLAYERS,
                       f"every player's turn in round {number}")
            with engine.begin() as conn:
                conn.execute(text("UPDATE round SET deadline = now() - interval '1 second' "
                                  "WHERE game_id = :g AND number = :n AND state = 'open'"),
                             {"g": game, "n": number})
    finally:
        engine.dispose()


def guarded(table: Table, target, *args) -> threading.Thread:
    def run() -> None:
        try:
            target(table, *args)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            table.errors.append(exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def count(model, *where) -> int:
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


@pytest.mark.parametrize("app", [d for d in DATABASES if d == "postgresql"], indirect=True)
def test_two_servers_and_two_schedulers_lose_no_turn_and_resolve_and_mail_everything_once(
        app, sink, tmp_path):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    tokens, ids = {}, []
    for g in range(GAMES):
        game = games.create_game(f"Soak {g}", weekly("2999-01-10 20:00", "UTC"),
                                 Ruleset(rounds=ROUNDS, early_resolution=g != DEADLINE_GAME))
        for p in range(PLAYERS):
            player = games.add_player(game, f"P{p}", f"p{p}.g{g}@example.org")
            tokens[player.id] = accounts.issue_api_token(player=player)[1]
        games.start_game(game, seed=g)
        ids.append(game.id)
    env, ports = env_for(url, sink.port), (free_port(), free_port())
    commands = {
        "gunicorn": [str(BIN / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{ports[0]}",
                     "vpsleuth.wsgi:app"],
        "serve": [str(BIN / "vpsleuth"), "serve", "--no-scheduler", "--port", str(ports[1])],
        "scheduler1": [str(BIN / "vpsleuth"), "scheduler"],
        "scheduler2": [str(BIN / "vpsleuth"), "scheduler"],
    }
    processes: dict[str, subprocess.Popen] = {}
    table = Table([f"http://127.0.0.1:{port}" for port in ports])
    try:
        for name, args in commands.items():
            processes[name] = spawn(args, env, tmp_path / f"{name}.log")
        def serving() -> bool:
            assert all(p.poll() is None for p in processes.values()), "a process died"
            try:
                return all(call(base, "GET", "/openapi.json", "-")[0] == 200
                           for base in table.servers)
            except OSError:
                return False
        wait_until(serving, "both app servers to answer", seconds=60)
        threads = [guarded(table, play, game_id, player.id, tokens[player.id], seat)
                   for game_id in ids
                   for seat, player in enumerate(db.session.get(Game, game_id).players)]
        threads.append(guarded(table, clock, ids[DEADLINE_GAME], url))
        limit = time.monotonic() + LIMIT
        for thread in threads:
            thread.join(timeout=max(0.0, limit - time.monotonic()))
        assert table.errors == [] and not any(t.is_alive() for t in threads), table.errors
        wait_until(all_sent, "the games to end and every mail to be sent")
        time.sleep(1)  # a few more ticks of both schedulers: nothing more may happen
        assert [p.poll() for p in processes.values()] == [None] * 4
    finally:
        codes = {name: stop(p) for name, p in processes.items()}
    logs = {name: (tmp_path / f"{name}.log").read_text() for name in processes}
    assert codes == dict.fromkeys(processes, 0), logs
    assert not [name for name, log in logs.items() if "Traceback" in log], logs
    db.session.rollback()
    check_rounds(ids)
    check_turns(table.sent)
    check_mail(sink)


def check_rounds(ids: list[int]) -> None:
    """Every game ended after its last round; every round was resolved exactly once."""
    assert count(Round) == count(Round, Round.state == "resolved") == GAMES * ROUNDS
    assert count(RoundResult) == GAMES * ROUNDS * PLAYERS
    resolved = Counter((e.game_id, json.loads(e.detail)["round"]) for e in db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "resolve_round")))
    assert resolved == {(g, n): 1 for g in ids for n in range(1, ROUNDS + 1)}
    assert count(StandingQuestion, StandingQuestion.answer.is_(None)) == 0


def check_turns(sent: list[Sent]) -> None:
    """One version per call; the last accepted turn stands and is what was scored."""
    assert len(sent) == GAMES * PLAYERS * ROUNDS * TRIES
    assert {(s.status, s.code) for s in sent} <= {(200, None), (409, "round_closed")}
    assert all(s.status == 200 for s in sent if s.attempt == 0)  # the round waits for it
    api = db.session.scalars(select(TurnVersion).where(TurnVersion.channel == "api")).all()
    assert len(api) == len(sent)
    by_id = {v.id: v for v in api}
    accepted = [s for s in sent if s.status == 200]
    assert sorted(by_id[s.version].status for s in accepted) == ["accepted"] * len(accepted)
    assert all((by_id[s.version].text, by_id[s.version].player_id) == (s.text, s.player)
               for s in accepted)
    assert sum(v.status == "refused" for v in api) == len(sent) - len(accepted)
    last = {(s.player, s.round): s for s in accepted}  # the order each player sent them in
    for (player_id, number), s in last.items():
        game = db.session.get(Game, s.game)
        round_, change = game.round(number), parse_turn(s.text).change
        standing = turns.standing_turn(round_, db.session.get(Player, player_id))
        assert (standing.question, dict(standing.tips)) == (change.question, change.tips)
        result = db.session.scalars(select(RoundResult).where(
            RoundResult.round_id == round_.id, RoundResult.player_id == player_id)).one()
        where = Distribution.from_canonical(game.secret.distribution)
        right = sum(where[gem] == location for gem, location in change.tips.items())
        assert (result.tips, result.correct) == (len(change.tips), right), \
            f"round {number} of {game.name} was scored without the last turn of {player_id}"


def check_mail(sink) -> None:
    """Each outbox row was sent, and the sink received each Message-ID exactly once."""
    rows = db.session.scalars(select(OutboxMessage)).all()
    received = Counter(sink.message_ids())
    assert set(received.values()) == {1}
    assert set(received) == {r.message_id for r in rows} and len(received) == len(rows)
