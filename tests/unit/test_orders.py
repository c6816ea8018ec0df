"""The turn language: parsing good and bad turns, and writing turns back."""

import pytest

from vpsleuth.orders import HINTS, LineError, ParsedTurn, format_turn, parse_location, parse_turn
from vpsleuth.rules import GEM_BY_CODE, GEMS, LOCATIONS, Question


def gems(*codes: str) -> set:
    return {GEM_BY_CODE[c] for c in codes}


def tips(**by_location: str) -> dict:
    """tips(A="RD1 BD1", X="YO3") -> {gem: location}."""
    return {GEM_BY_CODE[c]: loc for loc, codes in by_location.items() for c in codes.split()}


def only_error(text: str) -> LineError:
    parsed = parse_turn(text)
    assert not parsed.ok
    assert len(parsed.errors) == 1, parsed.errors
    return parsed.errors[0]


# --- good turns ---------------------------------------------------------------------------


def test_an_english_turn_parses():
    parsed = parse_turn("QUESTION E blue opal\nTIP A RD1\nTIP X yellow opal cluster\n")
    assert parsed.ok
    assert parsed.change.question == Question.from_codes("E:BO")
    assert parsed.change.tips == tips(A="RD1", X="YO3")


def test_a_german_turn_parses():
    parsed = parse_turn("FRAGE E blau Opal\nTIPP A Diamant rot I\nTIPP niemand Opal gelb III\n")
    assert parsed.ok
    assert parsed.change.question == Question.from_codes("E:BO")
    assert parsed.change.tips == tips(A="RD1", X="YO3")


@pytest.mark.parametrize("keyword", ["QUESTION", "question", "Q", "q", "Frage", "FRAGE:"])
def test_question_keywords_in_any_case(keyword):
    parsed = parse_turn(f"{keyword} G 1")
    assert parsed.ok
    assert parsed.change.question == Question.from_codes("G:1")


@pytest.mark.parametrize("keyword", ["TIP", "tip", "Tips", "TIPP", "tipps", "TIP:"])
def test_tip_keywords_in_any_case(keyword):
    assert parse_turn(f"{keyword} b gp2").change.tips == tips(B="GP2")


@pytest.mark.parametrize("word", ["X", "x", "nobody", "Nobody", "niemand", "NIEMAND", "none"])
def test_tips_to_nobody_go_to_x(word):
    parsed = parse_turn(f"TIP {word} YO3")
    assert parsed.ok
    assert parsed.change.tips == tips(X="YO3")


def test_comments_and_blank_lines_are_ignored():
    text = ("# my turn for round 3\n"
            "\n"
            "   \n"
            "// a whole-line comment\n"
            "   // indented\n"
            "TIP A RD1   # trailing comment\n"
            "#TIP B BD2\n")
    parsed = parse_turn(text)
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1")


def test_windows_line_endings_are_fine():
    parsed = parse_turn("QUESTION A red\r\nTIP A RD1\r\n")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1")


@pytest.mark.parametrize("end", ["END", "end", "ENDE", "Ende"])
def test_end_ignores_everything_below(end):
    parsed = parse_turn(f"TIP A RD1\n{end}\nTIP B BD2\nthis is a signature\n-- \nBob")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1")


@pytest.mark.parametrize("word", ["REPEAT", "repeat", "WIEDERHOLE", "wiederholen"])
def test_repeat_asks_for_last_rounds_tips(word):
    parsed = parse_turn(word)
    assert parsed.ok
    assert parsed.change.repeat
    assert not parsed.change.is_empty


def test_repeat_may_be_combined_with_new_tips():
    parsed = parse_turn("REPEAT\nTIP C GD3")
    assert parsed.change.repeat
    assert parsed.change.tips == tips(C="GD3")


@pytest.mark.parametrize("line", ["DROP RD1", "drop rd1", "WITHDRAW RD1", "STREICHE Diamant rot I"])
def test_drop_withdraws_one_tip(line):
    parsed = parse_turn(line)
    assert parsed.ok
    assert parsed.change.dropped == gems("RD1")
    assert not parsed.change.drop_all


