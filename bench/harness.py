"""The measurement every benchmark makes: ours, ours without mail, the baselines.

For each database: set the data up, check that ours and the baseline store the
same results (or the comparison means nothing), then time, each after one
warm-up and with the data reset (untimed) before every run:

* ours, as the scheduler would call it, and the time spent inside the notify
  calls that queue the mails (rendering them and their multi-row INSERT);
* ours with those notify calls made no-ops: no mail at all;
* the baseline (bench/baseline.py): text SQL, no mail;
* the baseline plus an INSERT of the very mails ours wrote, already rendered
  (each distinct body once, as ours stores them): what storing the mails
  costs the database, whoever renders them.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from data import Sizes, build, reset
from dbs import bench_app, server_version, start_afresh, temporary_database
from mailcheck import check_mails
from sqlalchemy import Connection, insert, select
from timing import Figures, load, measure, profile, seconds, table

from vpsleuth.extensions import db
from vpsleuth.mail import notify
from vpsleuth.models import MailBody, OutboxMessage, Round, RoundResult, StandingQuestion

MAIL_CALLS = ("round_report", "round_opened")
# game id -> the rows ours queued for it: (mail bodies, outbox messages)
Mails = dict[int, tuple[list[dict], list[dict]]]


@dataclass(frozen=True)
class Subject:
    """What a script compares: ours, and the baseline (given the mails to store, or None)."""

    ours: Callable[[], None]
    raw: Callable[[Mails | None], None]


def arguments(description: str, repeat: int = 5, **sizes: int) -> argparse.ArgumentParser:
    """The options every script has, plus one integer option per size given."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both",
                        help="which database(s) to measure (default: both)")
    parser.add_argument("--repeat", type=_at_least(1), default=repeat,
                        help=f"timed runs of each measurement after one warm-up "
                             f"(default: {repeat})")
    parser.add_argument("--round", type=_at_least(1, 12), default=5, dest="round_number",
                        help="the round resolved, 1 to 12; the rounds before it have results "
                             "(default: 5, the first bonus round)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of one run of ours, with and without mail")
    for name, default in sizes.items():
        most = 36 if name == "tips" else None  # one tip per gem
        parser.add_argument(f"--{name}", type=_at_least(1, most), default=default,
                            help=f"(default: {default})")
    return parser


def _at_least(least: int, most: int | None = None) -> Callable[[str], int]:
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least or (most is not None and value > most):
            bounds = f"{least} to {most}" if most is not None else f"{least} or more"
            raise argparse.ArgumentTypeError(f"{value} is out of range: give {bounds}")
        return value
    return number


@contextlib.contextmanager
def notify_timed(spent: list[float], *, silent: bool = False) -> Iterator[None]:
    """Add the time spent in the notify calls to ``spent[-1]`` (or skip them: ``silent``)."""
    originals = {name: getattr(notify, name) for name in MAIL_CALLS}

    def wrap(original):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            if not silent:
                original(*args, **kwargs)
            spent[-1] += time.perf_counter() - start
        return timed

    for name, original in originals.items():
        setattr(notify, name, wrap(original))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(notify, name, original)


def stored(number: int) -> tuple[list, list]:
    """Every result and answer of the rounds ``number``, to compare ours with the baseline."""
    results = db.session.execute(select(
        Round.game_id, RoundResult.player_id, RoundResult.submitted, RoundResult.tips,
        RoundResult.correct, RoundResult.wrong, RoundResult.tip_score, RoundResult.bonus,
        RoundResult.points, RoundResult.total, RoundResult.rank).join(Round)
        .where(Round.number == number).order_by(Round.game_id, RoundResult.player_id)).all()
    answers = db.session.execute(select(StandingQuestion.id, StandingQuestion.answer).join(
        Round).where(Round.number == number).order_by(StandingQuestion.id)).all()
    return [tuple(r) for r in results], [tuple(a) for a in answers]


def queued_mails() -> Mails:
    """The mails ours queued (pending) and their bodies, all columns, by game."""
    mails: Mails = {}
    new = OutboxMessage.status == "pending"  # the earlier rounds' mails were sent
    bodies = {body.id: {"id": body.id, "text": body.text, "html": body.html,
                        "slot_text": body.slot_text, "slot_html": body.slot_html}
              for body in db.session.scalars(select(MailBody).where(
                  MailBody.id.in_(select(OutboxMessage.body_id).where(new))))}
    columns = [c for c in OutboxMessage.__table__.columns if c.name != "id"]
    for row in db.session.execute(select(*columns).where(new).order_by(OutboxMessage.id)):
        game_bodies, messages = mails.setdefault(row.game_id, ([], []))
        if row.body_id in bodies:
            game_bodies.append(bodies.pop(row.body_id))
        messages.append(dict(row._mapping))
    return mails


