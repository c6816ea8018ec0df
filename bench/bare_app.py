"""The baseline of bench/http_submit.py: a bare Flask endpoint that does nothing.

It answers the same requests at the same URL with a small JSON, reading
neither the body nor the token: what gunicorn, Werkzeug and Flask cost alone.

    .venv/bin/gunicorn --workers 2 --chdir bench 'bare_app:app'
"""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.route("/api/v1/games/<int:game_id>/turn", methods=["PUT", "POST"])
def submit_turn(game_id: int) -> dict:
    """Nothing at all: the smallest JSON answer."""
    return {"game": game_id, "ok": True}
