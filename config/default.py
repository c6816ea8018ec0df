# Default settings for vpsleuth. Every setting can be overridden by an
# environment variable with the prefix VPSLEUTH_, e.g.
#   VPSLEUTH_SQLALCHEMY_DATABASE_URI=postgresql+psycopg://user@host/db
#   VPSLEUTH_SECRET_KEY=...            (never commit a secret key)
# Values are read as JSON where they parse as JSON (numbers, true/false).
#
# Left unset, the database is SQLite in the instance folder and the secret
# key is generated once and kept in instance/secret_key.

SQLALCHEMY_DATABASE_URI = None  # None: sqlite file in the instance folder
SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
# PostgreSQL: the server ends a session idle this long inside a transaction (a host
# cut off mid-transaction), so its locks go and another scheduler carries on. 0: never.
DATABASE_IDLE_IN_TRANSACTION_SECONDS = 60
# A turn stored when the database goes away (a failover) is applied again for this
# long, unless its status shows the applying commit landed: never twice.
TURN_RETRY_SECONDS = 5

# The address the service sends from, and the base URL of its web pages for the links
# in mails. BASE_URL unset: links follow the address `vpsleuth serve` was started with
# (http://localhost:5000 before it ever was); set it to the public address in production.
MAIL_DEFAULT_SENDER = "VP-Sleuth <vpsleuth@localhost>"
BASE_URL = None

# Used by `vpsleuth demo` and new games when the GM gives none.
DEFAULT_TIMEZONE = "Europe/Berlin"
DEFAULT_LANGUAGE = "en"

# Mail. With no MAIL_SERVER the service sends nothing: mails wait in the
# outbox, where the GM reads them (`vpsleuth mail outbox`, the GM pages).
MAIL_SERVER = None
MAIL_PORT = 25
MAIL_USE_TLS = False
MAIL_USE_SSL = False
MAIL_USERNAME = None
MAIL_PASSWORD = None  # set VPSLEUTH_MAIL_PASSWORD; never commit it
# Replies come back to this address with a per-player key: vpsleuth+KEY@host.
REPLY_ADDRESS = "vpsleuth@localhost"
OUTBOX_MAX_ATTEMPTS = 40  # with back-off up to 6 h apart: about a week of retries
MAIL_TIMEOUT = 60  # seconds to wait for the SMTP server before backing off

# The scheduler (`vpsleuth scheduler`, or inside `vpsleuth serve`): every job
# runs every tick; a tick missed during downtime is caught up once.
SCHEDULER_TICK_SECONDS = 30
# SQLite allows one scheduler at a time (a lease): a second one waits, and takes over
# this long after the first one died (at once when it stops cleanly).
SCHEDULER_LEASE_SECONDS = 90
# A deadline that passed while the scheduler was down for longer than this is
# not resolved blind: it moves on by the length of the outage (docs/scheduler.md).
OUTAGE_GRACE_MINUTES = 10

# Sign-in links
SIGN_IN_MINUTES = 60
INVITATION_HOURS = 168  # the link in an invitation works once, for a week
SIGN_IN_PER_HOUR = 5  # links mailed to one address asked for from one client, an hour
SIGN_IN_PER_ADDRESS_PER_HOUR = 10  # to one address from all clients together (no mail bombs)
SIGN_IN_PER_CLIENT_PER_HOUR = 20  # requests from one client (IP) for any addresses
# Open games: requests to join, per address and per game, in a sliding day
JOIN_REQUESTS_PER_ADDRESS_PER_DAY = 10
JOIN_REQUESTS_PER_GAME_PER_DAY = 30

# Web: set true when served over HTTPS (production), so cookies never travel in clear.
SESSION_COOKIE_SECURE = False
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
PERMANENT_SESSION_LIFETIME = 30 * 24 * 3600  # seconds: a sign-in lasts 30 days
# Behind a reverse proxy: how many proxies set X-Forwarded-* headers (0: none).
PROXY_FIX = 0
# /healthz reports trouble when the scheduler has not beaten for this many seconds.
HEALTH_HEARTBEAT_MAX_AGE = 300
# Request bodies: a longer one gets a 413 before it is read, also when sent without a
# Content-Length (the API's own limit is lower: 256 KiB). Flask's MAX_FORM_MEMORY_SIZE
# (500 kB a form field) and MAX_FORM_PARTS (1,000 fields) apply within it.
MAX_CONTENT_LENGTH = 1024 * 1024

# Inbound mail (vpsleuth mail ingest | smtpd | poll): limits against floods and loops.
INBOUND_MAX_BYTES = 262144  # larger mails: the first bytes are stored, the player is told
INBOUND_PER_SENDER_PER_HOUR = 20  # more with one player's key, or unkeyed from one From: ignored
# "Could not match your mail" replies to senders without a valid reply key (a forged
# From must not make us spam one address, nor many):
INBOUND_UNKNOWN_REPLIES_PER_ADDRESS_PER_DAY = 1  # to one address
INBOUND_UNKNOWN_REPLIES_PER_HOUR = 10  # to all such senders together