def test_drop_withdraws_several_tips():
    assert parse_turn("DROP RD1, BD2; yellow opal cluster").change.dropped == gems(
        "RD1", "BD2", "YO3")
    assert parse_turn("DROP RD1 BD2 GD3").change.dropped == gems("RD1", "BD2", "GD3")


@pytest.mark.parametrize("line", ["DROP ALL", "drop all", "STREICHE ALLE", "streichen alles"])
def test_drop_all_withdraws_every_tip(line):
    parsed = parse_turn(line)
    assert parsed.ok
    assert parsed.change.drop_all
    assert parsed.change.dropped == set()


@pytest.mark.parametrize("line", ["QUESTION NONE", "question none", "FRAGE KEINE", "Q -",
                                  "FRAGE nichts"])
def test_question_none_withdraws_the_question(line):
    parsed = parse_turn(line)
    assert parsed.ok
    assert parsed.change.changes_question
    assert parsed.change.question is None


def test_a_turn_without_question_line_keeps_the_standing_question():
    change = parse_turn("TIP A RD1").change
    assert not change.changes_question


def test_several_tips_per_line_are_comma_separated():
    parsed = parse_turn("TIP A RD1, BD1, GD1")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1 BD1 GD1")


def test_codes_may_be_separated_by_spaces():
    assert parse_turn("TIP A RD1 BD1 gd1").change.tips == tips(A="RD1 BD1 GD1")


def test_several_locations_per_line():
    parsed = parse_turn("TIP X YO3, B BP2; c GD3, RP1")
    assert parsed.ok
    assert parsed.change.tips == tips(X="YO3", B="BP2", C="GD3 RP1")


def test_long_gem_names_are_comma_separated():
    parsed = parse_turn("TIP A red diamond solitaire, blue diamond solitaire, B grüne Perle II")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1 BD1", B="GP2")


@pytest.mark.parametrize("word", ["nobody", "niemand", "X"])
def test_a_later_tip_on_the_line_may_go_to_nobody(word):
    parsed = parse_turn(f"TIP A RD1, {word} YO3")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1", X="YO3")


def test_the_same_tip_twice_is_harmless():
    parsed = parse_turn("TIP A RD1\nTIP A rd1, RD1")
    assert parsed.ok
    assert parsed.change.tips == tips(A="RD1")


def test_an_empty_message_changes_nothing():
    for text in ("", "\n\n", "# only a comment\n", "END\nTIP A RD1"):
        parsed = parse_turn(text)
        assert parsed.ok
        assert parsed.change.is_empty


def test_a_whole_turn_round_trips_through_its_parts():
    parsed = parse_turn("FRAGE C grün Zweier\nTIPP A RD1\nSTREICHE BD1\nWIEDERHOLE")
    change = parsed.change
    assert (change.question.codes, change.tips, change.dropped, change.repeat) == (
        "C:G2", tips(A="RD1"), gems("BD1"), True)


# --- bad turns: line number, message and hint ---------------------------------------------


def test_an_unknown_command_is_reported_with_its_line():
    error = only_error("TIP A RD1\n\nBUY A RD1\n")
    assert error.line == 3
    assert error.text == "BUY A RD1"
    assert error.message == "'BUY' is not a command"
    assert error.hint == HINTS["unknown"]


def test_a_line_starting_with_a_digit_is_not_a_command():
    error = only_error("1 TIP A RD1")
    assert (error.line, error.message) == (1, "'1' is not a command")


def test_a_bad_location_is_reported():
    error = only_error("# hi\nTIP H RD1")
    assert error.line == 2
    assert error.message == "'H' is not a location; tips go to A-G or X (nobody)"
    assert error.hint == HINTS["tip"]


def test_a_tip_without_gem_is_reported():
    error = only_error("TIP B")
    assert (error.line, error.message, error.hint) == (1, "no gem after B", HINTS["tip"])


def test_a_tip_without_location_or_gem_is_reported():
    error = only_error("TIP")
    assert (error.line, error.message, error.hint) == (
        1, "no location and gem after TIP", HINTS["tip"])


def test_a_bad_gem_in_a_tip_is_reported():
    error = only_error("TIP A RD1\nTIP A red banana solitaire")
    assert error.line == 2
    assert error.message == "'banana' is not a colour, kind or size"
    assert error.hint == HINTS["tip"]


