"""The deadline rush's browser (bench/deadline_rush.py) saves exactly the turn it types.

It reads the turn form's fields off the page and posts them back unchanged, the
turn typed into the text box, as a browser does. If it misread the form (the
template changed), the service would see a changed form and store other lines
than the typed ones, and the bench's count check would call the turn lost.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import Player, TurnVersion

sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))
from deadline_rush import turn_form  # noqa: E402 (a bench script, not a package)

TYPED = ["QUESTION E blue opal\nTIP A RD1, B GP2", "TIP C YO3\nDROP RD1"]


def test_the_rush_browser_saves_the_typed_turn_also_over_a_standing_one(moonstone, ada):
    path = f"/games/{moonstone.id}/turn"
    forms = []
    for text in TYPED:
        forms.append(turn_form(ada.get(path).get_data(as_text=True)))
        answer = ada.post(path, data={**forms[-1], "text": text, "action": "save"})
        assert answer.status_code == 302 and answer.location.endswith("#saved")
    # The second page showed the first turn standing: the question and the tips read off it.
    assert (forms[0]["q_place"], forms[0]["tip-RD1"]) == ("", "")
    assert (forms[1]["q_place"], forms[1]["q_colour"], forms[1]["q_kind"]) == ("E", "B", "O")
    assert (forms[1]["tip-RD1"], forms[1]["tip-GP2"], forms[1]["round"]) == ("A", "B", "1")
    db.session.rollback()
    stored = db.session.scalars(select(TurnVersion.text).join(Player).where(
        Player.email == "ada@example.org").order_by(TurnVersion.id)).all()
    assert stored == TYPED
