"""The rules and the mail help in the app, EN and DE, linked from every page and every mail."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vpsleuth.mail import render
from vpsleuth.orders import parse_turn
from vpsleuth.web import docs

ROOT = Path(__file__).resolve().parents[2]
EMAIL = ROOT / "templates" / "email"


def headings(markdown: str, level: str = "## ") -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith(level)]


def code_blocks(markdown: str) -> list[str]:
    return re.findall(r"```text\n(.*?)```", markdown, re.S)


def test_the_rules_page_shows_every_section_of_the_rulebook_in_the_repository(client):
    page = client.get("/rules").get_data(as_text=True)
    source = (ROOT / "docs" / "rulebook.md").read_text()
    assert page.count("<h2 ") == len(headings(source)) >= 8
    assert "From round 5 on, the players are also ranked" in page
    assert '<h2 id="house-rules">House rules</h2>' in page
    assert '<div class="table-wrap" role="region" tabindex="0" aria-label="Table"><table>' in page


def test_the_german_rules_follow_the_browser_before_sign_in(client):
    page = client.get("/rules", headers={"Accept-Language": "de-DE,de;q=0.9"})
    text = page.get_data(as_text=True)
    assert '<html lang="de">' in text
    assert "Ab Runde 5 werden die Spieler außerdem" in text and ">Hausregeln</h2>" in text
    assert 'aria-label="Tabelle"' in text


def test_the_german_rules_and_help_have_every_section_of_the_english(client):
    for stem in ("rulebook", "RULES", "help-mail"):
        english = (ROOT / "docs" / f"{stem}.md").read_text()
        german = (ROOT / "docs" / f"{stem}.de.md").read_text()
        assert len(headings(german)) == len(headings(english)), stem
        assert len(code_blocks(german)) == len(code_blocks(english)), stem


@pytest.mark.parametrize("stem", ["help-mail", "help-mail.de"])
def test_the_turn_language_in_the_mail_help_is_understood_by_the_service(stem):
    example = code_blocks((ROOT / "docs" / f"{stem}.md").read_text())[0]
    parsed = parse_turn(example)
    assert parsed.ok, parsed.errors
    assert parsed.change.changes_question and len(parsed.change.steps) >= 7


def test_the_mail_help_explains_replying_and_the_turn_language_in_both_languages(client):
    english = client.get("/help/mail").get_data(as_text=True)
    assert "How to reply" in english and "QUESTION E blue opal" in english
    assert "REPEAT" in english and "all or nothing" in english
    client.get("/lang/de")
    german = client.get("/help/mail").get_data(as_text=True)
    assert "So antwortest du" in german and "FRAGE E blaue Opale" in german
    assert "WIEDERHOLE" in german


def test_raw_html_in_a_doc_is_shown_as_text_and_script_links_are_not_links():
    html = docs.MARKDOWN.render('<script>alert(1)</script>\n\n[x](javascript:alert(1)) '
                                '<img src=x onerror=alert(1)>')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<img" not in html and 'href="javascript' not in html


@pytest.mark.parametrize("path", ["/", "/signin", "/rules", "/help/mail", "/no-such-page"])
def test_every_page_links_the_rules_and_the_mail_help_in_its_footer(client, path):
    page = client.get(path).get_data(as_text=True)
    footer = page[page.index('<footer class="bottom">'):]
    assert 'href="/rules"' in footer and 'href="/help/mail"' in footer


def test_every_mail_text_ends_with_the_rules_and_the_help_in_its_language():
    for template in sorted(EMAIL.glob("*.txt")):  # one template per mail, every language
        if not template.name.startswith("_"):
            assert '{%- include "email/_footer.txt" %}' in template.read_text(), (
                f"{template.relative_to(ROOT)} lacks the footer")


@pytest.mark.parametrize("lang,words,help_words,privacy", [
    ("en", "the rules", "How to play by mail", "Privacy"),
    ("de", "die Spielregeln", "Per Mail spielen", "Datenschutz"),
    ("es", "las reglas", "Cómo jugar por correo", "Privacidad")])
def test_a_mail_links_the_rules_and_the_help_in_text_and_html(app, lang, words, help_words,
                                                              privacy):
    app.config["BASE_URL"] = "https://sleuth.test"
    with app.test_request_context():
        _, text, html = render.render("sign_in", lang, link="https://sleuth.test/signin/x")
    assert text.endswith(f"\n\n-- \nVP-Sleuth · {words}: https://sleuth.test/rules\n"
                         f"{help_words}: "
                         "https://sleuth.test/help/mail\n"
                         f"{privacy}: https://sleuth.test/privacy")
    assert 'href="https://sleuth.test/rules"' in html
    assert 'href="https://sleuth.test/help/mail"' in html


def test_readme_links_the_rules_inside_the_repository():
    readme = (ROOT / "README.md").read_text()
    assert "](docs/rulebook.md)" in readme and "](docs/RULES.md)" in readme
    assert "../shared/RULES.md" not in readme
