"""The turn language in English, German and Spanish: every command, every gem word."""

from __future__ import annotations

import pytest

from vpsleuth.orders import format_turn, parse_turn
from vpsleuth.orders.parser import DropAll, DropTip, PlaceTip, RepeatLastRound
from vpsleuth.rules import GEM_BY_CODE, GEMS, GemError, Question, parse_gem, parse_question
from vpsleuth.rules.gems import LANGUAGES

# One table of keywords per language: each command written as a player of that language would.
KEYWORDS = {
    "en": {"question": "QUESTION", "tip": "TIP", "drop": "DROP", "repeat": "REPEAT",
           "end": "END", "none": "NONE", "all": "ALL", "nobody": "nobody"},
    "de": {"question": "FRAGE", "tip": "TIPP", "drop": "STREICHE", "repeat": "WIEDERHOLE",
           "end": "ENDE", "none": "KEINE", "all": "ALLE", "nobody": "niemand"},
    "es": {"question": "PREGUNTA", "tip": "PISTA", "drop": "QUITA", "repeat": "REPITE",
           "end": "FIN", "none": "NINGUNA", "all": "TODAS", "nobody": "nadie"},
}
LANGS = pytest.mark.parametrize("lang", ["en", "de", "es"])


def ok(text: str):
    parsed = parse_turn(text)
    assert parsed.ok, [str(e) for e in parsed.errors]
    return parsed.change


def test_the_gems_know_three_languages():
    assert LANGUAGES == ("en", "de", "es")


@LANGS
def test_a_question_in_each_language_asks_blue_opals_at_e(lang):
    gem = GEM_BY_CODE["BO1"]
    words = f"{gem.kind.word(lang)} {gem.colour.word(lang)}"
    change = ok(f"{KEYWORDS[lang]['question']} E {words}")
    assert change.question == Question.from_codes("E:BO")


@LANGS
def test_a_tip_in_each_language_places_a_gem_by_its_long_name(lang):
    gem = GEM_BY_CODE["YP3"]
    change = ok(f"{KEYWORDS[lang]['tip']} A {gem.name(lang)}, {KEYWORDS[lang]['nobody']} RD1")
    assert change.tips == {gem: "A", GEM_BY_CODE["RD1"]: "X"}


@LANGS
def test_drop_repeat_drop_all_and_end_in_each_language(lang):
    k = KEYWORDS[lang]
    change = ok(f"{k['tip']} A RD1\n{k['drop']} RD1\n{k['repeat']}\n{k['drop']} {k['all']}\n"
                f"{k['end']}\n{k['tip']} Z nonsense")
    assert [type(s) for s in change.steps] == [PlaceTip, DropTip, RepeatLastRound, DropAll]


@LANGS
def test_question_none_in_each_language_withdraws_the_question(lang):
    change = ok(f"{KEYWORDS[lang]['question']} {KEYWORDS[lang]['none']}")
    assert change.changes_question and change.question is None


@pytest.mark.parametrize("keyword", ["PREGUNTA", "pregunta", "Preguntar", "PREGUNTA:"])
def test_spanish_question_keywords_in_any_case(keyword):
    assert ok(f"{keyword} E rojo").question == Question.from_codes("E:R")


@pytest.mark.parametrize("keyword", ["PISTA", "pistas", "APUESTA", "Apuestas"])
def test_spanish_tip_keywords(keyword):
    assert ok(f"{keyword} C RD1, B BP2").tips == {GEM_BY_CODE["RD1"]: "C", GEM_BY_CODE["BP2"]: "B"}


@pytest.mark.parametrize("keyword", ["QUITA", "quitar", "RETIRA"])
def test_spanish_drop_keywords(keyword):
    assert ok(f"PISTA A RD1\n{keyword} RD1").dropped == {GEM_BY_CODE["RD1"]}
    assert ok(f"PISTA A RD1\n{keyword} todo").drop_all


@pytest.mark.parametrize("word", ["TODAS", "todos", "Todo"])
def test_spanish_all_words(word):
    change = ok(f"PISTA A RD1\nQUITA {word}")
    assert change.drop_all and change.tips == {}


@pytest.mark.parametrize("word", ["NINGUNA", "ninguno", "Nada"])
def test_spanish_none_words(word):
    assert ok(f"PREGUNTA E rojo\nPREGUNTA {word}").question is None


@pytest.mark.parametrize("keyword", ["REPITE", "repetir"])
def test_spanish_repeat_keywords(keyword):
    assert ok(keyword).repeat


def test_fin_ignores_everything_below():
    assert ok("PISTA A RD1\nFIN\nsaludos, Ana\nPISTA Q ZZ9").tips == {GEM_BY_CODE["RD1"]: "A"}


@pytest.mark.parametrize("word", ["nadie", "NADIE", "Nadie"])
def test_nadie_is_location_x_also_after_a_comma(word):
    assert ok(f"PISTA {word} YO3").tips == {GEM_BY_CODE["YO3"]: "X"}
    assert ok(f"PISTA A RD1, {word} YO3").tips == {GEM_BY_CODE["RD1"]: "A",
                                                   GEM_BY_CODE["YO3"]: "X"}


def test_keywords_of_three_languages_mix_in_one_turn():
    change = ok("PREGUNTA E ópalo azul\nTIPP A Diamant rot I\nTIP B BP2\nPISTA nadie perla roja "
                "solitario\nSTREICHE BP2\nREPEAT\nFIN")
    assert change.question == Question.from_codes("E:BO")
    assert change.tips == {GEM_BY_CODE["RD1"]: "A", GEM_BY_CODE["RP1"]: "X"}
    assert change.dropped == {GEM_BY_CODE["BP2"]} and change.repeat