def store_mails(conn: Connection, mails: tuple[list[dict], list[dict]]) -> None:
    """The baseline's INSERT of one game's mails: the bodies, then the messages."""
    bodies, messages = mails
    if bodies:
        conn.execute(insert(MailBody.__table__), bodies)
    conn.execute(insert(OutboxMessage.__table__), messages)


def bench(kind: str, sizes: Sizes, args: argparse.Namespace,
          subject_for: Callable[[list[int]], Subject]) -> list[tuple[str, ...]]:
    """All measurements on one database; rows for the table."""
    start = time.perf_counter()
    with db.engine.begin() as conn:
        game_ids = build(conn, sizes)
    subject = subject_for(game_ids)
    tips = sizes.games * sizes.players * sizes.tips
    print(f"[{kind}] {server_version(kind)}; set up {sizes.games} games, "
          f"{sizes.games * sizes.players} players, {tips} tips in "
          f"{time.perf_counter() - start:.1f} s; {load()}", flush=True)

    def prepare() -> None:
        start_afresh(kind, lambda conn: reset(conn, sizes))

    prepare()
    subject.raw(None)
    expected = stored(sizes.round_number)
    prepare()
    subject.ours()
    if stored(sizes.round_number) != expected:
        raise SystemExit(f"[{kind}] ours and the baseline stored different results")
    mails = queued_mails()
    count = sum(len(messages) for _, messages in mails.values())
    stored_bodies = [b for bodies, _ in mails.values() for b in bodies]
    size = sum(len(b["text"]) + len(b["html"] or "") for b in stored_bodies)
    checked = check_mails(sizes.round_number)
    print(f"[{kind}] results identical to the baseline's; ours queued {count} mails with "
          f"{len(stored_bodies)} distinct bodies, {size / 1e6:.1f} MB of text and HTML; "
          f"{checked} of them identical to the same mail rendered alone", flush=True)

    spent: list[float] = []

    def ours_timed() -> None:
        spent.append(0.0)
        subject.ours()

    with notify_timed(spent):
        full = measure("ours", ours_timed, prepare, args.repeat)
    in_notify = Figures("  of which inside the notify calls", spent[1:])  # wall clock only
    with notify_timed([0.0], silent=True):
        quiet = measure("ours without mail (notify calls skipped)", subject.ours, prepare,
                        args.repeat)
    base = measure("baseline: text SQL, no mail", lambda: subject.raw(None), prepare,
                   args.repeat)
    with_mail = measure(f"baseline + INSERT of the same {count} mails, pre-rendered",
                        lambda: subject.raw(mails), prepare, args.repeat)
    if args.profile:
        print(f"[{kind}] profile of ours:\n{profile(subject.ours, prepare)}")
        with notify_timed([0.0], silent=True):
            print(f"[{kind}] profile of ours without mail:\n{profile(subject.ours, prepare)}")
    prepare()
    print(f"[{kind}] done; {load()}", flush=True)

    rows = [(kind, f.label, seconds(f.median), seconds(f.best),
             "-" if f.cpu_median is None else seconds(f.cpu_median))
            for f in (full, in_notify, quiet, base, with_mail)]
    for label, mine, theirs in (("ours / baseline", full, base),
                                ("ours without mail / baseline", quiet, base),
                                ("ours / baseline with the mails", full, with_mail)):
        rows.append((kind, f"ratio {label}", f"{mine.median / theirs.median:.1f}x",
                     f"{mine.best / theirs.best:.1f}x",
                     f"{mine.cpu_median / theirs.cpu_median:.1f}x"))
    return rows


def main(title: str, sizes: Sizes, args: argparse.Namespace,
         subject_for: Callable[[list[int]], Subject]) -> None:
    """Run ``bench`` on each database asked for, each in a database of its own; print."""
    rows = [("db", "measurement", "median", "min", "CPU median")]
    for kind in ["sqlite", "postgresql"] if args.db == "both" else [args.db]:
        with temporary_database(kind) as url, bench_app(url, kind):
            rows += bench(kind, sizes, args, subject_for)
    print()
    print(f"{title}; {args.repeat} runs after a warm-up; wall clock, and the CPU time of this "
          "process (PostgreSQL's own is not in it)")
    print(table(rows))
