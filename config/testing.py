# Settings for the test suite (loaded on top of default.py by create_app(testing)).
TESTING = True
SECRET_KEY = "test-only-not-secret"
SQLALCHEMY_DATABASE_URI = "sqlite://"
PUSH_ALLOW_LOOPBACK = True  # the tests' push service listens on 127.0.0.1
WEBHOOK_ALLOW_LOOPBACK = True  # the tests' chat receiver listens on http://127.0.0.1:PORT
