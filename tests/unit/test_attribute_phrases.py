"""Every attribute phrase the game says, in German and Spanish, against a table written by hand.

The table is a native reader's: German adjectives declined without article
(roter Opal, rote Perle, rote Opale), sizes joined to kinds as the seed writes
them (Dreier-Diamanten); Spanish nouns first, colours and "solitario" agreeing
with them, pair and cluster after a kind as "en pareja", "en grupo". It is
compared with what the code renders: the phrase itself, the report's question,
the turn language's short form, the Spanish gem names, and the information
sheet's rows (tests/web/test_player_sheet.py).
"""

from __future__ import annotations

import pytest

from vpsleuth.rules import GEM_BY_CODE, GEMS, Question, parse_gem, parse_question
from vpsleuth.rules.phrases import phrase

# codes | singular | plural, as a native reader writes them
GERMAN = """
R   | roter Stein           | rote Steine
B   | blauer Stein          | blaue Steine
G   | grüner Stein          | grüne Steine
Y   | gelber Stein          | gelbe Steine
D   | Diamant               | Diamanten
P   | Perle                 | Perlen
O   | Opal                  | Opale
1   | Einer                 | Einer
2   | Zweier                | Zweier
3   | Dreier                | Dreier
RD  | roter Diamant         | rote Diamanten
BD  | blauer Diamant        | blaue Diamanten
GD  | grüner Diamant        | grüne Diamanten
YD  | gelber Diamant        | gelbe Diamanten
RP  | rote Perle            | rote Perlen
BP  | blaue Perle           | blaue Perlen
GP  | grüne Perle           | grüne Perlen
YP  | gelbe Perle           | gelbe Perlen
RO  | roter Opal            | rote Opale
BO  | blauer Opal           | blaue Opale
GO  | grüner Opal           | grüne Opale
YO  | gelber Opal           | gelbe Opale
R1  | roter Einer           | rote Einer
B1  | blauer Einer          | blaue Einer
G1  | grüner Einer          | grüne Einer
Y1  | gelber Einer          | gelbe Einer
R2  | roter Zweier          | rote Zweier
B2  | blauer Zweier         | blaue Zweier
G2  | grüner Zweier         | grüne Zweier
Y2  | gelber Zweier         | gelbe Zweier
R3  | roter Dreier          | rote Dreier
B3  | blauer Dreier         | blaue Dreier
G3  | grüner Dreier         | grüne Dreier
Y3  | gelber Dreier         | gelbe Dreier
D1  | Einer-Diamant         | Einer-Diamanten
D2  | Zweier-Diamant        | Zweier-Diamanten
D3  | Dreier-Diamant        | Dreier-Diamanten
P1  | Einer-Perle           | Einer-Perlen
P2  | Zweier-Perle          | Zweier-Perlen
P3  | Dreier-Perle          | Dreier-Perlen
O1  | Einer-Opal            | Einer-Opale
O2  | Zweier-Opal           | Zweier-Opale
O3  | Dreier-Opal           | Dreier-Opale
RD1 | roter Einer-Diamant   | rote Einer-Diamanten
BD1 | blauer Einer-Diamant  | blaue Einer-Diamanten
GD1 | grüner Einer-Diamant  | grüne Einer-Diamanten
YD1 | gelber Einer-Diamant  | gelbe Einer-Diamanten
RD2 | roter Zweier-Diamant  | rote Zweier-Diamanten
BD2 | blauer Zweier-Diamant | blaue Zweier-Diamanten
GD2 | grüner Zweier-Diamant | grüne Zweier-Diamanten
YD2 | gelber Zweier-Diamant | gelbe Zweier-Diamanten
RD3 | roter Dreier-Diamant  | rote Dreier-Diamanten
BD3 | blauer Dreier-Diamant | blaue Dreier-Diamanten
GD3 | grüner Dreier-Diamant | grüne Dreier-Diamanten
YD3 | gelber Dreier-Diamant | gelbe Dreier-Diamanten
RP1 | rote Einer-Perle      | rote Einer-Perlen
BP1 | blaue Einer-Perle     | blaue Einer-Perlen
GP1 | grüne Einer-Perle     | grüne Einer-Perlen
YP1 | gelbe Einer-Perle     | gelbe Einer-Perlen
RP2 | rote Zweier-Perle     | rote Zweier-Perlen
BP2 | blaue Zweier-Perle    | blaue Zweier-Perlen
GP2 | grüne Zweier-Perle    | grüne Zweier-Perlen
YP2 | gelbe Zweier-Perle    | gelbe Zweier-Perlen
RP3 | rote Dreier-Perle     | rote Dreier-Perlen
BP3 | blaue Dreier-Perle    | blaue Dreier-Perlen
GP3 | grüne Dreier-Perle    | grüne Dreier-Perlen
YP3 | gelbe Dreier-Perle    | gelbe Dreier-Perlen
RO1 | roter Einer-Opal      | rote Einer-Opale
BO1 | blauer Einer-Opal     | blaue Einer-Opale
GO1 | grüner Einer-Opal     | grüne Einer-Opale
YO1 | gelber Einer-Opal     | gelbe Einer-Opale
RO2 | roter Zweier-Opal     | rote Zweier-Opale
BO2 | blauer Zweier-Opal    | blaue Zweier-Opale
GO2 | grüner Zweier-Opal    | grüne Zweier-Opale
YO2 | gelber Zweier-Opal    | gelbe Zweier-Opale
RO3 | roter Dreier-Opal     | rote Dreier-Opale
BO3 | blauer Dreier-Opal    | blaue Dreier-Opale
GO3 | grüner Dreier-Opal    | grüne Dreier-Opale
YO3 | gelber Dreier-Opal    | gelbe Dreier-Opale
"""

