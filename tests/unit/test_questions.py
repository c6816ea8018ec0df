"""Questions: which are legal, their answers and their wording (RULES.md sections 3, 4)."""

from itertools import combinations

import pytest

from vpsleuth.rules import (
    ATTRIBUTES,
    COLOURS,
    GEM_BY_CODE,
    GEMS,
    KINDS,
    PLACEHOLDERS,
    SIZES,
    Distribution,
    Question,
    QuestionError,
    make_question,
    parse_question,
)
from vpsleuth.rules.gems import attribute

A_HOLDS = ["RD1", "RD2", "BD1", "GO3", "YP2"]
B_HOLDS = ["RP1", "RP2", "RP3", "BO1", "BO2"]


@pytest.fixture(scope="module")
def dist() -> Distribution:
    """A by hand; C-G and X get the rest in sheet order."""
    placement = {GEM_BY_CODE[c]: "A" for c in A_HOLDS}
    placement |= {GEM_BY_CODE[c]: "B" for c in B_HOLDS}
    rest = [g for g in GEMS if g not in placement]
    for i, gem in enumerate(rest):
        placement[gem] = "CDEFGX"[i // 5]
    return Distribution(placement)


def attrs(codes: str) -> list:
    return [attribute(c) for c in codes]


ONE_ATTRIBUTE = [a.code for a in ATTRIBUTES]
TWO_CATEGORIES = [
    x.code + y.code
    for first, second in ((COLOURS, KINDS), (COLOURS, SIZES), (KINDS, SIZES))
    for x in first
    for y in second
]


# --- legal questions ----------------------------------------------------------------------


def test_there_are_43_legal_attribute_choices():
    assert len(ONE_ATTRIBUTE) == 10
    assert len(TWO_CATEGORIES) == 4 * 3 + 4 * 3 + 3 * 3


@pytest.mark.parametrize("code", ONE_ATTRIBUTE)
def test_one_attribute_of_any_category_is_a_legal_question(code):
    q = make_question("E", attrs(code))
    assert q.placeholder == "E"
    assert q.attributes == (attribute(code),)


@pytest.mark.parametrize("codes", TWO_CATEGORIES)
def test_two_attributes_of_different_categories_are_a_legal_question(codes):
    q = make_question("G", attrs(codes))
    assert set(q.attributes) == set(attrs(codes))
    assert len(q.attributes) == 2


@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
def test_every_placeholder_may_be_asked(placeholder):
    assert make_question(placeholder, attrs("B")).placeholder == placeholder


def test_placeholder_letter_case_and_spaces_do_not_matter():
    assert make_question(" c ", attrs("R")).placeholder == "C"


def test_attribute_order_does_not_change_the_question():
    assert make_question("A", attrs("DR")) == make_question("A", attrs("RD"))
    assert make_question("A", attrs("3Y")) == make_question("A", attrs("Y3"))
    assert make_question("A", attrs("O2")) == make_question("A", attrs("2O"))


def test_attributes_are_stored_colour_size_kind():
    assert make_question("A", attrs("DR")).attributes == tuple(attrs("RD"))
    assert make_question("A", attrs("D3")).attributes == tuple(attrs("3D"))


def test_naming_the_same_attribute_twice_asks_about_it_once():
    assert make_question("A", attrs("RR")).attributes == (attribute("R"),)


# --- illegal questions --------------------------------------------------------------------


def test_question_error_is_a_value_error():
    assert issubclass(QuestionError, ValueError)


@pytest.mark.parametrize("codes", ["YO3", "RD1", "B2P"])
def test_three_attributes_are_not_a_legal_question(codes):
    with pytest.raises(QuestionError, match="three attributes name a single gem"):
        make_question("A", attrs(codes))


@pytest.mark.parametrize(
    ("codes", "category"),
    [(a.code + b.code, cat) for cat, values in
     (("colour", COLOURS), ("kind", KINDS), ("size", SIZES))
     for a, b in combinations(values, 2)],
)
def test_two_values_of_the_same_category_are_not_a_legal_question(codes, category):
    with pytest.raises(QuestionError, match=f"two values of one {category}: .*"
                                            "name one value per category"):
        make_question("A", attrs(codes))


def test_two_colours_are_refused_even_beside_a_kind():
    with pytest.raises(QuestionError, match="two values of one colour: red and blue"):
        make_question("A", attrs("RBD"))


def test_a_question_without_attributes_is_not_legal():
    with pytest.raises(QuestionError, match="names one attribute or two of different categories"):
        make_question("A", [])


@pytest.mark.parametrize("place", ["X", "x", " X "])
def test_a_question_about_the_36th_gem_is_refused_with_its_own_message(place):
    with pytest.raises(QuestionError, match=r"^questions about the 36th gem \(X\) are not allowed"):
        make_question(place, attrs("R"))


@pytest.mark.parametrize("place", ["H", "Z", "", "AB", "1"])
def test_an_unknown_placeholder_is_refused(place):
    with pytest.raises(QuestionError, match=f"^'{place}' is not a placeholder; ask one of A-G$"):
        make_question(place, attrs("R"))


# --- parsing question text ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("E blue opal", "E:BO"),
        ("E: blau Opal", "E:BO"),
        ("e BO", "E:BO"),
        ("G 1", "G:1"),
        ("G solitaires", "G:1"),
        ("G Einer", "G:1"),
        ("A cluster diamonds", "A:3D"),
        ("A Dreier-Diamanten", "A:3D"),
        ("B grüne", "B:G"),
        ("C, yellow pearls", "C:YP"),
        ("D II", "D:2"),
    ],
)
def test_question_text_in_english_or_german_parses(text, codes):
    assert parse_question(text).codes == codes


