# Settings for the test suite (loaded on top of default.py by create_app(testing)).
TESTING = True
SECRET_KEY = "test-only-not-secret"
SQLALCHEMY_DATABASE_URI = "sqlite://"
PUSH_ALLOW_LOOPBACK = True  # the tests' push service listens on 127.0.0.1
WEBHOOK_ALLOW_LOOPBACK = True  # the tests' chat receiver listens on http://127.0.0.1:PORT
# A test's own session may wait longer than a minute between two statements while it
# watches processes work (the soak, the scheduler tests); the processes it starts keep
# the default (tests/integration/test_idle_sessions.py tests the setting itself).
DATABASE_IDLE_IN_TRANSACTION_SECONDS = 0
