"""The turn form: it shows the standing turn and saves through the turn service."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.models import TurnVersion, utcnow
from vpsleuth.rules import GEM_BY_CODE, parse_question
from vpsleuth.services import games, gm, resolution, turns

BASIS = re.compile(r'name="basis" value="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def form_fields(client, game, **fields) -> dict:
    """What the browser would post: hidden fields from the page plus the choices."""
    page = client.get(f"/games/{game.id}/turn").get_data(as_text=True)
    data = {"csrf_token": CSRF.search(page).group(1), "basis": BASIS.search(page).group(1),
            "round": str(game.open_round.number), "action": "save"}
    data.update({k.replace("tip_", "tip-"): v for k, v in fields.items()})
    return data


def versions(player) -> list[TurnVersion]:
    return db.session.scalars(select(TurnVersion).where(TurnVersion.player_id == player.id)
                              .order_by(TurnVersion.id)).all()


def checked(page: str, gem: str) -> str:
    """The location whose radio is checked for ``gem`` ('' for no tip)."""
    match = re.search(rf'name="tip-{gem}" id="[^"]+" value="([A-GX]?)" checked', page)
    assert match, f"no checked radio for {gem}"
    return match.group(1)


def test_the_form_has_a_radio_group_of_nine_choices_for_each_of_the_36_gems(moonstone, ada):
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert page.count('role="radiogroup"') == 36
    assert page.count('name="tip-RD1"') == 9
    assert '<label for="q-colour">' in page and 'id="q-place"' in page
    assert checked(page, "YO3") == ""


def test_saving_the_grid_stores_the_turn_as_the_viewer_and_shows_it_back(moonstone, ada):
    data = form_fields(ada, moonstone, q_place="E", q_colour="B", q_kind="O", tip_RD1="A",
                       tip_YO3="X")
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    assert response.status_code == 302
    player = games.find_player(moonstone, "Ada")
    standing = turns.standing_turn(moonstone.open_round, player)
    assert standing.question == parse_question("E blue opal")
    assert standing.tips == {GEM_BY_CODE["RD1"]: "A", GEM_BY_CODE["YO3"]: "X"}
    last = versions(player)[-1]
    assert (last.channel, last.entered_by, last.status) == ("web", "ada@example.org", "accepted")
    assert last.text == "QUESTION E blue opal\nTIP A RD1\nTIP X YO3\n"
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert "Your turn for round 1 is saved." in page
    assert checked(page, "RD1") == "A" and checked(page, "YO3") == "X"
    assert '<option value="B" selected>blue</option>' in page
    assert "TIP A RD1" in page and "QUESTION E blue opal" in page


def test_clearing_tips_and_the_question_drops_them(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "QUESTION G solitaire\nTIP A RD1, BP2", channel="email")
    data = form_fields(ada, moonstone, tip_BP2="A")
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302
    assert versions(player)[-1].text == "QUESTION NONE\nTIP A BP2\nDROP RD1\n"
    standing = turns.standing_turn(moonstone.open_round, player)
    assert standing.question is None and standing.tips == {GEM_BY_CODE["BP2"]: "A"}


def test_three_attributes_are_refused_clearly_and_the_entries_are_kept(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "QUESTION G solitaire", channel="email")
    data = form_fields(ada, moonstone, q_place="A", q_colour="R", q_kind="D", q_size="1",
                       tip_GP2="C")
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "a question names at most two attributes" in page
    assert '<option value="1" selected>solitaire</option>' in page and checked(page, "GP2") == "C"
    assert len(versions(player)) == 1, "a form that is no turn reaches no service"
    assert turns.standing_turn(moonstone.open_round, player).question == parse_question(
        "G solitaire")


def test_a_tampered_tip_location_is_refused_for_that_gem(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="Q", tip_BD1="A")
    page = ada.post(f"/games/{moonstone.id}/turn", data=data).get_data(as_text=True)
    assert "tips go to A-G or X (nobody)" in page and 'class="tip-row invalid"' in page
    assert turns.standing_turn(moonstone.open_round,
                               games.find_player(moonstone, "Ada")).is_empty


def test_a_pasted_turn_with_bad_lines_lists_each_line_and_keeps_the_text(moonstone, ada):
    text = "TIP A RD1\nQUESTION X red\nTIP H BP2"
    data = form_fields(ada, moonstone, action="text", text=text)
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<strong>line 2</strong>: questions about the 36th gem (X) are not allowed" in page
    assert "<strong>line 3</strong>: &#39;H&#39; is not a location" in page
    assert f">{text}</textarea>" in page
    player = games.find_player(moonstone, "Ada")
    assert versions(player)[-1].status == "refused" and versions(player)[-1].text == text
    assert turns.standing_turn(moonstone.open_round, player).is_empty


def test_a_pasted_turn_is_applied_like_a_mail(moonstone, ada):
    data = form_fields(ada, moonstone, action="text", text="FRAGE G Einer\nTIPP A RD1 BP2")
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302
    standing = turns.standing_turn(moonstone.open_round, games.find_player(moonstone, "Ada"))
    assert standing.question == parse_question("G solitaire") and len(standing.tips) == 2


def test_turns_sent_by_email_or_entered_by_the_game_master_show_up_in_the_form(moonstone, ada):
    turns.submit_turn(games.find_player(moonstone, "Ada"), "QUESTION C pearl\nTIP F GO2",
                      channel="email")
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert checked(page, "GO2") == "F" and '<option value="C" selected>C</option>' in page
    assert "via email" in page
    gm.enter_turn(games.find_player(moonstone, "Ada"), "TIP G YD3", actor="gm@example.org")
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert checked(page, "YD3") == "G" and checked(page, "GO2") == "F"
    assert "via the game master" in page


def test_a_form_opened_before_an_email_turn_does_not_overwrite_it(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="A")
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "TIP B BD2", channel="email")
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 409 and "changed elsewhere" in page
    assert checked(page, "RD1") == "A", "the entries are kept"
    assert turns.standing_turn(moonstone.open_round, player).tips == {GEM_BY_CODE["BD2"]: "B"}
    data["basis"] = BASIS.search(page).group(1)
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302


def test_prefill_fills_the_grid_with_last_rounds_tips_without_saving(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "TIP A RD1, BP2\nTIP X YO3", channel="web")
    resolution.resolve_round(moonstone)
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert checked(page, "RD1") == ""
    assert 'name="action" value="prefill"' in page
    assert """data-tips='{"BP2": "A", "RD1": "A", "YO3": "X"}'""" in page
    page = ada.get(f"/games/{moonstone.id}/turn?prefill=last").get_data(as_text=True)
    assert "Last round&#39;s tips are filled in" in page
    assert (checked(page, "RD1"), checked(page, "BP2"), checked(page, "YO3")) == ("A", "A", "X")
    assert turns.standing_turn(moonstone.open_round, player).is_empty


def test_fill_in_without_the_script_keeps_what_was_picked_and_written(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "TIP A RD1, BP2\nTIP X YO3", channel="web")
    resolution.resolve_round(moonstone)
    data = form_fields(ada, moonstone, action="prefill", q_place="C", q_colour="R",
                       tip_RD1="C", tip_GO2="F", text="TIP G GP3")
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "Last round&#39;s tips are filled in" in page
    assert "keep your choice: 1." in page  # RD1 stays at C
    assert [checked(page, g) for g in ("RD1", "BP2", "YO3", "GO2")] == ["C", "A", "X", "F"]
    assert '<option value="C" selected>C</option>' in page and ">TIP G GP3</textarea>" in page
    assert versions(player)[-1].round_id != moonstone.open_round.id, "nothing was saved"


def test_one_save_sends_the_choices_then_the_written_lines(moonstone, ada):
    data = form_fields(ada, moonstone, q_place="E", q_colour="B", tip_RD1="A",
                       text="TIP B BP2\nTIP C RD1\n")
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302
    player = games.find_player(moonstone, "Ada")
    assert versions(player)[-1].text == "QUESTION E blue\nTIP A RD1\nTIP B BP2\nTIP C RD1\n"
    standing = turns.standing_turn(moonstone.open_round, player)
    assert standing.tips == {GEM_BY_CODE["RD1"]: "C", GEM_BY_CODE["BP2"]: "B"}, \
        "a later line wins"


def test_written_lines_alone_leave_an_untouched_form_out_of_the_turn(moonstone, ada):
    player = games.find_player(moonstone, "Ada")
    turns.submit_turn(player, "QUESTION G solitaire\nTIP A RD1", channel="email")
    data = form_fields(ada, moonstone, q_place="G", q_size="1", tip_RD1="A", text="TIP B BP2")
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302
    assert versions(player)[-1].text == "TIP B BP2"
    assert len(turns.standing_turn(moonstone.open_round, player).tips) == 2


def test_refused_lines_are_numbered_as_written_and_shown_with_the_text(moonstone, ada):
    text = "TIP B BP2\nTIP H GO1"
    data = form_fields(ada, moonstone, tip_RD1="A", tip_YO3="X", text=text)
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<strong>line 2</strong>: &#39;H&#39; is not a location" in page
    errors_at, text_at = page.index('id="text-errors"'), page.index('<textarea id="turn-text"')
    assert 0 < text_at - errors_at < 1200, "the errors stand just above the text"
    assert page.index('id="problems"') < errors_at and "line 2" not in page[:errors_at]
    assert re.search(r'<textarea id="turn-text"[^>]*aria-invalid="true" autofocus>', page)
    assert f">{text}</textarea>" in page and checked(page, "RD1") == "A", "nothing is lost"
    assert turns.standing_turn(moonstone.open_round,
                               games.find_player(moonstone, "Ada")).is_empty


def test_after_the_deadline_the_form_says_the_round_is_closed_and_refuses(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="A")
    moonstone.open_round.deadline = utcnow() - timedelta(minutes=1)
    db.session.commit()
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert "The deadline of round 1 has passed" in page and "round 2 opens" in page
    assert re.search(r'id="save-turn" disabled', page)
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    refused = versions(games.find_player(moonstone, "Ada"))[-1]
    assert refused.status == "refused"
    assert response.status_code == 303, "post/redirect/get: the address bar ends on a GET"
    assert response.headers["Location"] == f"/games/{moonstone.id}/turn?kept={refused.id}"
    page = ada.get(response.headers["Location"]).get_data(as_text=True)
    assert "The deadline of round 1 passed at" in page and "with the report.</p>" in page
    assert 'id="closed"' not in page, "said once, by the flashed message"
    assert re.search(r'<textarea id="turn-text"[^>]*>TIP A RD1\n</textarea>', page), \
        "the turn sent is not lost"
    assert "kept below as text, to send again once the next round opens" in page
    again = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert "passed at" not in again and 'id="closed"' in again


def test_a_form_of_a_resolved_round_is_refused_naming_the_open_round(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="A")
    resolution.resolve_round(moonstone)
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    assert response.status_code == 303
    page = ada.get(response.headers["Location"]).get_data(as_text=True)
    assert "This turn is for round 1, but round 2 is open" in page
    assert re.search(r'<textarea id="turn-text"[^>]*>TIP A RD1\n</textarea>', page)
    assert "check it and save it for round 2" in page
    assert turns.standing_turn(moonstone.open_round,
                               games.find_player(moonstone, "Ada")).is_empty


def late_turn_page(moonstone, ada, lang: str) -> str:
    """A turn saved a minute after the deadline, on a page in ``lang``: where it leads."""
    ada.get(f"/lang/{lang}")
    data = form_fields(ada, moonstone, tip_RD1="A")
    moonstone.open_round.deadline = utcnow() - timedelta(minutes=1)
    db.session.commit()
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    assert response.status_code == 303  # to a page got again, not left on the POST
    return ada.get(response.headers["Location"]).get_data(as_text=True)


def test_a_late_turn_is_refused_in_german_on_a_german_page(moonstone, ada):
    page = late_turn_page(moonstone, ada, "de")
    assert "Der Abgabetermin von Runde 1 ist am" in page and "Runde 2 beginnt" in page
    assert "Schick ihn noch einmal, sobald die nächste Runde beginnt." in page
    assert "deadline of round 1 passed" not in page
    # the record keeps the English text, as the GM and the API read it
    assert "the deadline of round 1 passed" in versions(
        games.find_player(moonstone, "Ada"))[-1].errors


def test_a_late_turn_is_refused_in_spanish_starting_with_a_capital(moonstone, ada):
    page = late_turn_page(moonstone, ada, "es")
    assert "El plazo de la ronda 1 terminó el" in page and "con el informe.</p>" in page


@pytest.mark.parametrize("lang", ["de"])
def test_the_form_speaks_german_and_saves_german_keywords(moonstone, ada, lang):
    ada.get(f"/lang/{lang}")
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert "Deine Frage" in page and "Zug speichern" in page and '<html lang="de">' in page
    assert '<option value="">beliebig</option>' in page
    data = form_fields(ada, moonstone, q_place="B", q_colour="G", tip_RD1="A")
    assert ada.post(f"/games/{moonstone.id}/turn", data=data).status_code == 302
    assert versions(games.find_player(moonstone, "Ada"))[-1].text == (
        "FRAGE B grüne Steine\nTIPP A RD1\n")
    assert "Dein Zug für Runde 1 ist gespeichert." in ada.get(
        f"/games/{moonstone.id}/turn").get_data(as_text=True)


def test_a_withdrawn_player_sees_why_and_cannot_save(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="A")
    games.withdraw_player(games.find_player(moonstone, "Ada"))
    page = ada.get(f"/games/{moonstone.id}/turn").get_data(as_text=True)
    assert "withdrawn you from this game" in page and 'id="save-turn" disabled' in page
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    assert response.status_code == 303
    assert "Ada has been withdrawn from" in ada.get(response.headers["Location"]).get_data(
        as_text=True)


def test_a_grid_form_without_its_round_is_refused_as_out_of_date(moonstone, ada):
    data = form_fields(ada, moonstone, tip_RD1="A")
    del data["round"]
    response = ada.post(f"/games/{moonstone.id}/turn", data=data)
    assert response.status_code == 400 and "out of date" in response.get_data(as_text=True)
    assert versions(games.find_player(moonstone, "Ada")) == []
