"""A reply by mail to a game that has ended: a clear answer with the result and the final
report's link, through the real inbound pipe (``vpsleuth mail ingest``)."""

from __future__ import annotations

from vpsleuth.extensions import db
from vpsleuth.rules import GEMS, Distribution
from vpsleuth.services import resolution, turns

from .support import corpus, inbound, outbox, outbox_mark
from .test_ingest_command import run_ingest


def right_tips(game, count: int) -> str:
    deal = Distribution.from_canonical(game.secret.distribution)
    return "\n".join(f"TIP {deal[gem]} {gem.code}" for gem in GEMS[:count])


def finish(game, ada, ben) -> None:
    turns.submit_turn(ada, right_tips(game, 5), channel="web")
    turns.submit_turn(ben, right_tips(game, 8), channel="web")
    while game.state != "finished":
        resolution.resolve_round(game)


def test_a_reply_to_an_ended_game_says_so_with_the_result_and_the_final_report(app, game, ada,
                                                                               ben):
    finish(game, ada, ben)
    mark = outbox_mark()
    done = run_ingest(app, corpus("gmail_reply.eml", ada))
    assert done.returncode == 0, done.stderr.decode()
    assert [row.status for row in inbound()] == ["refused"]
    db.session.expire_all()
    [mail] = outbox(after=mark)
    assert mail.kind == "refused" and mail.to_addr == "ada@example.org"
    text, report = mail.body_text, f"/games/{game.id}/rounds/12"
    assert "'Corpus' has ended; no more turns." in text
    assert "Won by Ben (8 points); you: 2nd of 2, 5 points." in text
    assert "The final report: http" in text and f"{report}\n" in text
    assert f'{report}">Read the final report</a>' in mail.body_html
    assert "Round 12 is open" not in text and "Round 13" not in text


def test_the_winner_is_answered_in_german(app, game, ada, ben):
    finish(game, ada, ben)
    mark = outbox_mark()
    done = run_ingest(app, corpus("outlook_de.eml", ben))
    assert done.returncode == 0, done.stderr.decode()
    db.session.expire_all()
    [mail] = outbox(after=mark)
    assert "„Corpus“ ist beendet; es werden keine Züge mehr angenommen." in mail.body_text
    assert "Du hast gewonnen (8 Punkte)." in mail.body_text
    assert "Der Schlussbericht: http" in mail.body_text
    assert f'/games/{game.id}/rounds/12">Schlussbericht lesen</a>' in mail.body_html