@pytest.mark.parametrize(
    ("text", "codes"),
    [("A R", "A:R"), ("D D", "D:D"), ("G G", "G:G"), ("b y", "B:Y"), ("E o", "E:O"),
     ("C R D", "C:RD"), ("F p 2", "F:2P"), ("A: B", "A:B")],
)
def test_a_single_attribute_may_be_written_by_its_letter(text, codes):
    # The first word is the placeholder, so "D D" asks for diamonds at D (RULES.md 1).
    assert parse_question(text).codes == codes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A R B", "two values of one colour: red and blue"),
        ("A R D 1", "three attributes name a single gem"),
        ("A RD4", "no gem RD4: sizes are 1-3"),
        ("", "'' is not a placeholder; start with one of A-G"),
        ("E:blau", "'E:blau' is not a placeholder"),
        ("AB red", "'AB' is not a placeholder"),
        ("H red", "'H' is not a placeholder; ask one of A-G"),
        ("X red", "questions about the 36th gem (X) are not allowed"),
        ("E", "names one attribute or two of different categories"),
        ("E banana", "'banana' is not a colour, kind or size"),
        ("E red blue", "two values of one colour"),
        ("E yellow cluster opal", "three attributes name a single gem"),
    ],
)
def test_bad_question_text_is_refused_with_a_reason(text, message):
    with pytest.raises(QuestionError) as info:
        parse_question(text)
    assert message in str(info.value)


@pytest.mark.parametrize("codes", ONE_ATTRIBUTE + TWO_CATEGORIES)
def test_codes_round_trip_for_every_legal_question(codes):
    q = make_question("D", attrs(codes))
    assert Question.from_codes(q.codes) == q
    assert parse_question(q.short("en")) == q
    assert parse_question(q.short("de")) == q


def test_from_codes_rejects_illegal_questions():
    with pytest.raises(QuestionError, match="36th gem"):
        Question.from_codes("X:R")
    with pytest.raises(QuestionError, match="three attributes"):
        Question.from_codes("A:RD1")


# --- answers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "answer"),
    [
        ("A:R", 2), ("A:B", 1), ("A:G", 1), ("A:Y", 1),
        ("A:D", 3), ("A:P", 1), ("A:O", 1),
        ("A:1", 2), ("A:2", 2), ("A:3", 1),
        ("A:RD", 2), ("A:R1", 1), ("A:1D", 2), ("A:YP", 1), ("A:YO", 0),
        ("A:2P", 1), ("A:3O", 1), ("A:G3", 1), ("A:B2", 0),
        ("B:R", 3), ("B:P", 3), ("B:O", 2), ("B:B1", 1), ("B:R3", 1), ("B:BD", 0),
        ("B:Y", 0), ("B:D", 0),
    ],
)
def test_the_answer_counts_the_placeholders_gems_with_the_named_attributes(dist, codes, answer):
    assert Question.from_codes(codes).answer(dist) == answer


@pytest.mark.parametrize("place", PLACEHOLDERS)
def test_answers_per_category_add_up_to_five_gems(dist, place):
    for category in (COLOURS, KINDS, SIZES):
        assert sum(make_question(place, [a]).answer(dist) for a in category) == 5


def test_the_36th_gem_is_never_counted(dist):
    x_gem = dist.holding("X")[0]
    assert x_gem.code == "YO3"
    assert sum(make_question(p, attrs("YO")).answer(dist) for p in PLACEHOLDERS) == 2


# --- wording ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "english", "german"),
    [
        ("E:BO", "How many blue opals does E hold?", "Wie viele blaue Opale hat E?"),
        ("G:1", "How many solitaires does G hold?", "Wie viele Einer hat G?"),
        ("A:3D", "How many cluster diamonds does A hold?", "Wie viele Dreier-Diamanten hat A?"),
        ("B:R", "How many red gems does B hold?", "Wie viele rote Steine hat B?"),
        ("C:P", "How many pearls does C hold?", "Wie viele Perlen hat C?"),
        ("D:G2", "How many green pairs does D hold?", "Wie viele grüne Zweier hat D?"),
        ("F:YD", "How many yellow diamonds does F hold?", "Wie viele gelbe Diamanten hat F?"),
        ("G:2O", "How many pair opals does G hold?", "Wie viele Zweier-Opale hat G?"),
    ],
)
def test_question_text_in_english_and_german(codes, english, german):
    q = Question.from_codes(codes)
    assert q.text() == english
    assert q.text("en") == english
    assert q.text("de") == german


def test_short_form_is_placeholder_then_what_is_counted():
    q = Question.from_codes("E:BO")
    assert q.short() == "E blue opal"
    assert q.short("de") == "E blaue Opale"
    assert Question.from_codes("A:G3").short("de") == "A grüne Dreier"


def test_codes_are_the_compact_storage_form():
    assert make_question("e", attrs("OB")).codes == "E:BO"
