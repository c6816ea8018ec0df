"""What ``vpsleuth check`` checks: the configuration, read and said in plain words.

Each check returns findings: ("ok" | "warning" | "error", message). The command
exits 1 if any error was found, so it can guard a deployment script.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import smtplib
from collections.abc import Callable

from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from . import push, retention
from .links import base_url, configured

Finding = tuple[str, str]
TIMEOUT = 10


def check_secret_key() -> list[Finding]:
    if os.environ.get("VPSLEUTH_SECRET_KEY"):
        return [("ok", "the secret key is set in the environment")]
    return [("warning", "no VPSLEUTH_SECRET_KEY: using the key generated in "
             f"{current_app.instance_path}/secret_key. Fine for a trial; in production set "
             "VPSLEUTH_SECRET_KEY (sign-in links and reply keys depend on it)")]


def check_database() -> list[Finding]:
    url = db.engine.url.render_as_string(hide_password=True)
    try:
        with db.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            current = MigrationContext.configure(conn).get_current_revision()
    except Exception as exc:  # noqa: BLE001 - any driver error is a finding
        return [("error", f"cannot reach the database {url}: {exc.__class__.__name__}: "
                 f"{str(exc).splitlines()[0][:200]}")]
    config = current_app.extensions["migrate"].migrate.get_config()
    head = ScriptDirectory.from_config(config).get_current_head()
    if current != head:
        return [("error", f"the database {url} is reachable but its schema is at "
                 f"{current or 'nothing'}, not {head}: run 'vpsleuth db upgrade'")]
    return [("ok", f"the database {url} is reachable and up to date")]


def check_mail_domain() -> list[Finding]:
    reply = current_app.config.get("REPLY_ADDRESS", "")
    domain = reply.rpartition("@")[2]
    if not domain or domain in ("localhost", "localhost.localdomain") or "." not in domain:
        return [("warning", f"REPLY_ADDRESS is {reply!r}: players cannot reply to a "
                 "'localhost' address. Set VPSLEUTH_REPLY_ADDRESS to a mailbox on your domain "
                 "that accepts plus-addressing (e.g. vpsleuth@example.org)")]
    return [("ok", f"replies go to {reply} with a per-player key (+KEY)")]


def check_smtp() -> list[Finding]:
    cfg = current_app.config
    if not cfg.get("MAIL_SERVER"):
        return [("warning", "no MAIL_SERVER: mails wait in the outbox ('vpsleuth mail outbox') "
                 "and are not sent")]
    host, port = cfg["MAIL_SERVER"], int(cfg.get("MAIL_PORT") or 25)
    try:
        cls = smtplib.SMTP_SSL if cfg.get("MAIL_USE_SSL") else smtplib.SMTP
        with cls(host, port, timeout=TIMEOUT) as smtp:
            if cfg.get("MAIL_USE_TLS"):
                smtp.starttls()
            if cfg.get("MAIL_USERNAME"):
                smtp.login(cfg["MAIL_USERNAME"], cfg.get("MAIL_PASSWORD") or "")
    except smtplib.SMTPAuthenticationError:
        return [("error", f"the SMTP server {host}:{port} refused the login of "
                 f"{cfg.get('MAIL_USERNAME')!r}: check VPSLEUTH_MAIL_USERNAME/PASSWORD")]
    except (OSError, smtplib.SMTPException) as exc:
        return [("error", f"cannot talk to the SMTP server {host}:{port}: {exc}")]
    return [("ok", f"the SMTP server {host}:{port} answers"
             + (" and accepts the login" if cfg.get("MAIL_USERNAME") else ""))]


def check_imap() -> list[Finding]:
    cfg = current_app.config
    if not cfg.get("IMAP_HOST"):
        return [("ok", "no IMAP_HOST: replies come by the MTA pipe or the SMTP receiver")]
    host = cfg["IMAP_HOST"]
    port = int(cfg.get("IMAP_PORT") or (993 if cfg.get("IMAP_SSL") else 143))
    try:
        cls = imaplib.IMAP4_SSL if cfg.get("IMAP_SSL") else imaplib.IMAP4
        conn = cls(host, port, timeout=TIMEOUT)
        try:
            if cfg.get("IMAP_STARTTLS"):
                conn.starttls()
            conn.login(cfg.get("IMAP_USER") or "", cfg.get("IMAP_PASSWORD") or "")
            status, _ = conn.select(cfg.get("IMAP_FOLDER") or "INBOX", readonly=True)
            if status != "OK":
                return [("error", f"IMAP login works but the folder "
                         f"{cfg.get('IMAP_FOLDER') or 'INBOX'!r} cannot be opened")]
        finally:
            with contextlib.suppress(OSError, imaplib.IMAP4.error):
                conn.logout()
    except imaplib.IMAP4.error as exc:
        return [("error", f"the IMAP server {host}:{port} refused the login of "
                 f"{cfg.get('IMAP_USER')!r}: {exc}")]
    except OSError as exc:
        return [("error", f"cannot reach the IMAP server {host}:{port}: {exc}")]
    return [("ok", f"the IMAP server {host}:{port} accepts the login")]


def check_base_url() -> list[Finding]:
    try:
        url = base_url()
    except SQLAlchemyError:  # the database check says what is wrong with it
        db.session.rollback()
        url = current_app.config.get("BASE_URL") or "http://localhost:5000"
    if not configured():
        return [("warning", f"BASE_URL is not set: links in mails follow `vpsleuth serve` "
                 f"(now {url}); set VPSLEUTH_BASE_URL to the public address")]
    if "localhost" in url or "127.0.0.1" in url:
        return [("warning", f"BASE_URL is {url}: links in mails will not work for players; "
                 "set VPSLEUTH_BASE_URL to the public address")]
    if url.startswith("https://") and not current_app.config.get("SESSION_COOKIE_SECURE"):
        return [("warning", "served over HTTPS but SESSION_COOKIE_SECURE is off: set "
                 "VPSLEUTH_SESSION_COOKIE_SECURE=true")]
    return [("ok", f"links in mails point to {url}")]


LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", ".invalid", ".test", ".local", ".example")


def _public() -> bool:
    """Whether BASE_URL is an address strangers reach (not this machine, not a test name)."""
    if not configured():
        return False
    host = (current_app.config.get("BASE_URL") or "").split("//", 1)[-1].split("/", 1)[0]
    host = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return not any(host == h or host.endswith(h) for h in LOCAL_HOSTS)


def check_privacy() -> list[Finding]:
    """The privacy notice and the imprint: files that exist, and both where strangers come."""
    cfg, found = current_app.config, []
    for setting in ("PRIVACY_FILE", "IMPRINT_FILE"):
        path = cfg.get(setting)
        if path and not os.path.isfile(path):
            found.append(("error", f"{setting} names {path}, which is not a file: /privacy and "
                          "/imprint read it (Markdown)"))
    if not _public():
        return found or [("ok", "BASE_URL is not public: no privacy notice or imprint is "
                          "needed here (set PRIVACY_FILE and IMPRINT_FILE before going public)")]
    if not cfg.get("PRIVACY_FILE"):
        found.append(("warning", "BASE_URL is public but there is no PRIVACY_FILE: /privacy "
                      "shows the notice generated from what the service stores; write your "
                      "own from it (docs/privacy.md) and set VPSLEUTH_PRIVACY_FILE"
                      + ("" if cfg.get("PRIVACY_CONTACT") else
                         ", or at least VPSLEUTH_PRIVACY_CONTACT (who is responsible)")))
    if not cfg.get("IMPRINT_FILE"):
        found.append(("warning", "BASE_URL is public but there is no IMPRINT_FILE: a site "
                      "run from Germany must name its operator (an imprint); set "
                      "VPSLEUTH_IMPRINT_FILE to a Markdown file"))
    return found or [("ok", "the privacy notice and the imprint are the operator's own files")]


def check_retention() -> list[Finding]:
    """What the retention job would remove now (docs/privacy.md: how long, and why)."""
    try:
        due = retention.pending()
    except SQLAlchemyError:  # the database check says what is wrong with it
        db.session.rollback()
        return []
    if not any(due.values()):
        return [("ok", "retention: nothing is kept past its time")]
    listed = ", ".join(f"{n} {kind}" for kind, n in due.items() if n)
    return [("ok", f"retention: the retention job would remove now {listed}")]


def check_push() -> list[Finding]:
    """The VAPID key Web Push signs with (made now if it was not yet) and its contact."""
    try:
        where = push.vapid_kept_where()
        public = push.vapid_public_key()
    except RuntimeError as exc:  # VAPID_PRIVATE_KEY set but unreadable
        return [("error", str(exc))]
    except SQLAlchemyError:  # the database check says what is wrong with it
        db.session.rollback()
        return []
    kept = {"setting": "from VAPID_PRIVATE_KEY",
            "database": "kept in the database (table site_key)",
            "none": "made now and kept in the database (table site_key)"}[where]
    found = [("ok", f"Web Push: the VAPID key is {kept}; its public key (the browsers' "
              f"application server key) is {public}")]
    subject = push.vapid_subject()
    if "localhost" in subject or not subject.startswith(("mailto:", "https://")):
        found.append(("warning", f"Web Push: VAPID_SUBJECT is {subject!r}; push services "
                      "want a contact they can reach (mailto:you@example.org or an https "
                      "page): set VPSLEUTH_VAPID_SUBJECT or MAIL_DEFAULT_SENDER"))
    return found


CHECKS: list[Callable[[], list[Finding]]] = [
    check_secret_key, check_database, check_base_url, check_mail_domain, check_smtp,
    check_imap, check_privacy, check_retention, check_push,
]


def run_checks() -> list[Finding]:
    """Every check's findings, in the order of CHECKS."""
    return [finding for check in CHECKS for finding in check()]