@pytest.mark.parametrize(("text", "code"), [
    ("perla roja solitario", "RP1"), ("diamante amarillo grupo", "YD3"),
    ("ópalo verde pareja", "GO2"), ("opalo verde pareja", "GO2"), ("ÓPALO AZUL GRUPO", "BO3"),
    ("diamante rojo solitario", "RD1"), ("perla amarilla pareja", "YP2"),
    ("perla azul grupo", "BP3"), ("perlas rojas solitarias", "RP1"),
    ("ópalos azules grupos", "BO3"), ("diamantes amarillos parejas", "YD2"),
    ("perlas amarillas grupos", "YP3"), ("diamantes verdes solitarios", "GD1"),
    ("el diamante rojo en grupo", "RD3"), ("una perla verde en pareja", "GP2"),
    ("grupo ópalo rojo", "RO3"), ("diamante rojo 1", "RD1"), ("perla azul III", "BP3"),
])
def test_spanish_gem_words_singular_plural_with_and_without_accents(text, code):
    assert parse_gem(text) == GEM_BY_CODE[code]


@pytest.mark.parametrize("text", ["perla roja", "ópalo grupo", "rojo azul diamante grupo"])
def test_an_incomplete_or_double_spanish_gem_is_refused(text):
    with pytest.raises(GemError):
        parse_gem(text)


def test_every_gem_has_a_spanish_name_that_parses_back_with_and_without_accents():
    for gem in GEMS:
        name = gem.name("es")
        assert parse_gem(name) == gem
        assert parse_gem(name.replace("ó", "o")) == gem


def test_spanish_canonical_names_agree_with_the_kind():
    assert GEM_BY_CODE["RD1"].name("es") == "diamante rojo solitario"
    assert GEM_BY_CODE["RP1"].name("es") == "perla roja solitaria"
    assert GEM_BY_CODE["YP3"].name("es") == "perla amarilla en grupo"
    assert GEM_BY_CODE["BO2"].name("es") == "ópalo azul en pareja"


@pytest.mark.parametrize(("codes", "text"), [
    ("E:BO", "¿Cuántos ópalos azules tiene E?"),
    ("E:RP", "¿Cuántas perlas rojas tiene E?"),
    ("A:YP", "¿Cuántas perlas amarillas tiene A?"),
    ("B:D", "¿Cuántos diamantes tiene B?"),
    ("C:G", "¿Cuántas gemas verdes tiene C?"),
    ("G:1", "¿Cuántos solitarios tiene G?"),
    ("G:2", "¿Cuántas parejas tiene G?"),
    ("D:R3", "¿Cuántos grupos rojos tiene D?"),
    ("D:Y2", "¿Cuántas parejas amarillas tiene D?"),
    ("A:3D", "¿Cuántos diamantes en grupo tiene A?"),
    ("F:1P", "¿Cuántas perlas solitarias tiene F?"),
])
def test_spanish_questions_read_naturally_with_gender(codes, text):
    assert Question.from_codes(codes).text("es") == text


@pytest.mark.parametrize("codes", ["E:BO", "E:RP", "A:3D", "G:1", "C:G", "D:Y2", "F:1P"])
@LANGS
def test_the_short_form_of_a_question_parses_back_in_each_language(codes, lang):
    question = Question.from_codes(codes)
    assert parse_question(question.short(lang)) == question


def test_the_spanish_short_form_puts_the_kind_first_and_agrees():
    assert Question.from_codes("E:RP").short("es") == "E perlas rojas"
    assert Question.from_codes("E:BO").short("es") == "E ópalos azules"


def test_format_turn_writes_spanish_keywords():
    text = format_turn(Question.from_codes("E:RP"), {GEM_BY_CODE["RD1"]: "A"}, "es")
    assert text == "PREGUNTA E perlas rojas\nAPUESTA A RD1\n"
    assert format_turn(None, {}, "es") == "PREGUNTA NINGUNA\n"


def test_a_spanish_sign_off_below_a_spanish_turn_is_set_aside():
    from vpsleuth.orders.signoff import split_signoff

    split = split_signoff("PREGUNTA E ópalo azul\nPISTA A RD1\n\nUn saludo,\nAna García")
    assert split.lines == ("Un saludo,", "Ana García")
    assert ok(split.turn).tips == {GEM_BY_CODE["RD1"]: "A"}


def test_a_spanish_gem_below_the_turn_is_not_taken_for_a_sign_off():
    from vpsleuth.orders.signoff import split_signoff

    assert split_signoff("PISTA A RD1\nperla roja").lines == ()


@pytest.mark.parametrize("line", ["Fun game, thanks!", "Quite a week.", "Fine by me",
                                  "Pasta later?"])
def test_everyday_words_near_a_spanish_keyword_still_end_a_turn_as_a_sign_off(line):
    from vpsleuth.orders.signoff import split_signoff

    assert split_signoff(f"TIP A RD1\n{line}\nAda").lines == (line, "Ada")


@pytest.mark.parametrize(("word", "command"), [("PSITA", "tip"), ("QUTIA", "drop"),
                                               ("PREGUNTE", "question"), ("REPTIE", "repeat")])
def test_a_slip_of_a_spanish_keyword_is_a_turn_line_gone_wrong(word, command):
    from vpsleuth.orders.parser import _KEYWORDS
    from vpsleuth.orders.signoff import near_miss, split_signoff

    assert _KEYWORDS[near_miss(word)] == command
    assert split_signoff(f"PISTA A RD1\n{word} B BP2").lines == ()
