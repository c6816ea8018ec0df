"""What the service stores about people, why, and for how long: one list of facts.

The default privacy notice (/privacy, docs/privacy-notice*.md) is written from
these facts in the reader's language, and docs/privacy.md, the operators'
account, states the same ones (a test holds the two together, and every table
of the database to one fact). A new table without a fact fails that test.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from ..i18n import N_, translate
from .retention import DEFAULTS


@dataclass(frozen=True)
class Fact:
    key: str
    tables: tuple[str, ...]
    what: str  # message ids (N_), worded for the person the notice is for
    why: str
    kept: str  # may name {inbound}, {sent}, {rate}, {links}, {notices} (days or hours)


FACTS: tuple[Fact, ...] = (
    Fact("account", ("game_master", "profile", "player", "join_request"),
         N_("Your address, the names you play under, your display names, language, time "
            "zone and which mails you want; for a game master the account"),
         N_("to run your games, write to you and show you the pages in your language"),
         N_("until you delete your account")),
    Fact("sign-in", ("login_token", "web_session", "api_token"),
         N_("Sign-in links sent to you, the sessions of your browsers and your API tokens "
            "(only a hash of each session and token)"),
         N_("to let you in and no one else, and to end a session or token at once"),
         N_("a link: {links} days after it expired; a session: two days after it ended; "
            "a token: until you revoke it or delete your account")),
    Fact("turns", ("game", "game_secret", "round", "turn_version", "standing_question",
                   "standing_tip", "round_result", "reminder_sent", "game_story"),
         N_("Every turn you sent as it arrived, your questions and tips, your results, and "
            "the game's story"),
         N_("the turns are the game: a turn counts as sent, and any dispute is settled "
            "from them"),
         N_("with the game; when you delete your account your seat stays as “former "
            "player N” with no name, address or turn texts")),
    Fact("notebook", ("player_notebook",),
         N_("Your notebook (marks and notes), also once your seat has passed to a "
            "substitute"),
         N_("for you alone: nobody else reads it, the game master neither"),
         N_("until you delete your account")),
    Fact("board", ("board_post",),
         N_("Your posts on the boards of your games, under the name you play under"),
         N_("for the players and the game master of the game to read; the archive of a "
            "finished public game shows them"),
         N_("with the game; you may delete a post at any time, and when you delete your "
            "account your posts lose their text and your name")),
    Fact("seats", ("seat_change",),
         N_("When a game master hands a seat to a substitute: the name and address of its "
            "player until then, the newcomer's name, from which round, and who did it"),
         N_("so the reports can say from which round a seat changed hands, and so the "
            "hand-over can be checked"),
         N_("with the game; your name and address are removed from it when you delete your "
            "account")),
    Fact("absence", ("absence",),
         N_("The absences you announce (first and last day, your note for the game master, "
            "how it came and who entered it)"),
         N_("no reminders while you are away, the game's rule for a missed turn, and "
            "“away until” for the others (the days only: the note is for the game master)"),
         N_("with the game; when you delete your account your absences go")),
    Fact("mail-out", ("outbox_message", "mail_body"),
         N_("The mails sent to you (address, subject, text)"),
         N_("to deliver them, retry on failure, and let the game master check what went out"),
         N_("while the game runs and {sent} days after it ends (mails of no game: {sent} "
            "days after they were sent)")),
    Fact("mail-in", ("inbound_message",),
         N_("The mails you send to the service, whole, with their headers (your address, "
            "your mail program, the servers it passed)"),
         N_("stored before anything else, so nothing you send is lost, and to settle a "
            "dispute about a turn"),
         N_("while the game runs and {inbound} days after it ends (mails of no game: "
            "{inbound} days after they came)")),
    Fact("limits", ("rate_event",),
         N_("Counted requests: keyed hashes of your address and of your device's internet "
            "address, never either in clear"),
         N_("to stop floods of sign-in links, mails and costly pages"),
         N_("{rate} hours")),
    Fact("audit", ("audit_entry",),
         N_("The game master's log: what was done in a game and by whom"),
         N_("so a game master's every action can be checked"),
         N_("with the game; your address and name are removed from it when you leave")),
    Fact("ratings", ("rating", "rating_change"),
         N_("Your rating and its history, from games their game master marked rated"),
         N_("the leaderboard, where you may hide yourself"),
         N_("until you delete your account")),
    Fact("push", ("push_subscription", "notice"),
         N_("For each device you switched notifications on: its browser's push address and "
            "keys, a name for it, when it last got one; and each notification until it is "
            "sent (game, round, what it says)"),
         N_("to notify you on that device; your browser's maker runs the push service, "
            "which passes on each notification encrypted, unable to read it"),
         N_("a device: until you remove it, its browser ends it, or you delete your "
            "account; a notification: {notices} days after it was sent")),
    Fact("chat", ("game_webhook",),
         N_("For a game master: the address of the group chat a game's news go to (its "
            "webhook) and how its last delivery went"),
         N_("to post the game's news in that chat: a round opened, the public answers and "
            "standings, the winner; never anyone's tips"),
         N_("until the game master removes it, or with the game")),
    Fact("operation", ("scheduler_state", "site_key"),
         N_("Nothing about people: the scheduler's heartbeat and the site's push key"),
         N_("to notice an outage"), N_("always")),
)


def periods() -> dict[str, float]:
    """The retention periods in force: days, and hours for counted requests."""
    cfg = current_app.config
    return {"inbound": cfg.get("RETAIN_INBOUND_DAYS", DEFAULTS["RETAIN_INBOUND_DAYS"]),
            "sent": cfg.get("RETAIN_SENT_MAIL_DAYS", DEFAULTS["RETAIN_SENT_MAIL_DAYS"]),
            "rate": cfg.get("RETAIN_RATE_EVENTS_HOURS", DEFAULTS["RETAIN_RATE_EVENTS_HOURS"]),
            "links": cfg.get("RETAIN_SIGN_IN_LINKS_DAYS",
                             DEFAULTS["RETAIN_SIGN_IN_LINKS_DAYS"]),
            "notices": cfg.get("RETAIN_NOTICES_DAYS", DEFAULTS["RETAIN_NOTICES_DAYS"])}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def table(lang: str) -> str:
    """The facts as a Markdown table in ``lang`` (what, why, how long)."""
    numbers = {k: _number(v) for k, v in periods().items()}
    head = (translate(lang, "What"), translate(lang, "Why"), translate(lang, "How long"))
    rows = ["| " + " | ".join(head) + " |", "|---|---|---|"]
    for fact in FACTS:
        if fact.key == "operation":
            continue
        cells = (translate(lang, fact.what), translate(lang, fact.why),
                 translate(lang, fact.kept).format(**numbers))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)