def test_an_incomplete_gem_in_a_tip_is_reported():
    error = only_error("TIP A red diamond")
    assert error.message == "'red diamond' names no size"


def test_a_question_about_x_is_reported():
    error = only_error("QUESTION X red")
    assert error.line == 1
    assert error.message.startswith("questions about the 36th gem (X) are not allowed")
    assert error.hint == HINTS["question"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("QUESTION E yellow cluster opal", "three attributes name a single gem"),
        ("QUESTION E red blue", "two values of one colour: red and blue"),
        ("QUESTION E", "names one attribute or two of different categories"),
        ("QUESTION", "'' is not a placeholder"),
        ("QUESTION H red", "'H' is not a placeholder"),
        ("FRAGE E Smaragd", "'Smaragd' is not a colour, kind or size"),
    ],
)
def test_an_illegal_question_is_reported(line, message):
    error = only_error(f"TIP A RD1\n{line}")
    assert error.line == 2
    assert message in error.message
    assert error.hint == HINTS["question"]


def test_the_same_gem_tipped_at_two_places_on_one_line_is_reported():
    error = only_error("TIP A RD1, B Diamant rot I")
    assert error.line == 1
    assert error.message == "RD1 is tipped at A and at B on this line; one tip per gem"
    assert error.hint == HINTS["tip"]


def test_drop_without_gem_is_reported():
    error = only_error("DROP")
    assert (error.line, error.message, error.hint) == (1, "no gem to withdraw", HINTS["drop"])


def test_a_bad_gem_in_a_drop_is_reported():
    error = only_error("DROP RD1, banana")
    assert (error.line, error.message, error.hint) == (
        1, "'banana' is not a colour, kind or size", HINTS["drop"])


@pytest.mark.parametrize(("line", "kind"), [("TIP A RD4", "tip"), ("TIP A BD1 RD4", "tip"),
                                            ("DROP rd4", "drop"), ("QUESTION A RD4", "question")])
def test_a_size_beyond_three_is_named(line, kind):
    error = only_error(line)
    assert (error.message, error.hint) == ("no gem RD4: sizes are 1-3", HINTS[kind])
    assert str(error).startswith("line 1: no gem RD4: sizes are 1-3 (write: ")


@pytest.mark.parametrize(("line", "codes"), [("QUESTION A R", "A:R"), ("QUESTION D D", "D:D"),
                                             ("FRAGE G g", "G:G"), ("Q E b o", "E:BO")])
def test_a_question_may_name_an_attribute_by_its_letter(line, codes):
    parsed = parse_turn(line)
    assert parsed.ok
    assert parsed.change.question == Question.from_codes(codes)


def test_every_bad_line_is_reported_in_order():
    text = "FOO\nTIP A RD1\nTIP Q BD1\nQUESTION X red\nDROP banana\n"
    parsed = parse_turn(text)
    assert not parsed.ok
    assert [e.line for e in parsed.errors] == [1, 3, 4, 5]
    assert [e.hint for e in parsed.errors] == [
        HINTS["unknown"], HINTS["tip"], HINTS["question"], HINTS["drop"]]


def test_errors_after_end_are_not_reported():
    parsed = parse_turn("TIP A RD1\nEND\nFOO BAR\nTIP Z ZZ9")
    assert parsed.ok


def test_a_line_error_reads_as_a_sentence():
    error = LineError(4, "TIP H RD1", "'H' is not a location", "TIP <A-G or X> <gem>")
    assert str(error) == "line 4: 'H' is not a location (write: TIP <A-G or X> <gem>)"


def test_a_parsed_turn_is_ok_only_without_errors():
    assert parse_turn("TIP A RD1").ok
    assert not parse_turn("TIP A RD1\nNOPE").ok
    assert isinstance(parse_turn("x"), ParsedTurn)


