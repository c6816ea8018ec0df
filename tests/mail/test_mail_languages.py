"""Every mail in English, German and Spanish from one template each: no English left over.

Each mail kind is rendered in en, de and es from the same data. The English
text (and the HTML's text) is cut into sentences and lines; what is left of
each after taking out the data (names, codes, numbers, addresses) must not be
found in the German or Spanish mail if it still has two words or more.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from babel.support import Translations

from vpsleuth import i18n
from vpsleuth.mail import render
from vpsleuth.orders import ShownLine
from vpsleuth.rules import Ruleset
from vpsleuth.services.reports import AskedQuestion, ReportRow, RoundReport, render_text

DEADLINE = "DEADLINE-TEXT"  # the deadline's words are Babel's, checked on their own below
GAME = SimpleNamespace(name="Tormenta", id=7, early_resolution=True,
                       commitment="c0ffee" * 10 + "abcd", rounds=12,
                       ruleset=Ruleset(early_resolution=True), after_early="fresh",
                       deduction_aid=True)
PLAYER = SimpleNamespace(name="Ana")
ROUND = SimpleNamespace(number=3)
REQUEST = SimpleNamespace(name="Zoe", email="zoe@example.org", message="Zoe-message-text")
LINK = "https://sleuth.test/signin/abc"
# A short story as services/story.py tells it: a round that proved nothing (one answer
# known before), one that proved the red diamonds at B; one player with one of each, one
# with many.
RED_DIAMONDS = ("RD1", "RD2", "RD3")
STORY = {"final": True, "complete": True, "start_bits": 89.746, "rounds": [
    {"number": 1, "bits_left": 86.5, "count": 1.0e26, "exact": False, "revealed_bits": 3.2,
     "certain": 0, "newly_certain": [], "best": {"question": "A:D", "expected_bits": 2.04},
     "questions": [{"asked_by": "Ana", "question": "E:BO", "answer": 2, "revealed_bits": 1.5,
                    "expected_bits": 1.25},
                   {"asked_by": "Ben", "question": "C:Y", "answer": 1, "revealed_bits": -0.0,
                    "expected_bits": -0.0}]},
    {"number": 2, "bits_left": 77.1, "count": 2.0e23, "exact": False, "revealed_bits": 9.4,
     "certain": 3, "newly_certain": list(RED_DIAMONDS), "best": None,
     "questions": [{"asked_by": "Ana", "question": "B:RD", "answer": 3, "revealed_bits": 9.4,
                    "expected_bits": 1.9}]}],
    "gems": [{"gem": code, "certain_in_round": 2, "location": "B", "because": [
        {"round": 2, "asked_by": "Ana", "answer": 3, "question": "B:RD"}]}
        for code in RED_DIAMONDS] + [{"gem": code, "certain_in_round": None, "location": None,
                                      "because": []} for code in ("GO2", "YO3")],
    "players": [{"player": "Ana", "safe_tips": 1, "guesses": 1, "right_guesses": 1,
                 "wrong_guesses": 0, "left_on_table": 1, "points_left": 1},
                {"player": "Ben", "safe_tips": 2, "guesses": 3, "right_guesses": 2,
                 "wrong_guesses": 1, "left_on_table": 0, "points_left": 0}]}
# What is the same in every language on purpose: the turn language's example codes,
# the command that checks the commitment, and our name.
ALLOWED = ("printf", "sha256sum", "VP-Sleuth", "VP-SLEUTH")


def report(final: bool) -> RoundReport:
    return RoundReport(
        game="Tormenta", round=3, rounds=12, resolved_at=datetime(2026, 12, 6, 19, tzinfo=UTC),
        bonus_round=True,
        questions=[AskedQuestion("Ana", "E", "BO", "E-BO-question", 2)],
        rows=[ReportRow("Ana", True, 3, 2, 5, 9, 1), ReportRow("Ben", False, 0, 0, 0, 4, 2)],
        history={"Ana": [2, 4, 9], "Ben": [1, 4, 4]},
        next_deadline=None if final else datetime(2026, 12, 13, 19, tzinfo=UTC),
        final=final, commitment="c0ffee",
        winners=["Ana", "Ben"] if final else [],
        distribution="A=RD1,RD2;X=YO3" if final else None, salt="5a17" if final else None)


def every_mail(lang: str) -> dict[str, tuple[str, str, str]]:
    """Each mail kind (and its variants) rendered in ``lang`` from the same data."""
    game_player = dict(game=GAME, player=PLAYER)
    errors = [ShownLine(2, "TIP H RD1", "H-is-no-place", "TIP A RD1")]
    mails = {
        "sign_in": render.render("sign_in", lang, link=LINK),
        "address_change": render.render("address_change", lang, link=LINK, **game_player),
        "invitation": render.render("invitation", lang, link=LINK, gm_name=None,
                                    **game_player),
        "round_opened": render.render("round_opened", lang, round=ROUND, deadline=DEADLINE,
                                      turn_template="TIP A RD1\n", **game_player),
        "confirmation": render.render("confirmation", lang, round=ROUND, channel="email",
                                      by_gm=False, deadline=DEADLINE, turn="TIP A RD1\n",
                                      signoff=("Ana",), **game_player),
        "confirmation_gm": render.render("confirmation", lang, round=ROUND, channel="gm",
                                         by_gm=True, deadline=DEADLINE, turn="TIP A RD1\n",
                                         signoff=(), **game_player),
        "refused": render.render("refused", lang, errors=errors, reason="REASON-TEXT",
                                 round=ROUND, deadline=DEADLINE, **game_player),
        "reminder": render.render("reminder", lang, round=ROUND, hours=24, deadline=DEADLINE,
                                  turn_template="TIP A RD1\n", **game_player),
        "reminder_1": render.render("reminder", lang, round=ROUND, hours=1, deadline=DEADLINE,
                                    turn_template="TIP A RD1\n", **game_player),
        "deadline_moved": render.render("deadline_moved", lang, round=ROUND,
                                        reason="REASON-TEXT", deadline=DEADLINE,
                                        **game_player),
        "join_requested": render.render("join_requested", lang, game=GAME, request=REQUEST,
                                        gm_name="Gil", link=LINK),
        "join_declined": render.render("join_declined", lang, game=GAME, request=REQUEST,
                                       link=LINK),
        "not_understood": render.render("not_understood", lang, reason="REASON-TEXT"),
    }
    for final in (False, True):
        built = report(final)
        text = render_text(built, "Europe/Berlin", lang)
        mails[f"report_{final}"] = render.render("report", lang, report=built,
                                                 report_text=text, **game_player)
    return mails


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(html: str) -> str:
    """The words of an HTML mail, a line per paragraph or cell."""
    parser = _Text()
    parser.feed(re.sub(r"<(br|/p|/li|/tr|/td|/th|/h\d|/pre)[^>]*>", "\n", html))
    return re.sub(r"[ \t]+", " ", "".join(parser.parts))


_DATA = re.compile(r"E-BO-question|H-is-no-place|DEADLINE-TEXT|REASON-TEXT|[\w-]*-text|"
                   r"https?://\S+|\S+@\S+|\b[A-G]\b|\b[RBGY][DPO][123]\b|[\d.,:/-]+|"
                   r"Tormenta|Ana|Ben|Zoe|Gil|c0ffee\w*|5a17")


def english_fragments(text: str) -> set[str]:
    """The sentences, lines and clauses of ``text`` that still have two words once the
    data is out (a clause too, so a sentence translated but for one part is caught)."""
    found = set()
    for line in text.splitlines():
        for piece in re.split(r"(?<=[.:;!?])\s+|[(),;:]", line.strip()):
            words = re.findall(r"[A-Za-z']{2,}", _DATA.sub(" ", piece))
            if len(words) >= 2 and not any(allowed in piece for allowed in ALLOWED):
                found.add(" ".join(words))
    return found


def flat(text: str) -> str:
    """``text`` with its lines joined: the text mails wrap long sentences."""
    return " ".join(text.split())


def words_of(text: str) -> str:
    return " ".join(re.findall(r"[A-Za-z']{2,}", _DATA.sub(" ", text)))


@pytest.fixture(scope="module")
def rendered():
    """The mails in all three languages, rendered once for the module's tests."""
    from vpsleuth import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://",
                      "BASE_URL": "https://sleuth.test"})
    # The final report tells the game afterwards (mail/story_mail.py); here a short story.
    app.jinja_env.globals["final_story"] = lambda game, lang="en": STORY
    with app.app_context():
        return {lang: every_mail(lang) for lang in ("en", "de", "es")}


