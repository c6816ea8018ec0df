"""The turn form's examples are in the reader's language, and every one of them parses."""

from __future__ import annotations

import html
import re

import pytest

from vpsleuth.mail.notify import EXAMPLE_TURNS
from vpsleuth.orders import parse_turn
from vpsleuth.orders.keywords import KEYWORDS

OWN_KEYWORDS = {
    "en": {"QUESTION", "TIP", "DROP", "REPEAT", "END"},
    "de": {"FRAGE", "TIPP", "STREICHE", "WIEDERHOLE", "ENDE"},
    "es": {"PREGUNTA", "APUESTA", "QUITA", "REPITE", "FIN"},
}
ENGLISH_GEM_WORDS = {"blue", "opal", "yellow", "cluster", "red", "diamond", "NONE"}


def shown_examples(client, game_id: int, lang: str) -> list[str]:
    client.get(f"/lang/{lang}")
    page = client.get(f"/games/{game_id}/turn").get_data(as_text=True)
    code = re.search(r'<code id="turn-examples">(.*?)</code>', page, re.S).group(1)
    return html.unescape(code).split(" · ")


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_each_example_on_the_turn_form_parses_in_the_readers_keywords(moonstone, ada, lang):
    lines = shown_examples(ada, moonstone.id, lang)
    assert len(lines) >= 5
    for line in lines:
        parsed = parse_turn(line)
        assert parsed.ok, (line, [str(e) for e in parsed.errors])
        assert line.split()[0] in OWN_KEYWORDS[lang], line
    kinds = {KEYWORDS[line.split()[0].lower()] for line in lines}
    assert kinds == {"question", "tip", "drop", "repeat"}


@pytest.mark.parametrize(("lang", "words"), [
    ("de", {"blaue", "Opale", "Opal", "gelb", "KEINE"}),
    ("es", {"ópalos", "azules", "ópalo", "amarillo", "NINGUNA"}),
])
def test_german_and_spanish_examples_use_their_own_gem_words(moonstone, ada, lang, words):
    said = " ".join(shown_examples(ada, moonstone.id, lang)).split()
    assert words <= set(said)
    assert not ENGLISH_GEM_WORDS & set(said)
    assert not OWN_KEYWORDS["en"] & set(said)


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_round_mails_blank_turn_parses_in_the_readers_keywords(lang):
    parsed = parse_turn(EXAMPLE_TURNS[lang])
    assert parsed.ok and not parsed.change.is_empty
    firsts = {line.split()[0] for line in EXAMPLE_TURNS[lang].splitlines()
              if not line.startswith("#")}
    assert firsts <= OWN_KEYWORDS[lang]
