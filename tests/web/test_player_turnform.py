"""The turn form's translation to the turn language, without an app or database."""

from __future__ import annotations

from vpsleuth.orders import parse_turn
from vpsleuth.rules import GEM_BY_CODE, Turn, parse_question
from vpsleuth.web.player.turnform import TurnForm, basis_of, gem_rows


def posted(**fields) -> TurnForm:
    data = {k.replace("_", "-") if k.startswith("tip") else k: v for k, v in fields.items()}
    return TurnForm.from_post(data)


def test_a_question_and_tips_become_one_question_line_and_tip_lines_per_location():
    form = posted(q_place="e", q_colour="B", q_kind="O", tip_RD1="A", tip_BP2="A", tip_YO3="x")
    assert form.errors == {}
    text = form.to_text(Turn())
    assert text == "QUESTION E blue opal\nTIP A RD1, BP2\nTIP X YO3\n"
    change = parse_turn(text).change
    assert change.question == parse_question("E blue opal")
    assert change.tips == {GEM_BY_CODE["RD1"]: "A", GEM_BY_CODE["BP2"]: "A",
                           GEM_BY_CODE["YO3"]: "X"}


def test_gems_set_back_to_no_tip_are_dropped_and_a_cleared_question_is_withdrawn():
    standing = Turn(parse_question("G solitaire"), {GEM_BY_CODE["RD1"]: "A",
                                                     GEM_BY_CODE["GO3"]: "B"})
    form = posted(tip_GO3="B")
    assert form.to_text(standing) == "QUESTION NONE\nTIP B GO3\nDROP RD1\n"
    change = parse_turn(form.to_text(standing)).change
    assert change.changes_question and change.question is None
    assert change.dropped == {GEM_BY_CODE["RD1"]}


def test_german_pages_write_german_keywords_that_parse_back():
    form = posted(q_place="A", q_size="3", q_kind="D", tip_GP1="C")
    text = form.to_text(Turn(None, {GEM_BY_CODE["RD1"]: "A"}), "de")
    assert text == "FRAGE A Dreier-Diamanten\nTIPP C GP1\nSTREICHE RD1\n"
    assert parse_turn(text).ok


def test_an_empty_form_over_an_empty_turn_writes_nothing():
    assert posted().to_text(Turn()) == ""


def test_three_attributes_are_refused_with_a_message_about_the_question():
    form = posted(q_place="A", q_colour="R", q_kind="D", q_size="1")
    assert "at most two attributes" in form.errors["question"]


def test_a_placeholder_without_attribute_and_attributes_without_placeholder_are_refused():
    assert "choose one attribute" in posted(q_place="C").errors["question"]
    assert "choose a placeholder" in posted(q_colour="Y").errors["question"]
    assert "A-G" in posted(q_place="X", q_colour="Y").errors["question"]


def test_tampered_values_are_refused_field_by_field_in_german_too():
    form = TurnForm.from_post({"q_place": "B", "q_colour": "purple", "tip-RD1": "Q"}, "de")
    assert form.errors["q_colour"] == "kein Wert dieser Art"
    assert form.errors["tip-RD1"] == "Tipps gehen an A-G oder X (niemand)"
    assert "tip-RD1" not in form.tips


def test_a_standing_turn_fills_the_form_and_last_rounds_tips_can_replace_its_tips():
    standing = Turn(parse_question("E blue opal"), {GEM_BY_CODE["RD1"]: "A"})
    form = TurnForm.from_turn(standing)
    assert (form.placeholder, form.colour, form.kind, form.size) == ("E", "B", "O", "")
    assert form.tips == {"RD1": "A"}
    prefilled = TurnForm.from_turn(standing, tips={GEM_BY_CODE["YO3"]: "X"})
    assert prefilled.tips == {"YO3": "X"} and prefilled.placeholder == "E"


def test_the_basis_changes_whenever_the_standing_turn_changes():
    one = Turn(None, {GEM_BY_CODE["RD1"]: "A"})
    assert basis_of(one) == basis_of(Turn(None, {GEM_BY_CODE["RD1"]: "A"}))
    assert basis_of(one) != basis_of(Turn(None, {GEM_BY_CODE["RD1"]: "B"}))
    assert basis_of(one) != basis_of(Turn(parse_question("A red"), one.tips))


def test_the_grid_has_nine_rows_of_four_gems_covering_all_36():
    rows = gem_rows()
    assert len(rows) == 9 and all(len(gems) == 4 for _, _, gems in rows)
    assert len({g.code for _, _, gems in rows for g in gems}) == 36
    assert [g.code for g in rows[0][2]] == ["RD1", "BD1", "GD1", "YD1"]


def test_a_form_knows_whether_it_still_shows_the_standing_turn():
    standing = Turn(parse_question("E blue opal"), {GEM_BY_CODE["RD1"]: "A"})
    assert posted(q_place="E", q_colour="B", q_kind="O", tip_RD1="A").shows(standing)
    assert not posted(q_place="E", q_colour="B", q_kind="O").shows(standing)
    assert not posted(q_place="E", q_colour="B", tip_RD1="A").shows(standing)
    assert posted().shows(Turn())


def test_filling_in_last_rounds_tips_keeps_every_pick_already_made():
    form = posted(tip_RD1="C", tip_GO2="F")
    last = {GEM_BY_CODE["RD1"]: "A", GEM_BY_CODE["BP2"]: "A", GEM_BY_CODE["GO2"]: "F"}
    assert form.fill_in(last) == (1, 1)  # BP2 filled in; RD1 kept at C (GO2 agrees)
    assert form.tips == {"RD1": "C", "GO2": "F", "BP2": "A"}
