"""PostgreSQL ends a session idle inside a transaction: a cut-off host's locks do not stay."""

from __future__ import annotations

import time

import pytest
from smtp_sink import DATABASES
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from vpsleuth import create_app
from vpsleuth.extensions import db


@pytest.mark.live_db
@pytest.mark.parametrize("app", [d for d in DATABASES if d == "postgresql"], indirect=True)
def test_a_session_idle_in_a_transaction_is_ended_and_its_lock_is_free_again(app):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    served = create_app({"SQLALCHEMY_DATABASE_URI": url,
                         "DATABASE_IDLE_IN_TRANSACTION_SECONDS": 1})
    other = create_engine(url)
    try:
        with served.app_context():
            (setting,) = db.session.execute(text("SHOW idle_in_transaction_session_timeout"))
            assert setting[0] == "1s"
            db.session.execute(text("CREATE TEMP TABLE held (id int)"))  # in the transaction
            db.session.execute(text("SELECT pg_advisory_xact_lock(2323)"))  # a lock held
            time.sleep(2.5)  # the host is cut off: nothing comes from it
            with other.connect() as conn:  # the lock went with the ended session
                assert conn.execute(text("SELECT pg_try_advisory_lock(2323)")).scalar()
            with pytest.raises(DBAPIError, match="idle-in-transaction timeout"):
                db.session.execute(text("SELECT 1"))  # back: its transaction is gone
            db.session.rollback()
            assert db.session.execute(text("SELECT 1")).scalar() == 1  # a fresh connection
            db.session.remove()
            db.engine.dispose()
    finally:
        other.dispose()


def test_the_setting_is_only_given_to_postgresql_and_keeps_other_connect_arguments():
    sqlite = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://",
                         "DATABASE_IDLE_IN_TRANSACTION_SECONDS": 60})
    assert "connect_args" not in sqlite.config["SQLALCHEMY_ENGINE_OPTIONS"]
    postgres = create_app({
        "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://postgres@127.0.0.1/x",
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": "-c work_mem=8MB"}},
        "DATABASE_IDLE_IN_TRANSACTION_SECONDS": 60})  # the tests' own apps have 0
    assert postgres.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["options"] == (
        "-c work_mem=8MB -c idle_in_transaction_session_timeout=60000")
    off = create_app({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://postgres@127.0.0.1/x",
                      "DATABASE_IDLE_IN_TRANSACTION_SECONDS": 0})
    assert "connect_args" not in off.config["SQLALCHEMY_ENGINE_OPTIONS"]
