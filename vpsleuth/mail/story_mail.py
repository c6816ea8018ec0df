"""The game told afterwards as a section of the final report mail (issue 13, section 2).

The report templates include ``email/_story.txt`` / ``email/_story.html``; those
call ``final_story(game, lang)``, a template global registered here, so the
mail code that renders reports needs no change to carry the section.
"""

from __future__ import annotations

from flask import Flask, current_app

from ..models import Game
from ..rules import Question
from ..services import stories


def final_story(game: Game, lang: str = "en") -> dict | None:
    """What the partial templates show: the story with question texts in ``lang``.

    Only the final report includes it, so the tips' part is told (the game has ended).
    None when STORY_IN_FINAL_REPORT is off (it is on by default) or the story
    could not be told: the mail then only links the story page.

    The story is read as stored: the final report is queued in the transaction
    that stores it (services/stories.py), so rendering computes nothing.
    """
    if not current_app.config.get("STORY_IN_FINAL_REPORT"):
        return None
    told = stories.ready(game)
    if told is None:
        return None

    def short(codes: str) -> str:
        return Question.from_codes(codes).short(lang)
    rounds = [{**r, "questions": [{**q, "short": short(q["question"])} for q in r["questions"]],
               "best": {**r["best"], "short": short(r["best"]["question"])} if r["best"]
               else None} for r in told["rounds"]]
    proved = [{**g, "because": [{**b, "short": short(b["question"])}
                                for b in g["because"] or []]}
              for g in told["gems"] if g["certain_in_round"] is not None]
    return {**told, "rounds": rounds, "proved": proved,
            "unproved": [g["gem"] for g in told["gems"] if g["certain_in_round"] is None]}


def init_app(app: Flask) -> None:
    app.jinja_env.globals["final_story"] = final_story
