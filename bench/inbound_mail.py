"""Benchmark: replies by mail through the whole inbound pipeline; ours against stdlib parsing.

    .venv/bin/python bench/inbound_mail.py                      # both databases
    .venv/bin/python bench/inbound_mail.py --players 50 --messages 2 --db sqlite --repeat 1

Ours is what the SMTP receiver does with each message: receive(raw, "smtp") in
an app context of its own: store the raw message (committed first), parse the
MIME, check for duplicates, machine mail and the per-sender limit, find the
player by the reply key, strip the quote and signature, find the round from
the mail it answers, apply the turn through submit_turn and queue the
confirmation. The messages are replies to the round mail each player of a
game got, as Gmail, Thunderbird, Outlook and Apple Mail write them
(bench/replies.py), several per player, in rounds (everyone's first reply,
then everyone's second, ...). The baseline parses the same messages with the
standard library alone (message_from_bytes with policy.default, get_body,
get_content): the least any implementation must do, no database at all.
Target: at least 100 messages/s.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import timedelta
from email import message_from_bytes, policy
from typing import NamedTuple

from dbs import after_load, bench_app, bulk_load, server_version, start_afresh, temporary_database
from live_game import live_game, players_of
from replies import STYLES, reply, turn_text
from sqlalchemy import Engine, event, func, select, text
from timing import Figures, load, measure, profile, table

from vpsleuth.extensions import db
from vpsleuth.mail import keys
from vpsleuth.mail.inbound import receive
from vpsleuth.models import InboundMessage, MailBody, OutboxMessage, TurnVersion, utcnow

TARGET = 100.0  # messages per second
KINDS = ("sqlite", "sqlite-normal", "postgresql")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="sqlite,postgresql",
                        help="comma-separated, of: sqlite (as shipped: WAL, "
                             "synchronous=FULL), sqlite-normal (WAL, synchronous=NORMAL: "
                             "no fsync per commit, not shipped, to see what the fsync costs), "
                             "postgresql (default: sqlite,postgresql)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs of each measurement after one warm-up (default: 3)")
    parser.add_argument("--players", type=int, default=200, help="(default: 200)")
    parser.add_argument("--messages", type=int, default=5,
                        help="replies per player (default: 5; at most 20, the default "
                             "INBOUND_PER_SENDER_PER_HOUR, or the rest is ignored)")
    parser.add_argument("--history", type=int, default=20000,
                        help="also measure with this many older mails stored, as after a "
                             "season of several games (default: 20000; 0: skip)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of one run of ours")
    args = parser.parse_args()
    args.db = [k.strip() for k in args.db.split(",") if k.strip()]
    if not args.db or set(args.db) - set(KINDS):
        parser.error(f"--db takes a comma-separated list of {', '.join(KINDS)}")
    if not 1 <= args.messages <= 20:
        parser.error("--messages must be from 1 to 20 (the per-sender limit an hour)")
    return args


class Reply(NamedTuple):
    """One reply sent: the raw message, who sent it and the turn they wrote."""

    raw: bytes
    player_id: int
    sender: str
    turn: str


def build_messages(game, per_player: int, seed: int = 2) -> list[Reply]:
    """Every reply, in sending order; round mails are read as ORM rows (their bodies too)."""
    rng = random.Random(seed)
    mails = {m.player_id: m for m in db.session.scalars(select(OutboxMessage).where(
        OutboxMessage.game_id == game.id, OutboxMessage.kind == "round_opened",
        OutboxMessage.subject.contains(f" {game.open_round.number} ")))}
    players = players_of(game)
    out = []
    for i in range(per_player):
        for player in players:
            mail = mails[player.id]
            turn = turn_text(rng, player.language, first=i == 0)
            raw = reply(STYLES[(player.id + i) % len(STYLES)], len(out),
                        player_name=player.name, player_email=player.email,
                        to=keys.reply_address(player), subject=mail.subject,
                        in_reply_to=mail.message_id, original_text=mail.body_text,
                        original_html=mail.body_html, turn=turn, lang=player.language)
            out.append(Reply(raw, player.id, player.email, turn))
    return out


def _lines(turn: str) -> list[str]:
    return [line.strip() for line in turn.split("\n") if line.strip()]


def check(messages: list[Reply], outbox_mark: int) -> None:
    """Each message applied for its player with exactly the lines written; a confirmation each."""
    rows = db.session.execute(select(InboundMessage.status, InboundMessage.error,
                                     InboundMessage.player_id, TurnVersion.text)
                              .outerjoin(TurnVersion, InboundMessage.turn_version_id
                                         == TurnVersion.id)
                              .order_by(InboundMessage.id)).all()
    if len(rows) != len(messages):
        raise SystemExit(f"{len(rows)} messages stored of {len(messages)} sent")
    for n, (row, sent) in enumerate(zip(rows, messages, strict=True)):
        if row.status != "applied" or row.player_id != sent.player_id:
            raise SystemExit(f"message {n} is {row.status} for player {row.player_id}, not "
                             f"applied for player {sent.player_id}: {row.error}")
        if _lines(row.text) != _lines(sent.turn):
            raise SystemExit(f"message {n}: the pipeline read {row.text!r}, the player wrote "
                             f"{sent.turn!r}")
    confirmations = db.session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.kind == "confirmation", OutboxMessage.id > outbox_mark))
    if confirmations != len(messages):
        raise SystemExit(f"{confirmations} confirmations queued for {len(messages)} turns")


def baseline(messages: list[Reply]) -> int:
    """The stdlib parse of every message and its text; the characters read."""
    size = 0
    for sent in messages:
        msg = message_from_bytes(sent.raw, policy=policy.default)
        body = msg.get_body(preferencelist=("plain", "html"))
        size += len(body.get_content())
    return size


def bench(kind: str, app, args: argparse.Namespace) -> list[tuple[str, ...]]:
    """All measurements on one database; rows for the table."""
    start = time.perf_counter()
    game = live_game("Bench mail", args.players)
    round_id = game.open_round.id
    marks = {"r": round_id, "i": 0,
             **{key: db.session.scalar(select(func.max(column))) or 0
                for key, column in (("o", OutboxMessage.id), ("b", MailBody.id),
                                    ("v", TurnVersion.id))}}
    messages = build_messages(game, args.messages)
    count = len(messages)
    size = sum(len(sent.raw) for sent in messages)
    print(f"[{kind}] {server_version(kind.partition('-')[0])}{journal()}; set up a game of "
          f"{args.players} players and {count} replies ({size / count / 1024:.1f} KiB on "
          f"average) in {time.perf_counter() - start:.1f} s; {load()}", flush=True)

    def forget_replies(conn) -> None:
        """Everything the replies left: their turns, versions, confirmations (and bodies)."""
        for sql in ("DELETE FROM inbound_message WHERE id > :i",
                    "DELETE FROM standing_tip WHERE round_id = :r",
                    "DELETE FROM standing_question WHERE round_id = :r",
                    "DELETE FROM turn_version WHERE id > :v",
                    "DELETE FROM outbox_message WHERE id > :o",
                    "DELETE FROM mail_body WHERE id > :b"):
            conn.execute(text(sql), marks)

    def prepare() -> None:
        start_afresh(kind.partition("-")[0], forget_replies)

    def ours() -> None:
        for sent in messages:
            with app.app_context():
                receive(sent.raw, "smtp")

    prepare()
    ours()
    check(messages, marks["o"])
    print(f"[{kind}] all {count} applied with the lines the players wrote, one confirmation "
          "each", flush=True)
    runs = [measure("ours: receive() per message, no mail stored before", ours, prepare,
                    args.repeat)]
    if args.history:
        prepare()
        marks["i"] = history(messages, args.history)
        runs.append(measure(f"ours, {args.history:,} older mails stored", ours, prepare,
                            args.repeat))
    base = measure("baseline: stdlib parse, get_body, get_content", lambda: baseline(messages),
                   lambda: None, args.repeat)
    if args.profile:
        print(f"[{kind}] profile of ours:\n{profile(ours, prepare)}")
    prepare()
    print(f"[{kind}] done; {load()}", flush=True)
    rows = [_row(kind, f, count) for f in (*runs, base)]
    for full in runs:
        rows.append((kind, f"ratio ({full.label.partition(',')[2].strip()}) / baseline",
                     f"{full.median / base.median:.0f}x", f"{full.best / base.best:.0f}x", "",
                     "", f"{full.cpu_median / base.cpu_median:.0f}x"))
    for full in runs:
        met = "met" if count / full.median >= TARGET else "NOT met"
        rows.append((kind, f"target >= {TARGET:.0f} messages/s "
                     f"({full.label.partition(',')[2].strip()})", met, "", "", "", ""))
    return rows


def history(messages: list[Reply], count: int) -> int:
    """Store ``count`` mails processed a month ago (ids 1..count), as a season leaves them."""
    db.session.remove()
    month_ago = utcnow() - timedelta(days=30)
    rows = []
    for i in range(count):
        sent = messages[i % len(messages)]
        rows.append(dict(id=i + 1, source="smtp", raw=sent.raw, message_id=f"<old-{i}@example.org>",
                         from_addr=sent.sender, subject="Re: an old round",
                         received_at=month_ago + timedelta(seconds=i), status="applied",
                         error="", processed_at=month_ago + timedelta(seconds=i)))
    with db.engine.begin() as conn:
        conn.execute(text("DELETE FROM inbound_message"))
        bulk_load(conn, "inbound_message", rows)
        after_load(conn)
    return count


def _row(kind: str, figures: Figures, count: int) -> tuple[str, ...]:
    return (kind, figures.label, f"{figures.median:.3f} s", f"{figures.best:.3f} s",
            f"{count / figures.median:,.0f}/s", f"{figures.median / count * 1000:.2f} ms",
            f"{figures.cpu_median / count * 1000:.2f} ms")


def sync_normal(engine: Engine) -> None:
    """Every SQLite connection from now on syncs NORMAL (after the app's own pragmas)."""
    @event.listens_for(engine, "connect")
    def pragmas(dbapi_connection, _record) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    engine.dispose()


def journal() -> str:
    """The journal mode and synchronous setting, for SQLite."""
    if db.engine.dialect.name != "sqlite":
        return ""
    with db.engine.connect() as conn:
        mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        sync = conn.exec_driver_sql("PRAGMA synchronous").scalar()
    return f" (journal_mode={mode}, synchronous={ {0: 'OFF', 1: 'NORMAL', 2: 'FULL'}[sync]})"


def main() -> None:
    args = arguments()
    rows = [("db", "measurement", "median", "min", "messages/s", "per message",
             "CPU per message")]
    for kind in args.db:
        database = kind.partition("-")[0]
        with temporary_database(database) as url, bench_app(url, database) as app:
            if kind == "sqlite-normal":
                sync_normal(db.engine)
            rows += bench(kind, app, args)
    print()
    print(f"inbound mail: {args.players} players x {args.messages} replies each; "
          f"{args.repeat} runs after a warm-up (median and min of the whole batch)")
    print(table(rows))


if __name__ == "__main__":
    main()