# IMAP (vpsleuth mail poll | idle, or the scheduler). Unset IMAP_HOST: no fetching.
IMAP_HOST = None
IMAP_PORT = 993
IMAP_SSL = True  # implicit TLS (port 993); for port 143 set IMAP_SSL=false, IMAP_STARTTLS=true
IMAP_STARTTLS = False
IMAP_USER = None
IMAP_PASSWORD = None  # set VPSLEUTH_IMAP_PASSWORD; never commit it
IMAP_FOLDER = "INBOX"  # where replies arrive; every message in it is processed
IMAP_DONE_FOLDER = "vpsleuth-processed"  # processed messages are moved here (created if missing)
# The IMAP watcher (docs/mail-inbound.md): `vpsleuth scheduler` and `vpsleuth serve` keep a
# connection open and process each reply as it arrives (IDLE); one process at a time does.
IMAP_IDLE = True  # false: no watcher with the scheduler; the poll-imap job fetches every minute
IMAP_IDLE_SECONDS = 240  # leave IDLE and look at the folder at least this often (NAT, RFC 2177)
IMAP_POLL_SECONDS = 10  # a server without IDLE is looked at this often instead
IMAP_RECONNECT_MAX_SECONDS = 300  # after a failure wait 1, 2, 4, ... s, at most this
IMAP_LEASE_SECONDS = 90  # a watcher silent this long has lost the mailbox to the next taker
# The game told afterwards (issue 13.2) in the final report mail. It takes the deduction
# engine seconds, so the tell-stories job computes it once, after the commit that ends the
# game, and stores it; the final report is queued with it (services/stories.py), seconds
# later. Off: the report goes at once and only links the story page (told by the same job).
STORY_IN_FINAL_REPORT = True
# How often the tell-stories job looks for a story asked for (a cheap query when none is).
STORY_POLL_SECONDS = 2
# The final report waits this long for its story at most, then goes with the link (the
# engine can take minutes on a hard record; the page shows the story once it is told).
STORY_REPORT_WAIT_MINUTES = 5
# Costly requests per account (services/costly.py, figures in bench/request_costs.py): at
# most two at once in a process, and so many of a kind a minute (an hour for new practice
# games), counted in the database across every worker. Past them: 429 and a sentence.
COSTLY_PER_MINUTE = 30  # story pages, practice turns (the round resolves, the bots choose)
NOTEBOOK_PER_MINUTE = 60  # notebook saves (the sheet saves a moment after each change), sheets
PRACTICE_PER_HOUR = 12  # new practice games (three may run at once)
# The game board (services/board.py): posts per player in a sliding hour; past it, refused.
BOARD_POSTS_PER_HOUR = 10
# The board's daily digest by mail (services/board_digest.py): from this hour of the
# player's own time zone on, once a day.
BOARD_DIGEST_HOUR = 8

# What is kept about people, and for how long (docs/privacy.md argues each period).
# Raw inbound mails and sent mails: kept while their game runs, then this many days after
# it ends (mails of no game: after they came or went); the turns, results and audit log
# stay. The retention job removes what is past its time; `vpsleuth check` counts it.
RETAIN_INBOUND_DAYS = 30
RETAIN_SENT_MAIL_DAYS = 30
RETAIN_RATE_EVENTS_HOURS = 48  # counted requests (rate limits); never less than a day
RETAIN_SIGN_IN_LINKS_DAYS = 7  # after a sign-in or invitation link has expired
RETAIN_NOTICES_DAYS = 3  # push and webhook notices, once sent or given up, after the last try
# The privacy notice (/privacy) and the imprint (/imprint): Markdown files the operator
# writes, a translation beside each as NAME.de.md, NAME.es.md. Without PRIVACY_FILE the
# service shows a notice generated from what it stores (docs/privacy-notice*.md), naming
# PRIVACY_CONTACT (who runs the site and how to reach them) as the one responsible.
PRIVACY_FILE = None
IMPRINT_FILE = None
PRIVACY_CONTACT = None

# Web Push (docs/web-push.md). The VAPID key pair (RFC 8292) signs every push: left
# unset, one is made on first use and kept in the database, so every process and
# restart uses the same (browsers' subscriptions are bound to it: a new key silently
# ends every one). To set your own: VPSLEUTH_VAPID_PRIVATE_KEY, the P-256 private key
# as base64url (32 raw bytes or DER) or PEM; never commit it.
VAPID_PRIVATE_KEY = None
VAPID_SUBJECT = None  # the contact push services see: mailto:... or https://...; None:
#                       mailto: MAIL_DEFAULT_SENDER's address
PUSH_MAX_DEVICES = 10  # devices per person with notifications on
PUSH_TTL_SECONDS = 86400  # how long a push service keeps a notice for a device that is off
PUSH_TIMEOUT = 10  # seconds to wait for a push service before trying again later
PUSH_ALLOW_LOOPBACK = False  # tests only: push services at http://127.0.0.1
NOTICE_MAX_ATTEMPTS = 12  # push and webhook tries, with back-off up to 6 h: about 2 days
# Chat webhooks (docs/webhooks.md): a game's GM gives an https address in the public
# internet; a chat that does not answer within this many seconds is tried again later.
WEBHOOK_TIMEOUT_SECONDS = 5
# Tests only: also accept http://127.0.0.1:PORT (the tests' own receiver). Never in
# production: it lets a GM make the service post to this machine.
WEBHOOK_ALLOW_LOOPBACK = False