@pytest.mark.parametrize(
    "text",
    [
        "\x00\x01\x02\xff\xfe",
        "TIP \x00 RD1",
        "QUESTION \udcff",
        "\ufeffTIP A RD1",
        "TIP A " + "RD1 " * 5000,
        "TIP A " + "R" * 100_000,
        "Q " * 50_000,
        "#" * 100_000,
        "TIP A " + ",".join(["RD1"] * 10_000),
        "TIP " + ", ".join(f"{loc} {g.code}" for g in GEMS for loc in LOCATIONS),
        "\n".join(["TIP A RD1"] * 5000),
        "ÄÖÜ äöü ß\u2028TIP A RD1\u0085DROP\x0b\x0c",
        "TIP A 𝐑𝐃𝟏",
        "TIP A ½",
    ],
)
def test_garbage_input_never_raises(text):
    parsed = parse_turn(text)
    assert isinstance(parsed, ParsedTurn)
    assert all(isinstance(e, LineError) and e.line >= 1 and e.hint for e in parsed.errors)


def test_parse_location_knows_placeholders_and_nobody():
    assert [parse_location(w) for w in ("a", "G:", "x", "Nobody", "niemand,")] == [
        "A", "G", "X", "X", "X"]
    assert [parse_location(w) for w in ("H", "AB", "", "ß", "1")] == [None] * 5


# --- writing a turn back ------------------------------------------------------------------


def test_format_turn_writes_english_lines_in_sheet_order():
    question = Question.from_codes("E:BO")
    text = format_turn(question, tips(A="RD2 BD1", X="YO3", C="GD3"))
    assert text == "QUESTION E blue opal\nTIP A BD1, RD2\nTIP C GD3\nTIP X YO3\n"


def test_format_turn_writes_german_lines():
    text = format_turn(Question.from_codes("A:G3"), tips(B="GP2"), "de")
    assert text == "FRAGE A grüne Dreier\nTIPP B GP2\n"


def test_format_turn_without_question_or_tips():
    assert format_turn(None, {}) == "QUESTION NONE\n"
    assert format_turn(None, {}, "de") == "FRAGE KEINE\n"


def test_format_turn_falls_back_to_english_keywords():
    assert format_turn(None, tips(A="RD1"), "fr") == "QUESTION NONE\nTIP A RD1\n"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_formatted_turn_parses_back(lang):
    question = Question.from_codes("D:Y2")
    standing = {g: LOCATIONS[i % 8] for i, g in enumerate(GEMS)}
    parsed = parse_turn(format_turn(question, standing, lang))
    assert parsed.ok
    assert parsed.change.question == question
    assert parsed.change.tips == standing


# --- the order of lines: a later line wins (RULES.md 6a) ----------------------------------


def applied(text: str, standing: dict | None = None, last_round: dict | None = None) -> dict:
    """The tips standing after the whole of ``text`` applied to ``standing``."""
    parsed = parse_turn(text)
    assert parsed.ok, parsed.errors
    tips_now = dict(standing or {})
    parsed.change.apply_tips(tips_now, lambda: last_round or {})
    return tips_now


LAST_ROUND = tips(B="RD1", C="GO3")


def test_a_tip_then_repeat_leaves_last_rounds_tip_for_that_gem():
    assert applied("TIP A RD1\nREPEAT", last_round=LAST_ROUND) == tips(B="RD1", C="GO3")


def test_a_tip_then_repeat_keeps_the_tip_when_last_round_had_none_for_the_gem():
    assert applied("TIP A BD1\nREPEAT", last_round=LAST_ROUND) == tips(A="BD1", B="RD1",
                                                                      C="GO3")


def test_repeat_then_a_tip_leaves_the_tip():
    assert applied("REPEAT\nTIP A RD1", last_round=LAST_ROUND) == tips(A="RD1", C="GO3")


def test_a_tip_then_drop_all_leaves_no_tip():
    assert applied("TIP F YO3\nDROP ALL") == {}
    assert applied("TIP F YO3\nSTREICHE ALLE", standing=tips(A="RD1")) == {}


def test_drop_all_then_a_tip_leaves_only_that_tip():
    assert applied("DROP ALL\nTIP F YO3", standing=tips(A="RD1 BD1")) == tips(F="YO3")


def test_repeat_then_drop_all_leaves_no_tip():
    assert applied("REPEAT\nDROP ALL", last_round=LAST_ROUND) == {}


