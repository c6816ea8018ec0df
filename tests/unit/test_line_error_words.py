"""Parser errors said in the reader's language, with that language's keywords in the hint."""

from __future__ import annotations

import pytest

from vpsleuth.i18n import translate
from vpsleuth.orders import HINTS, describe, localized, parse_turn

# Bad turns reaching every message the parser and the rules can give.
BAD = [
    "BUY A RD1", "1 TIP A RD1", "TIP H RD1", "TIP B", "TIP", "TIP A red banana solitaire",
    "TIP A red diamond", "TIP A the", "TIP A diamond", "QUESTION X red",
    "QUESTION E yellow cluster opal", "QUESTION E red blue", "QUESTION E", "QUESTION",
    "QUESTION H red", "TIP A RD1, B Diamant rot I", "DROP", "DROP banana", "TIP A RD4",
    "QUESTION A RD4", "PISTA A perla roja", "PREGUNTA E rojo azul", "QUITA",
]
KEYWORDS = {"de": {"question": "FRAGE", "tip": "TIPP", "drop": "STREICHE"},
            "es": {"question": "PREGUNTA", "tip": "APUESTA", "drop": "QUITA"}}
ENGLISH_KEYWORDS = {"question": "QUESTION", "tip": "TIP", "drop": "DROP"}


def errors_of(text: str):
    parsed = parse_turn(text)
    assert parsed.errors, text
    return parsed.errors


def test_the_english_description_is_the_error_as_the_cli_shows_it():
    for text in BAD:
        for error in errors_of(text):
            assert describe(error, "en", translate) == str(error)


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("text", BAD)
def test_no_english_message_or_hint_is_left_in_german_or_spanish(text, lang):
    for error in errors_of(text):
        shown = describe(error, lang, translate)
        assert error.message not in shown and error.hint not in shown
        assert "(write:" not in shown and not shown.startswith("line ")
        english_words = set(error.message.split()) - set(error.text.split()) - {"A-G", "X",
                                                                                  "(X)"}
        said = localized([error], lang, translate)[0]
        assert said.message != error.message
        assert said.line == error.line and said.text == error.text
        assert english_words - set(said.message.split()), (error.message, said.message)


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("kind", ["question", "tip", "drop"])
def test_the_hint_shows_the_readers_keywords(lang, kind):
    hint = translate(lang, HINTS[kind])
    assert hint.startswith(KEYWORDS[lang][kind] + " ")
    assert ENGLISH_KEYWORDS[kind] + " " not in hint


def test_the_example_in_issue_12_reads_in_german_and_spanish():
    [error] = errors_of("# hi\nTIP H RD1")
    assert describe(error, "de", translate).startswith(
        "Zeile 2: 'H' ist kein Ort; Tipps gehen an A-G oder X (niemand) (richtig: TIPP <A-G "
        "oder X> ")
    assert describe(error, "es", translate).startswith(
        "Línea 2: 'H' no es un lugar; las apuestas van a A-G o a X (nadie) (escribe: APUESTA "
        "<A-G o X> ")


def test_words_inside_a_message_follow_the_language():
    [error] = errors_of("PREGUNTA E rojo azul")
    assert "colour: red and blue" in error.message
    assert "Farbe: rot und blau" in describe(error, "de", translate)
    assert "color: rojo y azul" in describe(error, "es", translate)
    [error] = errors_of("PISTA A perla")
    assert describe(error, "es", translate).startswith("Línea 1: 'perla' no indica color ni "
                                                       "tamaño")


def test_the_unknown_command_hint_lists_the_readers_keywords_first():
    [error] = errors_of("COMPRA A RD1")
    assert "PREGUNTA, APUESTA, QUITA, REPITE o FIN" in describe(error, "es", translate)
    assert "FRAGE, TIPP, STREICHE, WIEDERHOLE oder ENDE" in describe(error, "de", translate)
