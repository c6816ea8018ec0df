"""Helper process for the SIGKILL test: resolve a round, and hang inside the transaction.

Run as: python kill_resolver.py GAME_ID. It prints IN_TRANSACTION once the round
is claimed and its results are written but not committed, then sleeps until
killed. The environment carries the database URL and secret key.
"""

import sys
import time

from vpsleuth import create_app
from vpsleuth.models import Game
from vpsleuth.services import resolution

original = resolution._store_results


def store_then_hang(*args, **kwargs):
    following = original(*args, **kwargs)
    resolution.db.session.flush()
    print("IN_TRANSACTION", flush=True)
    time.sleep(600)
    return following


resolution._store_results = store_then_hang
app = create_app()
with app.app_context():
    resolution.resolve_round(resolution.db.session.get(Game, int(sys.argv[1])), number=1)
