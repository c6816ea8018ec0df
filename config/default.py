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

# The address the service sends from and the base URL of its web pages.
MAIL_DEFAULT_SENDER = "VP-Sleuth <vpsleuth@localhost>"
BASE_URL = "http://localhost:5000"

# Used by `vpsleuth demo` and new games when the GM gives none.
DEFAULT_TIMEZONE = "Europe/Berlin"
DEFAULT_LANGUAGE = "en"
