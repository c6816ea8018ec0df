"""The 36 gems and every way a player may write them (RULES.md section 1)."""

import unicodedata

import pytest

from vpsleuth.rules import (
    ATTRIBUTES,
    COLOURS,
    GEM_BY_CODE,
    GEMS,
    KINDS,
    SIZES,
    Category,
    GemError,
    parse_attributes,
    parse_gem,
)
from vpsleuth.rules.gems import attribute, check_categories

RD1 = GEM_BY_CODE["RD1"]
GP2 = GEM_BY_CODE["GP2"]
YO3 = GEM_BY_CODE["YO3"]


# --- the collection ---------------------------------------------------------------------


def test_there_are_36_distinct_gems():
    assert len(GEMS) == 36
    assert len(set(GEMS)) == 36
    assert len({g.code for g in GEMS}) == 36


def test_every_combination_of_colour_kind_and_size_is_a_gem():
    combos = {(c, k, s) for c in COLOURS for k in KINDS for s in SIZES}
    assert {g.attributes for g in GEMS} == combos


def test_categories_have_four_colours_three_kinds_three_sizes():
    assert [a.code for a in COLOURS] == ["R", "B", "G", "Y"]
    assert [a.code for a in KINDS] == ["D", "P", "O"]
    assert [a.code for a in SIZES] == ["1", "2", "3"]
    assert ATTRIBUTES == COLOURS + KINDS + SIZES
    assert {a.category for a in COLOURS} == {Category.COLOUR}
    assert {a.category for a in KINDS} == {Category.KIND}
    assert {a.category for a in SIZES} == {Category.SIZE}


def test_gem_code_is_colour_then_kind_then_size():
    gem = GEM_BY_CODE["YO3"]
    assert gem.colour == attribute("Y")
    assert gem.kind == attribute("O")
    assert gem.size == attribute("3")
    assert gem.code == "YO3"
    assert str(gem) == "YO3"


def test_gem_by_code_indexes_every_gem_by_its_own_code():
    assert all(GEM_BY_CODE[g.code] is g for g in GEMS)
    assert len(GEM_BY_CODE) == 36


def test_gems_are_listed_in_information_sheet_order_kind_size_colour():
    codes = [g.code for g in GEMS]
    assert codes[:5] == ["RD1", "BD1", "GD1", "YD1", "RD2"]
    assert codes[12] == "RP1"
    assert codes[-1] == "YO3"
    assert [g.sort_key for g in GEMS] == sorted(g.sort_key for g in GEMS)


def test_gem_has_exactly_its_three_attributes():
    assert [a.code for a in ATTRIBUTES if GP2.has(a)] == ["G", "P", "2"]


def test_gem_repr_names_the_gem_by_code():
    assert repr(RD1) == "GEM_BY_CODE['RD1']"


def test_attribute_lookup_accepts_lower_case_codes():
    assert attribute("r") is attribute("R")
    assert attribute("o").category is Category.KIND


def test_attribute_words_in_both_languages():
    assert attribute("G").word() == "green"
    assert attribute("G").word("de") == "grün"
    assert attribute("2").word("en") == "pair"
    assert attribute("3").word("de") == "Dreier"
    assert attribute("P").word("de") == "Perle"
    assert str(attribute("Y")) == "yellow"
    assert repr(attribute("Y")) == "attribute('Y')"


def test_category_words_in_both_languages():
    assert Category.COLOUR.word() == "colour"
    assert Category.SIZE.word("de") == "Größe"
    assert Category.KIND.word("de") == "Art"


# --- canonical names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "english", "german"),
    [
        ("RD1", "red diamond solitaire", "Diamant rot I"),
        ("GP2", "green pearl pair", "Perle grün II"),
        ("YO3", "yellow opal cluster", "Opal gelb III"),
        ("BO1", "blue opal solitaire", "Opal blau I"),
    ],
)
def test_canonical_names_in_english_and_german(code, english, german):
    gem = GEM_BY_CODE[code]
    assert gem.name() == english
    assert gem.name("en") == english
    assert gem.name("de") == german


def test_canonical_names_are_unique_per_language():
    for lang in ("en", "de"):
        assert len({g.name(lang) for g in GEMS}) == 36


# --- every way of writing a gem -----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["RD1", "rd1", "Rd1", "1DR", "1rd", "D1R", "dr1", "  RD1  ", "RD 1", "1 rd", "rd-1"],
)
def test_codes_parse_in_any_order_and_case(text):
    assert parse_gem(text) == RD1


@pytest.mark.parametrize(
    "text",
    [
        "red diamond solitaire",
        "Red Diamond Solitaire",
        "RED DIAMOND SOLITAIRE",
        "solitaire red diamond",
        "diamond, red, solitaire",
        "the red diamond single",
        "red diamond 1",
        "red diamond I",
        "one red diamond",
        "red-diamond-solitaire",
    ],
)
def test_english_words_name_the_red_diamond_solitaire(text):
    assert parse_gem(text) == RD1


@pytest.mark.parametrize(
    "text",
    [
        "Diamant rot I",
        "diamant rot i",
        "DIAMANT ROT I",
        "roter Diamant Einer",
        "ein roter Diamant, Einer",
        "Einer Diamant rot",
        "rot Diamant 1",
        "Diamant rot eins",
    ],
)
def test_german_words_name_the_red_diamond_solitaire(text):
    assert parse_gem(text) == RD1


