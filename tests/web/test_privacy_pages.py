"""The privacy notice and the imprint (issue 22, 5): the operator's files, or the facts.

Without files, /privacy is written from what the service stores (the same
facts as docs/privacy.md, which a test here holds together, with every table
of the database) in the reader's language; with them, the operator's own text
and its translations. Both are linked from every page and every mail's foot,
and `vpsleuth check` warns where strangers come and either is missing.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from vpsleuth import ROOT
from vpsleuth.extensions import db
from vpsleuth.models import OutboxMessage
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, privacy
from vpsleuth.services.check import check_privacy
from vpsleuth.services.retention import DEFAULTS

H1 = re.compile(r"<h1[^>]*>(.*?)</h1>")
DOC = (ROOT / "docs" / "privacy.md").read_text(encoding="utf-8")


def test_every_table_is_one_fact_and_docs_privacy_states_every_fact(app):
    named = [t for fact in privacy.FACTS for t in fact.tables]
    assert len(named) == len(set(named)), "a table in two facts"
    assert set(named) == {t.name for t in db.metadata.sorted_tables}
    for fact in privacy.FACTS:
        row = next((line for line in DOC.splitlines() if line.startswith(f"| {fact.key} |")),
                   None)
        assert row is not None, fact.key
        assert all(f"`{table}`" in row for table in fact.tables), fact.key
    for setting, value in DEFAULTS.items():
        assert setting in DOC
        unit = "hours" if setting.endswith("HOURS") else "days"
        assert f"{value} {unit}" in DOC, setting


@pytest.mark.parametrize("lang, title", [("en", "Privacy"), ("de", "Datenschutz"),
                                         ("es", "Privacidad")])
def test_the_default_notice_is_written_from_the_facts_in_the_readers_language(
        app, client, lang, title):
    app.config.update(RETAIN_INBOUND_DAYS=45, PRIVACY_CONTACT="Jane Roe, privacy@op.example")
    client.get(f"/lang/{lang}")
    page = client.get("/privacy").get_data(as_text=True)
    assert H1.findall(page) == [title]
    assert "Jane Roe, privacy@op.example" in page
    assert page.count("<tr>") == len(privacy.FACTS)  # a head row, a row per fact but one
    table = privacy.table(lang)
    assert "45" in table and "48" in table
    assert "{" not in page  # every place filled in
    assert 'id="footer-privacy"' in page and 'id="footer-imprint"' not in page
    assert client.get("/imprint").status_code == 404


def test_the_operators_files_and_their_translations_are_shown(app, client, tmp_path):
    notice = tmp_path / "privacy.md"
    notice.write_text("# Our privacy\n\nWe keep little. <script>alert(1)</script>\n")
    (tmp_path / "privacy.de.md").write_text("# Unser Datenschutz\n\nWir speichern wenig.\n")
    imprint = tmp_path / "imprint.md"
    imprint.write_text("# Imprint\n\nJane Roe, Example Street 1\n")
    app.config.update(PRIVACY_FILE=str(notice), IMPRINT_FILE=str(imprint))
    page = client.get("/privacy").get_data(as_text=True)
    assert H1.findall(page) == ["Our privacy"] and "<script>alert" not in page
    client.get("/lang/de")
    assert H1.findall(client.get("/privacy").get_data(as_text=True)) == ["Unser Datenschutz"]
    client.get("/lang/es")  # no Spanish file: the operator's own
    assert H1.findall(client.get("/privacy").get_data(as_text=True)) == ["Our privacy"]
    shown = client.get("/imprint")
    assert shown.status_code == 200 and "Example Street 1" in shown.get_data(as_text=True)
    for path in ("/", "/rules", "/archive", "/signin", "/leaderboard"):
        body = client.get(path).get_data(as_text=True)
        assert 'href="/privacy"' in body and 'href="/imprint"' in body, path
    imprint.unlink()
    assert client.get("/imprint").status_code == 404


def test_every_mail_foot_links_the_privacy_notice_and_the_imprint(app, tmp_path):
    app.config.update(BASE_URL="https://sleuth.example.org", IMPRINT_FILE=str(tmp_path / "i"))
    game = games.create_game("Foot", weekly("2030-01-06 20:00", "UTC"))
    games.add_player(game, "Ada", "ada@example.org")
    mail = db.session.scalars(select(OutboxMessage)).one()
    assert "https://sleuth.example.org/privacy" in mail.body_text
    assert "https://sleuth.example.org/imprint" in mail.body_text
    assert 'href="https://sleuth.example.org/privacy"' in mail.body_html


def test_check_warns_where_strangers_come_and_a_file_is_missing(app, tmp_path):
    app.config.update(BASE_URL="https://sleuth.example.org")
    said = " ".join(text for _, text in check_privacy())
    assert "no PRIVACY_FILE" in said and "no IMPRINT_FILE" in said
    notice, imprint = tmp_path / "p.md", tmp_path / "i.md"
    notice.write_text("# P\n")
    imprint.write_text("# I\n")
    app.config.update(PRIVACY_FILE=str(notice), IMPRINT_FILE=str(imprint))
    assert [level for level, _ in check_privacy()] == ["ok"]
    app.config.update(IMPRINT_FILE=str(tmp_path / "gone.md"))
    assert "error" in [level for level, _ in check_privacy()]
    app.config.update(BASE_URL="http://localhost:5000", PRIVACY_FILE=None, IMPRINT_FILE=None)
    assert [level for level, _ in check_privacy()] == ["ok"]