SPANISH = """
R   | gema roja                   | gemas rojas
B   | gema azul                   | gemas azules
G   | gema verde                  | gemas verdes
Y   | gema amarilla               | gemas amarillas
D   | diamante                    | diamantes
P   | perla                       | perlas
O   | ópalo                       | ópalos
1   | solitario                   | solitarios
2   | pareja                      | parejas
3   | grupo                       | grupos
RD  | diamante rojo               | diamantes rojos
BD  | diamante azul               | diamantes azules
GD  | diamante verde              | diamantes verdes
YD  | diamante amarillo           | diamantes amarillos
RP  | perla roja                  | perlas rojas
BP  | perla azul                  | perlas azules
GP  | perla verde                 | perlas verdes
YP  | perla amarilla              | perlas amarillas
RO  | ópalo rojo                  | ópalos rojos
BO  | ópalo azul                  | ópalos azules
GO  | ópalo verde                 | ópalos verdes
YO  | ópalo amarillo              | ópalos amarillos
R1  | solitario rojo              | solitarios rojos
B1  | solitario azul              | solitarios azules
G1  | solitario verde             | solitarios verdes
Y1  | solitario amarillo          | solitarios amarillos
R2  | pareja roja                 | parejas rojas
B2  | pareja azul                 | parejas azules
G2  | pareja verde                | parejas verdes
Y2  | pareja amarilla             | parejas amarillas
R3  | grupo rojo                  | grupos rojos
B3  | grupo azul                  | grupos azules
G3  | grupo verde                 | grupos verdes
Y3  | grupo amarillo              | grupos amarillos
D1  | diamante solitario          | diamantes solitarios
D2  | diamante en pareja          | diamantes en pareja
D3  | diamante en grupo           | diamantes en grupo
P1  | perla solitaria             | perlas solitarias
P2  | perla en pareja             | perlas en pareja
P3  | perla en grupo              | perlas en grupo
O1  | ópalo solitario             | ópalos solitarios
O2  | ópalo en pareja             | ópalos en pareja
O3  | ópalo en grupo              | ópalos en grupo
RD1 | diamante rojo solitario     | diamantes rojos solitarios
BD1 | diamante azul solitario     | diamantes azules solitarios
GD1 | diamante verde solitario    | diamantes verdes solitarios
YD1 | diamante amarillo solitario | diamantes amarillos solitarios
RD2 | diamante rojo en pareja     | diamantes rojos en pareja
BD2 | diamante azul en pareja     | diamantes azules en pareja
GD2 | diamante verde en pareja    | diamantes verdes en pareja
YD2 | diamante amarillo en pareja | diamantes amarillos en pareja
RD3 | diamante rojo en grupo      | diamantes rojos en grupo
BD3 | diamante azul en grupo      | diamantes azules en grupo
GD3 | diamante verde en grupo     | diamantes verdes en grupo
YD3 | diamante amarillo en grupo  | diamantes amarillos en grupo
RP1 | perla roja solitaria        | perlas rojas solitarias
BP1 | perla azul solitaria        | perlas azules solitarias
GP1 | perla verde solitaria       | perlas verdes solitarias
YP1 | perla amarilla solitaria    | perlas amarillas solitarias
RP2 | perla roja en pareja        | perlas rojas en pareja
BP2 | perla azul en pareja        | perlas azules en pareja
GP2 | perla verde en pareja       | perlas verdes en pareja
YP2 | perla amarilla en pareja    | perlas amarillas en pareja
RP3 | perla roja en grupo         | perlas rojas en grupo
BP3 | perla azul en grupo         | perlas azules en grupo
GP3 | perla verde en grupo        | perlas verdes en grupo
YP3 | perla amarilla en grupo     | perlas amarillas en grupo
RO1 | ópalo rojo solitario        | ópalos rojos solitarios
BO1 | ópalo azul solitario        | ópalos azules solitarios
GO1 | ópalo verde solitario       | ópalos verdes solitarios
YO1 | ópalo amarillo solitario    | ópalos amarillos solitarios
RO2 | ópalo rojo en pareja        | ópalos rojos en pareja
BO2 | ópalo azul en pareja        | ópalos azules en pareja
GO2 | ópalo verde en pareja       | ópalos verdes en pareja
YO2 | ópalo amarillo en pareja    | ópalos amarillos en pareja
RO3 | ópalo rojo en grupo         | ópalos rojos en grupo
BO3 | ópalo azul en grupo         | ópalos azules en grupo
GO3 | ópalo verde en grupo        | ópalos verdes en grupo
YO3 | ópalo amarillo en grupo     | ópalos amarillos en grupo
"""


