"""Print how many corpus replies are read right, per client and language.

    .venv/bin/python bench/corpus_score.py               # our rules (reply.py + signoff.py)
    .venv/bin/python bench/corpus_score.py --library     # mail-parser-reply instead of reply.py
    .venv/bin/python bench/corpus_score.py --both -v     # both, and every miss with its reason

Run it before and after a change to the reply stripper, the sign-off rule or
the turn parser. No database and no app: each message of
tests/mail/corpus/clients.json goes through what the pipeline does to a text
(decode, machine-mail check, strip the quote, set aside a sign-off, parse),
and the turn left standing on top of the corpus's earlier turn is compared
with the one expected, and so are the sign-off lines reported. "Right" means
status, standing turn and sign-off lines all as expected; a reply the
pipeline would refuse is right only where refusal is expected.

mail-parser-reply is measured only if installed (pip install mail-parser-reply);
it is not a dependency of the service. It is given every language it knows;
its first reply's body (signatures and disclaimers removed) is what it keeps.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vpsleuth.mail import mime  # noqa: E402
from vpsleuth.mail.inbound import classify, reply  # noqa: E402
from vpsleuth.orders import parse_turn  # noqa: E402
from vpsleuth.rules import parse_question  # noqa: E402

try:  # the sign-off rule; absent before it was written (for "before" figures)
    from vpsleuth.orders.signoff import split_signoff
except ImportError:  # pragma: no cover
    split_signoff = None

CORPUS = ROOT / "tests" / "mail" / "corpus"
EARLIER = "QUESTION G pearl\nTIP F BO1, C YO3"
FILL = {b"@@TO@@": b"vpsleuth+1.0123456789abcdef@localhost",
        b"@@IN_REPLY_TO@@": b"round-1.round_opened@localhost"}
LIBRARY_LANGUAGES = ["en", "de", "es", "fr", "it", "nl"]


def apply(change, question, tips):
    """The standing turn after ``change`` (either version of the parser's TurnChange)."""
    if getattr(change, "changes_question", False):
        question = change.question
    if hasattr(change, "apply_tips"):
        change.apply_tips(tips, dict)
    else:
        if change.drop_all:
            tips.clear()
        for gem in change.dropped:
            tips.pop(gem, None)
        tips.update(change.tips)
    return question, tips


def library_stripper(keep_signature: bool):
    """mail-parser-reply's first reply: its ``body`` (signatures and disclaimers cut),
    or its ``full_body`` (kept, so that our sign-off rule can name them)."""
    try:
        from mailparser_reply import EmailReplyParser
    except ImportError:
        return None
    parser = EmailReplyParser(languages=LIBRARY_LANGUAGES)

    def strip(text: str) -> str:
        replies = parser.read(text).replies
        if not replies:
            return ""
        return replies[0].full_body if keep_signature else replies[0].body
    return strip


def outcome(raw: bytes, strip) -> tuple[str, object, object, tuple[str, ...], str]:
    """(status, question, tips, sign-off lines, text read) as the pipeline would leave them."""
    msg = mime.parse(raw)
    if classify.why_ignored(msg):
        return "ignored", None, None, (), ""
    body = mime.body_text(msg)
    if body is None:
        return "refused", None, None, (), ""
    text = strip(body)
    if not reply.has_content(text):
        return "refused", None, None, (), text
    lines: tuple[str, ...] = ()
    if split_signoff is not None:
        split = split_signoff(text)
        text, lines = split.turn, split.lines
    parsed = parse_turn(text)
    if not parsed.ok:
        return "refused", None, None, (), text
    earlier = parse_turn(EARLIER).change
    question, tips = apply(earlier, None, {})
    question, tips = apply(parsed.change, question, tips)
    return "applied", question, tips, lines, text


def judge(entry: dict, got) -> tuple[str, str]:
    """What differs in the turn, and in the sign-off lines named ('' where right)."""
    status, question, tips, lines, _ = got
    if status != entry["status"]:
        return f"{status}, expected {entry['status']}", ""
    if status != "applied":
        return "", ""
    from vpsleuth.rules import GEM_BY_CODE

    if question != parse_question(entry["question"]):
        return f"question {question}, expected {entry['question']}", ""
    want = {GEM_BY_CODE[g]: loc for g, loc in entry["tips"].items()}
    if tips != want:
        got_tips = sorted((g.code, loc) for g, loc in tips.items())
        return f"tips {got_tips}, expected {entry['tips']}", ""
    if list(lines) != entry["signoff"]:
        return "", f"sign-off {list(lines)}, expected {entry['signoff']}"
    return "", ""


def score(entries: list[dict], strip, verbose: int, label: str) -> dict[str, list[int]]:
    """Per group: [turn right, turn and sign-off right, total]."""
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for entry in entries:
        raw = (CORPUS / entry["file"]).read_bytes()
        for key, value in FILL.items():
            raw = raw.replace(key, value)
        got = outcome(raw, strip)
        turn, named = judge(entry, got)
        for group in (f"client {entry['client']}", f"language {entry['lang']}", "all"):
            by[group][0] += not turn
            by[group][1] += not (turn or named)
            by[group][2] += 1
        if turn or named:
            misses.append((entry["file"], turn or named, got[4]))
    if verbose:
        for file, why, text in misses:
            print(f"  [{label}] {file}: {why}")
            if verbose > 1:
                print("    | " + "\n    | ".join(text.split("\n")[:12]))
    return by


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--library", action="store_true", help="mail-parser-reply only")
    ap.add_argument("--both", action="store_true", help="ours and mail-parser-reply")
    ap.add_argument("-v", "--verbose", action="count", default=0, help="list misses (-vv: text)")
    ap.add_argument("--manifest", default=str(CORPUS / "clients.json"))
    args = ap.parse_args()
    entries = json.loads(Path(args.manifest).read_text())
    runs = []
    if not args.library:
        runs.append(("ours", reply.strip_reply))
    if args.library or args.both:
        for label, keep in (("library body", False), ("library full", True)):
            lib = library_stripper(keep)
            if lib is None:
                print("mail-parser-reply is not installed: pip install mail-parser-reply")
                break
            runs.append((label, lib))
    results = {label: score(entries, strip, args.verbose, label) for label, strip in runs}
    groups = sorted({g for r in results.values() for g in r},
                    key=lambda g: (g != "all", not g.startswith("client"), g))
    width = max(len(g) for g in groups)
    print("turn: status and standing turn right; named: and the sign-off lines named too")
    print(f"{'':{width}} " + "".join(f" | {label:^21}" for label in results))
    print(f"{'':{width}} " + "".join(f" | {'turn':>12}{'named':>9}" for _ in results))
    for group in groups:
        cells = []
        for r in results.values():
            turn, named, total = r.get(group, (0, 0, 0))
            cells.append(f" | {turn:>3}/{total:<3} {100 * turn // total:>3}% "
                         f"{named:>3} {100 * named // total:>3}%")
        print(f"{group:{width}} " + "".join(cells))
    if split_signoff is None:
        print("(no sign-off rule in this tree: vpsleuth/orders/signoff.py is missing)")


if __name__ == "__main__":
    main()
