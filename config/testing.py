# Settings for the test suite (loaded on top of default.py by create_app(testing)).
TESTING = True
SECRET_KEY = "test-only-not-secret"
SQLALCHEMY_DATABASE_URI = "sqlite://"
