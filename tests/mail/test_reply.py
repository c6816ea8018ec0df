"""Stripping quotes and signatures from replies (no database)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vpsleuth.mail.inbound.reply import has_content, strip_reply

TEMPLATE_EN = "QUESTION E blue opal\nTIP A RD1\n# REPEAT  (last round's tips again)"
TEMPLATE_DE = "FRAGE E blau Opal\nTIPP A RD1\n# WIEDERHOLE  (die Tipps der letzten Runde)"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def test_a_plain_turn_is_kept_as_it_is():
    assert strip_reply("QUESTION A red\nTIP B BP2\n\n# late tip\nTIP C GO3\n") \
        == "QUESTION A red\nTIP B BP2\n\n# late tip\nTIP C GO3"


def test_gmail_reply_above_on_wrote_drops_the_quote():
    text = f"QUESTION A red\n\nOn Mon, Nov 30, 2026 at 9:00 AM VP-Sleuth <v@x.org> wrote:\n\n" \
           f"{quoted(TEMPLATE_EN)}\n"
    assert strip_reply(text) == "QUESTION A red"


def test_an_attribution_wrapped_over_two_lines_is_recognised():
    text = "TIP B BP2\n\nOn Mon, Nov 30, 2026 at 9:00 AM VP-Sleuth <\nvpsleuth+3.abc@x.org> " \
           f"wrote:\n{quoted(TEMPLATE_EN)}"
    assert strip_reply(text) == "TIP B BP2"


def test_german_am_schrieb_attribution_drops_the_quote():
    text = f"FRAGE A rot\n\nAm 30.11.2026 um 09:00 schrieb VP-Sleuth <v@x.org>:\n\n" \
           f"{quoted(TEMPLATE_DE)}"
    assert strip_reply(text) == "FRAGE A rot"


def test_older_thunderbird_german_attribution_drops_the_quote():
    text = f"FRAGE A rot\n\nVP-Sleuth schrieb am 30.11.2026 09:00:\n{quoted(TEMPLATE_DE)}"
    assert strip_reply(text) == "FRAGE A rot"


def test_outlook_original_message_block_is_cut_off_with_the_unquoted_original():
    text = "QUESTION G solitaire\r\n\r\n-----Original Message-----\r\nFrom: VP-Sleuth\r\n" \
           f"Sent: Monday\r\nSubject: round 1\r\n\r\n{TEMPLATE_EN}\r\n"
    assert strip_reply(text) == "QUESTION G solitaire"


def test_german_outlook_block_with_underscores_is_cut_off():
    text = "FRAGE C grün Perle\n\n________________________________\nVon: VP-Sleuth <v@x.org>\n" \
           f"Gesendet: Montag, 30. November 2026 09:00\nAn: Ben\nBetreff: Runde 1\n\n" \
           f"{TEMPLATE_DE}"
    assert strip_reply(text) == "FRAGE C grün Perle"


def test_ursprungliche_nachricht_separator_is_cut_off():
    text = f"FRAGE C grün\n-----Ursprüngliche Nachricht-----\n{TEMPLATE_DE}"
    assert strip_reply(text) == "FRAGE C grün"


def test_outlook_header_block_without_separator_is_cut_off():
    text = f"TIP A RD2\n\nFrom: VP-Sleuth <v@x.org>\nDate: Monday\nTo: Ada\n\n{TEMPLATE_EN}"
    assert strip_reply(text) == "TIP A RD2"


def test_wrote_followed_by_an_unquoted_original_is_cut_off():
    text = f"TIP A RD2\n\nOn Monday VP-Sleuth wrote:\n\nHello Ada,\n{TEMPLATE_EN}"
    assert strip_reply(text) == "TIP A RD2"


def test_bottom_posting_keeps_the_lines_below_the_quote_with_their_numbers():
    text = f"On 11/30/26 09:00, VP-Sleuth wrote:\n{quoted(TEMPLATE_EN)}\n\nQUESTION A red\n" \
           "TIP B BP2\n"
    stripped = strip_reply(text)
    assert stripped.split("\n")[5:] == ["QUESTION A red", "TIP B BP2"]
    assert not any(stripped.split("\n")[:5])


def test_interleaved_replies_keep_only_the_players_lines():
    text = "> QUESTION E blue opal\nQUESTION A red\n> TIP A RD1\nTIP B BP2\n>> older\n"
    assert strip_reply(text) == "\nQUESTION A red\n\nTIP B BP2"


def test_signature_after_dash_dash_space_is_dropped():
    assert strip_reply("TIP A RD1\n-- \nAda Lovelace\nQUESTION G opal\n") == "TIP A RD1"
    assert strip_reply("TIP A RD1\n--\nAda\n") == "TIP A RD1"


def test_mobile_footers_end_the_text():
    for footer in ("Sent from my iPhone", "Von meinem iPhone gesendet",
                   "Sent from my Galaxy", "Get Outlook for Android",
                   "Gesendet von meinem Samsung Galaxy Smartphone."):
        assert strip_reply(f"TIP A RD1\n\n{footer}\n\n> {TEMPLATE_EN}") == "TIP A RD1", footer


def test_a_dash_line_inside_a_turn_is_not_a_signature():
    assert strip_reply("TIP A RD1\n---\nTIP B BP2") == "TIP A RD1\n---\nTIP B BP2"


def test_a_reply_of_only_a_quote_has_no_content():
    text = f"On Monday VP-Sleuth wrote:\n{quoted(TEMPLATE_EN)}"
    assert not has_content(strip_reply(text))
    assert not has_content("# just a comment\n\n")
    assert has_content("\n\nTIP A RD1")


PLAYER_LINES = st.sampled_from(["QUESTION A red", "TIP B BP2", "FRAGE C grün", "TIPP D GO3",
                                "", "# note", "DROP RD2", "REPEAT"])
ATTRIBUTIONS = st.sampled_from(["", "On Mon, Nov 30, 2026 at 9:00 AM VP-Sleuth <v@x> wrote:",
                                "Am 30.11.2026 um 09:00 schrieb VP-Sleuth <v@x>:"])


@given(st.lists(st.tuples(st.lists(PLAYER_LINES, max_size=4), st.booleans()), max_size=5),
       ATTRIBUTIONS, st.sampled_from([TEMPLATE_EN, TEMPLATE_DE]))
def test_a_quoted_turn_template_never_survives_wherever_it_is_quoted(blocks, attribution,
                                                                   template):
    parts = []
    for lines, with_quote in blocks:
        parts += lines
        if with_quote:
            parts += ([attribution] if attribution else []) + quoted(template).split("\n")
    stripped = strip_reply("\n".join(parts))
    assert "TIP A RD1" not in stripped and "TIPP A RD1" not in stripped
    assert "blue opal" not in stripped and "blau Opal" not in stripped
    assert [line for line in stripped.split("\n") if line] \
        == [line for lines, _ in blocks for line in lines if line]