@pytest.mark.parametrize("lang", ["de", "es"])
def test_no_english_sentence_is_left_in_any_german_or_spanish_mail(rendered, lang):
    checked = 0
    for kind, (subject, text, html) in rendered["en"].items():
        other_subject, other_text, other_html = rendered[lang][kind]
        for english, other in ((subject, other_subject), (text, other_text),
                               (html_text(html), html_text(other_html))):
            other_words = words_of(other)
            for fragment in english_fragments(english):
                checked += 1
                assert fragment not in other_words, f"{lang} {kind}: English left: {fragment!r}"
    assert checked > 200  # the split found the sentences it is meant to compare


def test_the_subjects_are_spanish(rendered):
    subjects = {kind: mail[0] for kind, mail in rendered["es"].items()}
    assert subjects["sign_in"] == "Tu enlace de acceso a VP-Sleuth"
    assert subjects["invitation"] == "Te invitan a la partida de VP-Sleuth «Tormenta»"
    assert subjects["round_opened"] == ("Tormenta: la ronda 3 está abierta hasta el "
                                        "DEADLINE-TEXT")
    assert subjects["reminder"] == "Tormenta: quedan 24 horas para la ronda 3"
    assert subjects["reminder_1"] == "Tormenta: queda 1 hora para la ronda 3"
    assert subjects["report_False"] == "Tormenta: informe de la ronda 3"
    assert subjects["report_True"] == "Tormenta: informe final"
    assert subjects["not_understood"] == ("VP-Sleuth no ha podido asignar tu correo a "
                                          "ninguna partida")


