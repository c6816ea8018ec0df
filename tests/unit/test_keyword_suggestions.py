"""A slip of a keyword is answered with the keyword meant, in the reader's language,
and a sign-off is set aside whether or not a line above it is wrong."""

from __future__ import annotations

import pytest

from vpsleuth.i18n import translate
from vpsleuth.orders import HINTS, describe, parse_turn
from vpsleuth.orders.keywords import near_miss
from vpsleuth.orders.signoff import split_signoff


def only_error(text: str):
    [error] = parse_turn(text).errors
    return error


@pytest.mark.parametrize(("line", "meant", "kind"), [
    ("STRIECHE YO3", "STREICHE", "drop"), ("QUESTOIN E blue opal", "QUESTION", "question"),
    ("Frgae E blaue Opale", "FRAGE", "question"), ("TPI A RD1", "TIP", "tip"),
    ("APEUSTA A RD1", "APUESTA", "tip"), ("PERGUNTA E ópalos azules", "PREGUNTA", "question"),
    ("QUTIA RD1", "QUITA", "drop"), ("REPAET", "REPEAT", "repeat"),
    ("WIEDERHLOE", "WIEDERHOLE", "repeat"), ("Edn", "END", "end"), ("strieche: YO3",
                                                                    "STREICHE", "drop"),
])
def test_a_slip_of_a_keyword_names_the_keyword_meant_and_its_own_hint(line, meant, kind):
    error = only_error(line)
    word = line.split()[0]
    assert error.message == f"'{word}' is not a command; did you mean {meant}?"
    assert error.hint == HINTS[kind]


def test_a_word_far_from_every_keyword_still_gets_the_list_of_commands():
    error = only_error("BUY A RD1")
    assert (error.message, error.hint) == ("'BUY' is not a command", HINTS["unknown"])


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "line 1: 'STRIECHE' is not a command; did you mean STREICHE? "
           "(write: DROP <gem> or DROP ALL, e.g. DROP RD1)"),
    ("de", "Zeile 1: 'STRIECHE' ist kein Befehl; meintest du STREICHE? "
           "(richtig: STREICHE <Stein> oder STREICHE ALLE, z. B. STREICHE RD1)"),
    ("es", "Línea 1: 'STRIECHE' no es una orden; ¿querías decir STREICHE? "
           "(escribe: QUITA <gema> o QUITA TODAS, p. ej. QUITA RD1)"),
])
def test_the_suggestion_is_said_in_the_readers_language(lang, said):
    assert describe(only_error("STRIECHE YO3"), lang, translate) == said


@pytest.mark.parametrize(("line", "lang", "said"), [
    ("PERGUNTA E ópalos azules", "es",
     "Línea 1: 'PERGUNTA' no es una orden; ¿querías decir PREGUNTA? (escribe: PREGUNTA <A-G> "),
    ("REPAET", "de", "Zeile 1: 'REPAET' ist kein Befehl; meintest du REPEAT? (richtig: "
                     "WIEDERHOLE in einer eigenen Zeile: die Tipps der letzten Runde noch einmal)"),
    ("Edn", "es", "Línea 1: 'Edn' no es una orden; ¿querías decir END? (escribe: FIN en una "
                  "línea aparte: no se lee nada de lo que va debajo)"),
    ("QUESTOIN E blue opal", "en", "line 1: 'QUESTOIN' is not a command; did you mean "
                                   "QUESTION? (write: QUESTION <A-G> "),
])
def test_suggestions_in_english_german_and_spanish(line, lang, said):
    assert describe(only_error(line), lang, translate).startswith(said)


def test_the_closest_keyword_wins_over_the_first_in_the_alphabet():
    assert near_miss("puestas") == "apuestas"
    assert near_miss("tippps") == "tipps"


SIGNOFFS = [["Gruß", "Bernd"], ["Grüße"], ["Viele Grüße", "Bernd"], ["Cheers, Ada"],
            ["Saludos"], ["Un saludo,", "Ana"], ["Best,", "Ada"], ["Thanks!"], ["— Bernd"],
            ["Bernd"], ["Liebe Grüße aus Köln", "Bernd Beispiel", "0170 1234567"]]


@pytest.mark.parametrize("signoff", SIGNOFFS, ids=lambda lines: " / ".join(lines))
def test_a_sign_off_is_set_aside_below_a_wrong_line_as_below_a_right_one(signoff):
    tail = "\n\n" + "\n".join(signoff) + "\n"
    wrong, right = split_signoff("STRIECHE YO3" + tail), split_signoff("STREICHE YO3" + tail)
    assert wrong.lines == right.lines == tuple(signoff)
    assert (wrong.turn, right.turn) == ("STRIECHE YO3", "STREICHE YO3")
    [error] = parse_turn(wrong.turn).errors
    assert "did you mean STREICHE?" in error.message
    assert parse_turn(right.turn).ok


def test_a_wrong_line_below_a_wrong_line_is_not_a_sign_off():
    text = "STRIECHE YO3\nTPI A RD1\nGruß"
    split = split_signoff(text)
    assert split.lines == ("Gruß",)
    assert [e.line for e in parse_turn(split.turn).errors] == [1, 2]