def test_drop_all_then_repeat_leaves_last_rounds_tips():
    assert applied("DROP ALL\nREPEAT", standing=tips(A="BD1"), last_round=LAST_ROUND) \
        == LAST_ROUND


def test_a_tip_then_a_drop_withdraws_it_and_a_drop_then_a_tip_places_it():
    assert applied("TIP A RD1\nDROP RD1", standing=tips(C="RD1")) == {}
    assert applied("DROP RD1\nTIP A RD1", standing=tips(C="RD1")) == tips(A="RD1")


def test_a_drop_then_repeat_brings_last_rounds_tip_back_and_repeat_then_drop_does_not():
    assert applied("DROP RD1\nREPEAT", last_round=LAST_ROUND) == LAST_ROUND
    assert applied("REPEAT\nDROP RD1", last_round=LAST_ROUND) == tips(C="GO3")


def test_a_later_tip_for_the_same_gem_wins():
    assert applied("TIP A RD1\nTIP B rd1") == tips(B="RD1")
    assert applied("TIP A RD1, BD1\n# changed my mind\nTIP X RD1") == tips(X="RD1", A="BD1")


def test_lines_apply_over_a_standing_turn_gem_by_gem():
    standing = tips(A="RD1", D="BD1", E="YP2")
    text = "TIP G BD1\nDROP YP2\nREPEAT\nTIP F GO3\nDROP RD1\nTIP C YP2"
    # RD1: last round's B, then dropped; BD1: G (last round had none); GO3: F over last
    # round's C; YP2: dropped, then C.
    assert applied(text, standing, LAST_ROUND) == tips(G="BD1", F="GO3", C="YP2")


def test_drop_all_withdraws_standing_tips_and_those_of_earlier_lines():
    assert applied("TIP A GD1\nDROP ALL\nTIP E YO3", standing=tips(C="RD1")) == tips(E="YO3")


def test_last_round_is_read_only_when_a_repeat_applies():
    def no_reading():
        raise AssertionError("last round read without REPEAT")

    change = parse_turn("TIP A RD1\nDROP ALL\nDROP BD1").change
    change.apply_tips({}, no_reading)


def test_the_service_may_keep_more_than_the_location_for_each_tip():
    standing = {GEM_BY_CODE["BD1"]: ("D", 7)}
    parse_turn("REPEAT\nTIP A RD1").change.apply_tips(
        standing, lambda: tips(C="GO3"), lambda location: (location, 8))
    assert standing == {GEM_BY_CODE["BD1"]: ("D", 7), GEM_BY_CODE["RD1"]: ("A", 8),
                        GEM_BY_CODE["GO3"]: ("C", 8)}


def test_question_then_question_none_withdraws_the_question():
    change = parse_turn("QUESTION A red\nTIP B BD1\nQUESTION NONE").change
    assert change.changes_question and change.question is None


def test_question_none_then_a_question_asks_it():
    change = parse_turn("FRAGE KEINE\nFRAGE A rot").change
    assert change.question == Question.from_codes("A:R")


def test_a_later_question_replaces_an_earlier_one():
    change = parse_turn("QUESTION A red\nTIP A RD1\nQUESTION B blue").change
    assert change.question == Question.from_codes("B:B")


def test_a_bad_question_line_refuses_the_turn_even_when_a_later_one_replaces_it():
    error = only_error("QUESTION X red\nQUESTION A red")
    assert (error.line, error.hint) == (1, HINTS["question"])


def test_the_summary_of_a_change_follows_the_order_of_its_lines():
    change = parse_turn("TIP A RD1\nDROP BD1\nDROP RD1\nTIP B BD1\nTIP C GO3").change
    assert (change.tips, change.dropped) == (tips(B="BD1", C="GO3"), gems("RD1"))
    assert not change.drop_all and not change.repeat
    change = parse_turn("REPEAT\nTIP A RD1\nDROP ALL\nDROP BD1").change
    assert (change.tips, change.dropped, change.drop_all, change.repeat) == (
        {}, gems("BD1"), True, False)


def test_a_turn_of_drops_only_is_not_empty():
    assert not parse_turn("TIP A RD1\nDROP RD1").change.is_empty
