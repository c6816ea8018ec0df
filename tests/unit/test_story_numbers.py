"""The story's numbers in words, in English, German and Spanish (vpsleuth/i18n/story_numbers.py).

Pure: Babel and the compiled catalogues, no app. Each language's own decimal
mark, big-number words and plural forms; never "-0.00".
"""

from __future__ import annotations

import pytest

from vpsleuth.i18n.story_numbers import (
    bits_text,
    deals_text,
    gems_certain,
    one_in,
    power_note,
    round_told,
    ruled_out,
)
from vpsleuth.i18n.story_words import player_text

NBSP = "\xa0"


@pytest.mark.parametrize(("count", "exact", "lang", "said"), [
    (1, True, "en", "only one"), (1, True, "de", "nur noch eine"), (1, True, "es", "solo uno"),
    (48, True, "en", "48"), (1234, True, "de", "1.234"),
    (25_555, False, "en", "about 26,000"), (25_555, False, "de", "etwa 26.000"),
    (25_555, False, "es", "alrededor de 26.000"),
    (1_020_000, True, "en", "about 1 million"), (1_020_000, True, "de", "etwa 1 Million"),
    (1_020_000, True, "es", "alrededor de 1 millón"),
    (2_550_000, True, "en", "about 2.6 million"), (2_550_000, True, "de", "etwa 2,6 Millionen"),
    (2_550_000, True, "es", "alrededor de 2,6 millones"),
    (7.6e12, False, "en", "about 7.6 trillion"), (7.6e12, False, "de", "etwa 7,6 Billionen"),
    (7.6e12, False, "es", "alrededor de 7,6 billones"),
    (1.04e27, True, "en", f"about 1.0{NBSP}×{NBSP}10²⁷"),  # no-break: never split in two
    (1.04e27, True, "de", f"etwa 1,0{NBSP}×{NBSP}10²⁷"),
    (9.97e26, False, "es", f"alrededor de 1,0{NBSP}×{NBSP}10²⁷"),  # 9.97 rounds up
])
def test_deals_still_possible_are_said_in_the_readers_words(count, exact, lang, said):
    assert deals_text(count, exact, lang) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "10²⁷ is a one followed by 27 zeros."), ("de", "10²⁷ ist eine Eins mit 27 Nullen."),
    ("es", "10²⁷ es un uno seguido de 27 ceros.")])
def test_a_power_of_ten_is_explained_and_small_numbers_need_no_note(lang, said):
    assert power_note(1.04e27, lang) == said
    assert power_note(2_550_000, lang) == ""


@pytest.mark.parametrize(("lang", "nothing", "share", "one_in_714"), [
    ("en", "told nothing new", "ruled out 65%", "left one in 714"),
    ("de", "verriet nichts Neues", f"schloss 65{NBSP}% aus", "ließ nur eine von 714 übrig"),
    ("es", "no reveló nada nuevo", f"descartó el 65{NBSP}%", "dejó solo uno de cada 714")])
def test_what_one_answer_ruled_out_never_reads_minus_zero(lang, nothing, share, one_in_714):
    assert ruled_out(-0.0, lang) == nothing and ruled_out(0.0, lang) == nothing
    assert ruled_out(1.5, lang) == share  # 1 - 2**-1.5 = 65 %
    assert ruled_out(9.48, lang) == one_in_714  # 2**9.48 = 714
    assert ruled_out(None, lang) == "–"  # not worked out in time


def test_a_rounds_answers_together_and_one_in_n_for_big_factors():
    assert round_told(9.48, "en") == ("Together, this round's answers left only one in 714 "
                                      "of the deals that were possible before it.")
    assert round_told(0.3, "de") == (f"Zusammen schlossen die Antworten dieser Runde 19{NBSP}% "
                                     "der Verteilungen aus, die davor möglich waren.")
    assert round_told(-0.0, "es") == "Las respuestas de esta ronda no revelaron nada nuevo."
    assert one_in(21.3, "en") == "2.6 million" and one_in(21.3, "es") == "2,6 millones"


@pytest.mark.parametrize(("lang", "none", "one", "many"), [
    ("en", "no gem certain", "1 gem certain", "3 gems certain"),
    ("de", "kein Stein sicher", "1 Stein sicher", "3 Steine sicher"),
    ("es", "ninguna gema segura", "1 gema segura", "3 gemas seguras")])
def test_gems_certain_take_each_languages_plural(lang, none, one, many):
    assert (gems_certain(0, lang), gems_certain(1, lang), gems_certain(3, lang)) == (
        none, one, many)


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "1 safe tip; 1 guess (1 right, 0 wrong); 1 proved gem not tipped (1 point missed).",
     "2 safe tips; 3 guesses (2 right, 1 wrong); 2 proved gems not tipped (2 points missed)."),
    ("de", "1 sicherer Tipp; 1 geratener Tipp (1 richtig, 0 falsch); 1 bewiesener Stein nicht "
           "getippt (1 Punkt verschenkt).",
     "2 sichere Tipps; 3 geratene Tipps (2 richtig, 1 falsch); 2 bewiesene Steine nicht "
     "getippt (2 Punkte verschenkt)."),
    ("es", "1 apuesta segura; 1 conjetura (1 acertada, 0 falladas); 1 gema probada sin "
           "apostar (1 punto perdido).",
     "2 apuestas seguras; 3 conjeturas (2 acertadas, 1 fallada); 2 gemas probadas sin "
     "apostar (2 puntos perdidos).")])
def test_a_players_part_in_words_for_one_and_for_many(lang, one, many):
    def part(safe, guesses, right, wrong, left):
        return {"safe_tips": safe, "guesses": guesses, "right_guesses": right,
                "wrong_guesses": wrong, "left_on_table": left, "points_left": left}
    assert player_text(part(1, 1, 1, 0, 1), lang) == one
    assert player_text(part(2, 3, 2, 1, 2), lang) == many
    assert "0" not in player_text(part(1, 0, 0, 0, 0), lang).split(";")[2]  # nothing missed


def test_bits_keep_the_decimal_mark_and_are_never_negative():
    assert bits_text(-0.0, "en", 2) == "0.00" and bits_text(89.746, "de") == "89,7"
    assert bits_text(None, "es") == "–"
