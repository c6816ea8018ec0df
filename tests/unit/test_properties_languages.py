"""Properties of the turn language in English, German and Spanish (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.i18n import translate
from vpsleuth.orders import describe, format_turn, parse_turn
from vpsleuth.rules import (
    ATTRIBUTES,
    COLOURS,
    GEMS,
    KINDS,
    LOCATIONS,
    PLACEHOLDERS,
    SIZES,
    make_question,
    parse_gem,
    parse_question,
)

FAST = settings(max_examples=150, deadline=None)
LANGS = ("en", "de", "es")

langs = st.sampled_from(LANGS)
gems = st.sampled_from(GEMS)
tip_maps = st.dictionaries(gems, st.sampled_from(LOCATIONS), max_size=36)
one_attribute = st.sampled_from(ATTRIBUTES).map(lambda a: [a])
two_categories = st.sampled_from([(COLOURS, KINDS), (COLOURS, SIZES), (KINDS, SIZES)]).flatmap(
    lambda pair: st.tuples(st.sampled_from(pair[0]), st.sampled_from(pair[1])).map(list))
questions = st.builds(make_question, st.sampled_from(PLACEHOLDERS),
                      st.one_of(one_attribute, two_categories))

KEYWORDS = {
    "question": ["QUESTION", "FRAGE", "PREGUNTA", "preguntar"],
    "tip": ["TIP", "TIPP", "PISTA", "apuesta", "Pistas"],
    "nobody": ["X", "nobody", "niemand", "nadie"],
}
# Spanish words as players write them: any case, accents or none, plural or feminine.
SPANISH_VARIANTS = st.sampled_from([str.lower, str.upper, str.title,
                                    lambda w: w.replace("ó", "o")])


@FAST
@given(st.one_of(st.none(), questions), tip_maps, langs)
def test_a_turn_written_in_any_language_parses_back_to_the_same_turn(question, tips, lang):
    parsed = parse_turn(format_turn(question, tips, lang))
    assert parsed.ok
    assert parsed.change.question == question
    assert parsed.change.tips == tips


@FAST
@given(gems, langs, SPANISH_VARIANTS)
def test_every_gem_name_in_any_language_and_case_parses_back(gem, lang, variant):
    assert parse_gem(variant(gem.name(lang))) == gem


@FAST
@given(questions, langs)
def test_the_short_question_of_any_language_parses_back(question, lang):
    assert parse_question(question.short(lang)) == question
    assert question.placeholder in question.text(lang)


@FAST
@given(st.dictionaries(gems, st.sampled_from(LOCATIONS), min_size=1, max_size=8),
       st.one_of(st.none(), questions), st.data())
def test_keywords_of_every_language_may_be_mixed_line_by_line(tips, question, data):
    lines = []
    if question is not None:
        ask = data.draw(st.sampled_from(KEYWORDS["question"]))
        lines.append(f"{ask} {question.short(data.draw(langs))}")
    for gem, location in tips.items():
        keyword = data.draw(st.sampled_from(KEYWORDS["tip"]))
        where = data.draw(st.sampled_from(KEYWORDS["nobody"])) if location == "X" else location
        lines.append(f"{keyword} {where} {gem.name(data.draw(langs))}")
    parsed = parse_turn("\n".join(lines))
    assert parsed.ok, [str(e) for e in parsed.errors]
    assert parsed.change.tips == tips
    assert parsed.change.changes_question == (question is not None)
    if question is not None:
        assert parsed.change.question == question


VOCABULARY = ["PREGUNTA", "PISTA", "APUESTA", "QUITA", "TODAS", "NINGUNA", "REPITE", "FIN",
              "nadie", "perla", "roja", "ópalos", "azules", "grupo", "pareja", "solitario",
              "TIP", "FRAGE", "A", "H", "X", "RD1", "RD4", "banana", ",", "\n", " "]


@FAST
@given(st.lists(st.sampled_from(VOCABULARY), max_size=30).map(" ".join))
def test_every_error_reads_in_each_language_with_its_line(text):
    for error in parse_turn(text).errors:
        shown = {lang: describe(error, lang, translate) for lang in LANGS}
        assert shown["en"] == str(error)
        assert shown["de"].startswith(f"Zeile {error.line}: ")
        assert shown["es"].startswith(f"Línea {error.line}: ")
        for lang in ("de", "es"):
            assert error.message not in shown[lang]
            assert error.hint not in shown[lang]
