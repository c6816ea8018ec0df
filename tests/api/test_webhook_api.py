"""The chat webhook through the API: its game master only, the address masked, refusals said.

Every answer is checked against openapi.json by the validating client.
"""

from __future__ import annotations

from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import AuditEntry, GameMaster, GameWebhook

HOOK = "http://127.0.0.1:9/api/webhooks/42/secret-token-Zq7"  # tests allow loopback + port


def test_the_gm_sets_reads_and_removes_the_webhook_and_never_gets_the_address_back(api, cast):
    gm, path = cast.tokens["gm"], f"/games/{cast.game.id}/webhook"
    empty = api.get(path, gm).get_json()
    assert empty == {"game_id": cast.game.id, "configured": False, "url": None, "format": None,
                     "last_at": None, "last_ok": None, "last_result": None}
    saved = api.put(path, gm, {"url": HOOK, "format": "slack"})
    assert saved.status_code == 200
    assert saved.get_json()["url"] == "http://127.0.0.1:9/…-Zq7"
    assert "secret" not in saved.get_data(as_text=True)
    assert api.get(path, gm).get_json()["format"] == "slack"
    assert api.call("DELETE", path, gm).get_json()["configured"] is False
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook)).all() == []
    actions = db.session.scalars(select(AuditEntry.action).where(
        AuditEntry.action.like("%webhook")).order_by(AuditEntry.id)).all()
    assert actions == ["set_webhook", "clear_webhook"]


def test_a_private_address_is_refused_in_the_callers_language_and_nothing_is_stored(api, cast):
    db.session.get(GameMaster, cast.game.game_master_id).language = "de"  # Gail reads German
    db.session.commit()
    gm, path = cast.tokens["gm"], f"/games/{cast.game.id}/webhook"
    refused = api.put(path, gm, {"url": "https://169.254.169.254/latest", "format": "discord"})
    assert refused.status_code == 400
    assert "einer link-lokalen Adresse" in refused.get_json()["error"]["message"]
    wrong = api.put(path, gm, {"url": HOOK, "format": "teams"})
    assert wrong.status_code == 400 and wrong.get_json()["error"]["details"]["field"] == "format"
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook)).all() == []


def test_players_and_other_gms_cannot_touch_it(api, cast):
    path = f"/games/{cast.game.id}/webhook"
    for who, status in (("ada", 403), ("other_gm", 404), ("cy", 404)):
        assert api.put(path, cast.tokens[who], {"url": HOOK, "format": "slack"}
                       ).status_code == status
        assert api.get(path, cast.tokens[who]).status_code == status
    db.session.rollback()
    assert db.session.scalars(select(GameWebhook)).all() == []
