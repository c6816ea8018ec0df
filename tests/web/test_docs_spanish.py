"""The Spanish rules and mail help: served to Spanish readers, complete, and their
turn examples understood by the service as the English ones are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vpsleuth.i18n import translate
from vpsleuth.orders import parse_turn, words
from vpsleuth.web import docs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SPANISH_KEYWORDS = re.compile(r"^(PREGUNTA|PISTA|APUESTA|QUITA|REPITE|FIN)\b")
# The two examples in the text that are wrong on purpose: a slip and a bad location.
MEANT_TO_FAIL = {"APUESTA A RD1, B RD1", "APUESTA H BO2"}


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if re.match(r"#{1,6} ", line)]


def code_blocks(markdown: str) -> list[str]:
    return re.findall(r"```text\n(.*?)```", markdown, re.S)


def table_rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("|")]


def inline_turn_lines(markdown: str) -> list[str]:
    """Inline code that is a whole turn line (``PISTA A RD1``), not a keyword named alone."""
    return [code for code in re.findall(r"`([^`\n]+)`", markdown)
            if SPANISH_KEYWORDS.match(code) and " " in code]


def steps(markdown_block: str) -> tuple[object, list[object]]:
    parsed = parse_turn(markdown_block)
    assert parsed.ok, [str(e) for e in parsed.errors]
    return parsed.change.question, parsed.change.steps


@pytest.mark.parametrize("page,stem", [("rules", "rulebook"), ("mail", "help-mail")])
def test_the_page_language_picks_the_document_in_that_language(page, stem):
    assert docs.source(page, "es") == DOCS / f"{stem}.es.md"
    assert docs.source(page, "de") == DOCS / f"{stem}.de.md"
    assert docs.source(page, "en") == DOCS / f"{stem}.md"
    for other in ("fr", "", "../es", "es/../../x"):  # no such file, or no language code
        assert docs.source(page, other) == DOCS / f"{stem}.md"


def test_the_spanish_rules_render_with_their_own_title_and_a_spanish_table_label(app):
    with app.test_request_context():
        title, body = docs.render("rules", "es")
    assert title == "Reglas de VP-Sleuth"
    assert "A partir de la ronda 5, además, se ordena a los" in body
    assert '<h2 id="reglas-de-la-casa">Reglas de la casa</h2>' in body
    assert '<div class="table-wrap" role="region" tabindex="0" aria-label="Tabla"><table>' in body


def test_a_spanish_browser_reads_the_rules_in_spanish(client):
    page = client.get("/rules", headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<html lang="es">' in text
    assert "<title>Reglas de VP-Sleuth" in text
    assert "A partir de la ronda 5, además" in text and ">Reglas de la casa</h2>" in text
    assert 'aria-label="Tabla"' in text
    assert text.count("<h2 ") == len([h for h in headings(read("rulebook.md")) if h[:3] == "## "])


def test_a_spanish_browser_reads_the_mail_help_in_spanish(client):
    page = client.get("/help/mail", headers={"Accept-Language": "es"})
    text = page.get_data(as_text=True)
    assert '<html lang="es">' in text
    assert "Cómo responder" in text and "PREGUNTA E ópalos azules" in text
    assert "REPITE" in text and "QUITA TODAS" in text
    assert "How to reply" not in text


@pytest.mark.parametrize("stem", ["rulebook", "RULES", "help-mail"])
def test_the_spanish_documents_have_every_section_table_and_example_of_the_english(stem):
    english, spanish = read(f"{stem}.md"), read(f"{stem}.es.md")
    assert [h.split()[0] for h in headings(spanish)] == [h.split()[0] for h in headings(english)]
    assert [h.split()[1] for h in headings(spanish) if h.startswith("## ")
            and h.split()[1][0].isdigit()] == [h.split()[1] for h in headings(english)
                                              if h.startswith("## ")
                                              and h.split()[1][0].isdigit()]
    assert len(table_rows(spanish)) == len(table_rows(english))
    assert len(code_blocks(spanish)) == len(code_blocks(english))
    assert ("(/rules)" in spanish) == ("(/rules)" in english)


def test_the_spanish_turn_examples_say_what_the_english_ones_say():
    english, spanish = code_blocks(read("help-mail.md")), code_blocks(read("help-mail.es.md"))
    # The turn language and the example reply: the same question and the same steps.
    for en, es in zip(english[:2], spanish[:2], strict=True):
        assert steps(es) == steps(en)
    assert len(steps(spanish[0])[1]) >= 7


@pytest.mark.parametrize("lang,name,bad_line,line_word", [
    ("en", "help-mail.md", "TIP H BO2", "line"),
    ("de", "help-mail.de.md", "TIPP H BO2", "Zeile"),
    ("es", "help-mail.es.md", "APUESTA H BO2", "línea")])
def test_the_refused_line_in_the_mail_help_reads_as_the_service_says_it(
        lang, name, bad_line, line_word):
    blocks = code_blocks(read(name))
    reply = blocks[1].splitlines()
    assert bad_line in read(name)
    reply[2] = bad_line  # "Had line 3 been ..."
    parsed = parse_turn("\n".join(reply))
    assert [e.line for e in parsed.errors] == [3]
    shown = blocks[2].splitlines()
    assert shown[0].endswith(": " + words.message(parsed.errors[0], lang, translate))
    assert shown[0].lstrip().startswith(f"{line_word} 3: ")
    assert shown[1].endswith(": " + words.hint(parsed.errors[0], lang, translate))


@pytest.mark.parametrize("name", ["RULES.es.md", "help-mail.es.md"])
def test_every_spanish_turn_line_written_in_the_text_is_understood(name):
    lines = inline_turn_lines(read(name))
    assert len(lines) >= 5
    for line in lines:
        parsed = parse_turn(line)
        assert parsed.ok != (line in MEANT_TO_FAIL), (line, [str(e) for e in parsed.errors])


def test_the_spanish_gem_words_of_the_rules_table_name_the_gems_of_their_codes():
    rows = {row.split("|")[1].strip(): row.split("|") for row in table_rows(read("RULES.es.md"))}
    for attribute in ("clase", "tamaño", "color"):
        cells = rows[attribute]
        words = [w.strip() for w in cells[4].split(",")]
        codes = [c.strip() for c in cells[5].split(",")]
        for word, code in zip(words, codes, strict=True):
            # In a question one attribute is enough: G <word> asks for exactly <code>.
            parsed = parse_turn(f"PREGUNTA G {word}")
            assert parsed.ok, parsed.errors
            assert [a.code for a in parsed.change.question.attributes] == [code]