def _rows(table: str) -> dict[str, tuple[str, str]]:
    cells = ([cell.strip() for cell in line.split("|")] for line in table.strip().splitlines())
    return {codes: (one, many) for codes, one, many in cells}


_DE, _ES = _rows(GERMAN), _rows(SPANISH)
ROWS = {codes: (*_DE[codes], *_ES[codes]) for codes in _DE}
QUESTIONS = [codes for codes in ROWS if len(codes) <= 2]


def test_the_table_covers_every_single_attribute_pair_and_gem():
    assert len(QUESTIONS) == 10 + 4 * 3 + 4 * 3 + 3 * 3
    assert {codes for codes in ROWS if len(codes) == 3} == set(GEM_BY_CODE)


@pytest.mark.parametrize("codes", ROWS)
def test_each_phrase_reads_as_the_table_says_singular_and_plural(codes):
    de_one, de_many, es_one, es_many = ROWS[codes]
    assert (phrase(codes, "de", plural=False), phrase(codes, "de")) == (de_one, de_many)
    assert (phrase(codes, "es", plural=False), phrase(codes, "es")) == (es_one, es_many)


@pytest.mark.parametrize("codes", ROWS)
def test_the_order_of_the_codes_does_not_matter(codes):
    assert phrase(codes[::-1], "es") == ROWS[codes][3]


@pytest.mark.parametrize("codes", QUESTIONS)
def test_a_reports_question_says_the_tables_plural(codes):
    question = Question.from_codes(f"E:{codes}")
    de_many, es_many = ROWS[codes][1], ROWS[codes][3]
    assert question.text("de") == f"Wie viele {de_many} hat E?"
    feminine = es_many.split()[0] in ("gemas", "perlas", "parejas")
    assert question.text("es") == f"¿{'Cuántas' if feminine else 'Cuántos'} {es_many} tiene E?"


@pytest.mark.parametrize("codes", QUESTIONS)
@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_short_form_in_the_turn_language_is_the_plural_and_parses_back(codes, lang):
    question = Question.from_codes(f"E:{codes}")
    plural = ROWS[codes][1 if lang == "de" else 3]
    assert question.short(lang) == f"E {plural}"
    assert parse_question(question.short(lang)) == question


@pytest.mark.parametrize("gem", GEMS, ids=str)
def test_a_gems_spanish_name_is_the_tables_singular_and_parses_back(gem):
    assert gem.name("es") == ROWS[gem.code][2]
    assert parse_gem(gem.name("es")) == gem


@pytest.mark.parametrize("codes", ROWS)
@pytest.mark.parametrize("number", [0, 1])
def test_every_phrase_the_table_holds_parses_back_to_its_attributes(codes, number):
    for text in (ROWS[codes][number], ROWS[codes][2 + number]):
        if len(codes) == 3:
            assert parse_gem(text).code == codes
        else:
            assert parse_question(f"A {text}") == Question.from_codes(f"A:{codes}")
