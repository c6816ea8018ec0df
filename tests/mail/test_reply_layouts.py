"""Quote headers, separator blocks and footers of more clients and languages (no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vpsleuth.mail.html import html_to_text
from vpsleuth.mail.inbound.reply import strip_reply

TEMPLATE_EN = "Hello Ada,\n\nQUESTION E blue opal\nTIP A RD1\n# REPEAT  (last round's tips again)"
TEMPLATE_DE = "Hallo Ben,\n\nFRAGE E blau Opal\nTIPP A RD1\n# WIEDERHOLE"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


ATTRIBUTIONS = [
    "On Mon, Nov 30, 2026 at 9:00 AM VP-Sleuth <v@x.org> wrote:",
    "Am Mo., 30. Nov. 2026 um 09:00 Uhr schrieb VP-Sleuth <\nv@x.org>:",
    "Am 30.11.2026 um 09:00 hat VP-Sleuth ‹v@x.org› geschrieben:",
    "Am Montag, 30. November 2026 um 09:00:00 MEZ hat VP-Sleuth <v@x.org> Folgendes "
    "geschrieben:",
    "VP-Sleuth <v@x.org> schrieb am Mo., 30. Nov. 2026, 09:00:",
    "El lun, 30 nov 2026 a las 9:00, VP-Sleuth (<v@x.org>)\nescribió:",
    "Le lun. 30 nov. 2026 à 09:00, VP-Sleuth <v@x.org> a\nécrit :",
    "Le 30/11/2026 à 09:00, VP-Sleuth a écrit :",
    "Op ma 30 nov 2026 om 09:00 schreef VP-Sleuth <v@x.org>:",
    "Op 30 nov. 2026 om 09:00 heeft VP-Sleuth <v@x.org> het volgende geschreven:",
    "Il giorno lun 30 nov 2026 alle ore 09:00 VP-Sleuth <\nv@x.org> ha scritto:",
    "Il 30/11/26 09:00, VP-Sleuth ha scritto:",
    "пн, 30 нояб. 2026 г. в 09:00, VP-Sleuth <v@x.org>:",
    "30 нояб. 2026 г., в 09:00, VP-Sleuth <v@x.org> написал(а):",
    "30.11.2026 09:00, VP-Sleuth пишет:",
    "* VP-Sleuth <v@x.org> [2026-11-30 09:00 +0100]:",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
def test_an_attribution_above_a_quote_is_blanked_in_every_language(attribution):
    text = f"TIP B BP2\n\nCheers\n\n{attribution}\n\n{quoted(TEMPLATE_EN)}\n"
    assert strip_reply(text) == "TIP B BP2\n\nCheers"


@pytest.mark.parametrize("attribution", [
    "    On Monday, November 30, 2026 at 09:00:00 AM GMT+1, VP-Sleuth <v@x.org> wrote:  ",
    "Am Montag, 30. November 2026 um 09:00:00 MEZ hat VP-Sleuth <v@x.org> Folgendes "
    "geschrieben:",
    "Il lunedì 30 novembre 2026 alle ore 09:00:00 CET, VP-Sleuth <v@x.org> ha scritto:",
])
def test_yahoo_attribution_above_an_unquoted_original_cuts_it_off(attribution):
    text = f"TIP B BP2\n\n{attribution}\n \n Hello Ada,\n QUESTION E blue opal\n TIP A RD1\n"
    assert strip_reply(text) == "TIP B BP2"


HEADER_BLOCKS = [
    "Gesendet: Montag, 30. November 2026 um 09:00 Uhr\nVon: \"VP-Sleuth\" <v@x.org>\n"
    "An: ben@gmx.de\nBetreff: Runde 1",
    "Sent: Monday, November 30, 2026 at 9:00 AM\nFrom: \"VP-Sleuth\" <v@x.org>\n"
    "To: ada@mail.com\nSubject: round 1",
    "Von: VP-Sleuth\nGesendet: Montag, 30. November 2026 09:00\nAn: Ben\nBetreff: Runde 1",
    "De : VP-Sleuth <v@x.org>\nEnvoyé : lundi 30 novembre 2026 09:00\nÀ : Amélie\nObjet : x",
    "De: VP-Sleuth <v@x.org>\nEnviado el: lunes, 30 de noviembre de 2026 9:00\nPara: Lucía\n"
    "Asunto: x",
    "Da: VP-Sleuth <v@x.org>\nInviato: lunedì 30 novembre 2026 09:00\nA: Giulia\nOggetto: x",
    "Van: VP-Sleuth <v@x.org>\nVerzonden: maandag 30 november 2026 09:00\nAan: Daan\n"
    "Onderwerp: x",
    "От: VP-Sleuth <v@x.org>\nОтправлено: 30 ноября 2026 г. 9:00\nКому: Борис\nТема: x",
    "-------- Original Message --------\nSubject: \tround 1\nDate: \tMon, 30 Nov 2026\n"
    "From: \tVP-Sleuth <v@x.org>",
    "-------- Mensaje original --------\nDe: VP-Sleuth <v@x.org> \nFecha: 30/11/2026 09:00",
    "-------- Messaggio originale --------", "-------- Oorspronkelijk bericht --------",
    "-------- Исходное сообщение --------", "------- Original Message -------",
]


@pytest.mark.parametrize("block", HEADER_BLOCKS)
def test_a_separator_or_header_block_cuts_off_the_unquoted_original(block):
    text = f"TIP B BP2\n\n________________________________\n{block}\n\n{TEMPLATE_EN}\n"
    assert strip_reply(text) == "TIP B BP2"


@pytest.mark.parametrize("footer", [
    "Sent from a magnificent torch of pixels", "Gesendet von Mail für Windows",
    "Sent from Mail for Windows", "Gesendet mit der GMX Mail App", "Envoyé de mon iPhone",
    "Enviado desde mi iPhone", "Inviato da iPhone", "Verstuurd vanaf mijn iPhone",
    "Отправлено с iPhone", "Sent from Yahoo Mail on Android",
    "Outlook für Android<https://aka.ms/AAb9ysg> herunterladen",
    "Get Outlook for iOS<https://aka.ms/o0ukef>", "Sent with Proton Mail secure email.",
    "Gesendet mit der sicheren E-Mail von Proton Mail.", "Von meinem Galaxy gesendet",
])
def test_client_footers_end_the_text(footer):
    assert strip_reply(f"TIP A RD2\nGrüße\n\n{footer}\n\nTIP A RD1") == "TIP A RD2\nGrüße"


def test_a_line_ending_in_a_colon_is_kept_when_no_quote_follows():
    text = "QUESTION A red\nmy tips for 30.11.:\nTIP B BP2"
    assert strip_reply(text) == text


def test_a_turn_line_is_never_taken_for_an_attribution():
    assert strip_reply("TIP B BP2\nwrote:\n> TIP A RD1").split("\n")[0] == "TIP B BP2"


def test_gmails_html_signature_is_cut_off_like_the_plain_one():
    html = ('<div dir="ltr"><div>TIP A RD2</div><br clear="all"><div><br></div>'
            '<div dir="ltr" class="gmail_signature" data-smartmail="gmail_signature">Ada '
            'Lovelace<br>TIP A RD1</div></div><div class="gmail_quote">x</div>')
    assert strip_reply(html_to_text(html)) == "TIP A RD2"


def test_text_typed_into_the_ios_signature_container_is_kept():
    html = ('<div dir="ltr">TIP A RD2</div><div id="AppleMailSignature" dir="ltr">TIP B BP2'
            '<br>Sent from my iPhone</div><blockquote type="cite">TIP A RD1</blockquote>')
    assert strip_reply(html_to_text(html)) == "TIP A RD2\nTIP B BP2"


@pytest.mark.parametrize("markup", [
    '<div id="yahoo_quoted_1" class="yahoo_quoted"><div>On Monday wrote:</div><div>{}</div>'
    '</div>',
    '<div name="quote"><div><b>Gesendet:</b> Montag<br><b>Von:</b> VP</div><div '
    'name="quoted-content">{}</div></div>',
])
def test_quote_containers_of_web_mailers_are_read_as_quoted(markup):
    html = "<div>TIP A RD2</div>" + markup.format(TEMPLATE_EN.replace("\n", "<br>"))
    assert strip_reply(html_to_text(html)) == "TIP A RD2"


@given(st.lists(st.sampled_from(["QUESTION A red", "TIP B BP2", "", "# note", "Cheers",
                                 "TIPP D GO3"]), max_size=5),
       st.sampled_from(ATTRIBUTIONS), st.sampled_from([TEMPLATE_EN, TEMPLATE_DE]),
       st.booleans())
def test_a_quoted_template_never_survives_any_attribution(lines, attribution, template,
                                                          below):
    quote = f"{attribution}\n{quoted(template)}"
    text = "\n".join([quote, *lines] if below else [*lines, quote])
    stripped = strip_reply(text)
    assert "RD1" not in stripped and "blue opal" not in stripped and "blau Opal" not in stripped
    assert [line for line in stripped.split("\n") if line] == [line for line in lines if line]