def test_the_german_mails_keep_the_german_wording(rendered):
    subject, text, html = rendered["de"]["round_opened"]
    text = flat(text)
    assert subject == "Tormenta: Runde 3 läuft bis DEADLINE-TEXT"
    assert "Runde 3 von \"Tormenta\" hat begonnen. Abgabetermin: DEADLINE-TEXT." in text
    assert "WIEDERHOLE schickt die Tipps der letzten Runde noch einmal." in text
    assert "Hallo <strong>" not in html and "Hallo Ana," in html
    _, refused, _ = rendered["de"]["refused"]
    assert "  Zeile 2: H-is-no-place\n      richtig: TIP A RD1\n" in refused
    assert rendered["de"]["reminder"][0] == "Tormenta: noch 24 Stunden für Runde 3"


def test_the_channel_and_the_spanish_words_around_a_refusal(rendered):
    assert "Hemos guardado tu turno (correo)." in rendered["es"]["confirmation"][1]
    assert flat(rendered["es"]["confirmation_gm"][1]).startswith(
        "Hola, Ana: El director de juego ha introducido este turno por ti")
    assert "wir haben deinen Zug gespeichert (E-Mail)." in rendered["de"]["confirmation"][1]
    _, text, html = rendered["es"]["refused"]
    assert "  línea 2: H-is-no-place\n      escribe: TIP A RD1\n" in text
    assert "escribe: <code>TIP A RD1</code>" in html
    assert "La ronda 3 está abierta hasta el <strong>DEADLINE-TEXT</strong>." in html


def test_the_spanish_report_text_uses_the_spanish_words(rendered):
    _, text, _ = rendered["es"]["report_True"]
    assert "Informe final -- Ronda 3 de 12" in text
    assert "La partida ha terminado. Ganadores: Ana, Ben" in text
    assert "X (nadie): YO3" in text
    _, text, _ = rendered["es"]["report_False"]
    assert "Próximo plazo: dom 13 dic 2026, 20:00 CET" in text
    assert "Sin turno: este jugador no envió turno en esta ronda" in text


def test_a_name_with_markup_stays_text_in_html(rendered):
    from vpsleuth import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://",
                      "BASE_URL": "https://sleuth.test"})
    with app.app_context():
        _, _, html = render.render("join_declined", "es", game=GAME, link=LINK,
                                   request=SimpleNamespace(name="<b>Eve</b>"))
    assert "Hola, &lt;b&gt;Eve&lt;/b&gt;:" in html and "<b>Eve" not in html


def test_a_missing_entry_falls_back_to_english_alone(monkeypatch):
    """A language whose catalogue lacks one text: that text in English, the rest not."""
    from vpsleuth import create_app

    spanish = Translations.load(str(i18n.DIRECTORY), ["es"])
    partial = Translations()
    partial._catalog = {k: v for k, v in spanish._catalog.items()
                        if k != "Your VP-Sleuth sign-in link"}
    partial.plural = spanish.plural
    monkeypatch.setattr(i18n, "catalogue", lambda lang: partial if lang == "es" else
                        spanish.__class__())
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://",
                      "BASE_URL": "https://sleuth.test"})
    with app.app_context():
        subject, text, _ = render.render("sign_in", "es", link=LINK)
        french = render.render("sign_in", "fr", link=LINK)
    assert subject == "Your VP-Sleuth sign-in link"
    assert "Aquí tienes tu enlace para entrar en VP-Sleuth." in text
    assert french[0] == "Your VP-Sleuth sign-in link"  # no catalogue at all: English
    assert "here is your link to sign in" in french[1]


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_the_blank_turn_in_a_round_mail_parses_in_its_own_language(lang):
    from vpsleuth.mail.notify import EXAMPLE_TURNS
    from vpsleuth.orders import parse_turn

    parsed = parse_turn(EXAMPLE_TURNS[lang])
    assert parsed.ok and parsed.change.question.placeholder == "E"
    assert [step.gem.code for step in parsed.change.steps] == ["RD1"]