@pytest.mark.parametrize(
    "text",
    [
        "grüne Perle II",
        "GRÜNE PERLE II",
        "gruene Perle II",
        "Perle gruen II",
        "Perle grün Zweier",
        "grüner Perle zwei",
        "green pearl pair",
        "Perle grün 2",
        unicodedata.normalize("NFD", "grüne Perle II"),
    ],
)
def test_german_umlauts_and_their_spellings_name_the_green_pearl_pair(text):
    assert parse_gem(text) == GP2


@pytest.mark.parametrize(
    ("size_word", "code"),
    [
        ("1", "1"), ("I", "1"), ("solitaire", "1"), ("Einer", "1"),
        ("2", "2"), ("II", "2"), ("pair", "2"), ("Zweier", "2"),
        ("3", "3"), ("III", "3"), ("cluster", "3"), ("Dreier", "3"),
    ],
)
def test_sizes_may_be_digits_roman_numerals_or_words(size_word, code):
    assert parse_gem(f"yellow opal {size_word}").size == attribute(code)
    assert parse_gem(f"{size_word.lower()} Opal gelb").size == attribute(code)


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("red rot roter", "R"), ("blue blau blaue", "B"), ("green grün gruen", "G"),
        ("yellow gelb gelbe", "Y"), ("diamond Diamant Diamanten", "D"),
        ("pearl Perle Perlen", "P"), ("opal Opal Opale", "O"),
    ],
)
def test_english_and_german_words_for_colour_and_kind(words, code):
    assert [a.code for a in parse_attributes(words)] == [code] * 3


@pytest.mark.parametrize("gem", GEMS, ids=lambda g: g.code)
def test_every_gem_round_trips_through_its_code_and_names(gem):
    assert parse_gem(gem.code) == gem
    assert parse_gem(gem.code.lower()) == gem
    assert parse_gem(gem.code[::-1]) == gem
    assert parse_gem(gem.name("en")) == gem
    assert parse_gem(gem.name("de")) == gem
    assert parse_gem(gem.name("de").upper()) == gem
    assert parse_gem(" ".join(reversed(gem.name("en").split()))) == gem


def test_repeating_the_same_attribute_is_tolerated():
    assert parse_gem("red rot diamond solitaire") == RD1


# --- bad gem text: specific messages ------------------------------------------------------


def test_gem_error_is_a_value_error():
    assert issubclass(GemError, ValueError)


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_empty_text_is_no_gem(text):
    with pytest.raises(GemError, match="no gem given"):
        parse_gem(text)


def test_missing_colour_is_named():
    with pytest.raises(GemError, match=r"^'diamond solitaire' names no colour$"):
        parse_gem("diamond solitaire")


def test_missing_kind_and_size_are_both_named():
    with pytest.raises(GemError, match=r"^'red' names no kind and no size$"):
        parse_gem("red")


def test_missing_size_is_named_for_a_two_letter_code():
    with pytest.raises(GemError, match="names no size"):
        parse_gem("RD")


def test_two_colours_are_refused_with_both_named():
    with pytest.raises(GemError, match=r"^two values of one colour: red and blue$"):
        parse_gem("red blue diamond solitaire")


def test_two_sizes_are_refused():
    with pytest.raises(GemError, match="two values of one size: solitaire and pair"):
        parse_gem("Diamant rot I II")


def test_a_code_with_two_kinds_is_refused():
    with pytest.raises(GemError, match="two values of one kind: diamond and pearl"):
        parse_gem("RDP")


def test_an_unknown_word_is_quoted_in_the_message():
    with pytest.raises(GemError, match=r"^'banana' is not a colour, kind or size$"):
        parse_gem("red banana solitaire")


def test_an_unknown_word_keeps_the_players_spelling():
    with pytest.raises(GemError, match="'Smaragd' is not a colour"):
        parse_gem("Smaragd grün I")


@pytest.mark.parametrize("text", ["RDD1", "XD1", "RD1X", "R D 1", "RX4", "D4"])
def test_malformed_codes_are_refused(text):
    with pytest.raises(GemError, match="is not a colour, kind or size"):
        parse_gem(text)


@pytest.mark.parametrize(("text", "shown"), [("RD4", "RD4"), ("rd0", "RD0"), ("4dr", "4DR"),
                                             ("GO12", "GO12"), ("b9p", "B9P")])
def test_a_code_with_a_size_beyond_three_says_sizes_are_one_to_three(text, shown):
    with pytest.raises(GemError, match=rf"^no gem {shown}: sizes are 1-3$"):
        parse_gem(text)


def test_a_single_letter_is_an_attribute_only_where_asked_for():
    assert [a.code for a in parse_attributes("R", letters=True)] == ["R"]
    assert [a.code for a in parse_attributes("d o", letters=True)] == ["D", "O"]
    with pytest.raises(GemError, match="'R' is not a colour, kind or size"):
        parse_attributes("R")


# --- attributes ---------------------------------------------------------------------------


def test_parse_attributes_keeps_the_order_written():
    assert [a.code for a in parse_attributes("opal blue")] == ["O", "B"]
    assert [a.code for a in parse_attributes("BO")] == ["B", "O"]
    assert [a.code for a in parse_attributes("3 Diamanten")] == ["3", "D"]


def test_parse_attributes_skips_fillers_and_punctuation():
    assert [a.code for a in parse_attributes("the (blue), opals;")] == ["B", "O"]
    assert [a.code for a in parse_attributes("die blauen Steine und Opale")] == ["B", "O"]


def test_parse_attributes_of_nothing_is_empty():
    assert parse_attributes("") == []
    assert parse_attributes("  ,; ") == []


def test_check_categories_allows_one_value_per_category():
    check_categories([attribute("R"), attribute("D"), attribute("R")])
    with pytest.raises(GemError, match="two values of one colour"):
        check_categories([attribute("R"), attribute("B")])
