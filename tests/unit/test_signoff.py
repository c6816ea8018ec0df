"""Sign-offs below a turn: set aside and named, never a turn line gone wrong."""

from __future__ import annotations

import pytest

from vpsleuth.orders import parse_turn
from vpsleuth.orders.signoff import looks_like_turn, near_miss, split_signoff

TURN = "QUESTION A red\nTIP B BP2"


@pytest.mark.parametrize("signoff", [
    ["Grüße"], ["Cheers, Ada"], ["-Abhishek Kona"], ["Ada"], ["+49 170 1234567"],
    ["Tel. 0170/123 45 67"], ["Mit freundlichen Grüßen", "", "Ben Beispiel"],
    ["Love, Ada x"], ["С уважением,", "Борис"], ["Saludos cordiales,", "Lucía"],
    ["Cordialement,", "Amélie"], ["Met vriendelijke groet,", "Daan"], ["Tim"],
    ["This e-mail and any attachments are confidential and intended solely for the",
     "addressee. If you have received it in error, please notify the sender and delete",
     "it. Any unauthorised use or disclosure is prohibited."],
    ["Sent from a magnificent torch of pixels"],
])
def test_a_trailing_sign_off_is_set_aside_and_named_word_for_word(signoff):
    text = TURN + "\n\n" + "\n".join(signoff) + "\n"
    split = split_signoff(text)
    assert split.turn == TURN
    assert split.lines == tuple(line for line in signoff if line)
    assert parse_turn(split.turn).ok


@pytest.mark.parametrize("tail", [
    "TPI A RD1", "QUESTOIN E blue", "Frgae E blau", "REPAET", "Dorp RD1", "Tipo C GO3",
    "See you at the Red Lion", "RD4", "C U soon", "greetings from X", "Opal",
    "Cheers\nTPI A RD1",
])
def test_a_tail_that_holds_a_gem_a_location_or_a_near_miss_is_refused(tail):
    text = f"{TURN}\n\n{tail}"
    assert split_signoff(text).turn == text
    assert not parse_turn(text).ok


def test_a_line_that_is_not_a_command_between_turn_lines_still_refuses_the_turn():
    text = "QUESTION A red\nCheers\nTIP B BP2\n"
    assert split_signoff(text).lines == ()
    assert [e.line for e in parse_turn(split_signoff(text).turn).errors] == [2]


def test_a_greeting_above_the_turn_is_not_a_sign_off():
    text = "Hi!\n\nQUESTION A red"
    assert split_signoff(text).turn == text


def test_text_without_any_turn_line_has_no_sign_off():
    assert split_signoff("Thanks!\nAda").lines == ()


def test_comments_among_the_sign_off_stay_in_the_turn():
    split = split_signoff("TIP A RD1\n# my last tip\nCheers\n# sent in a hurry\nAda")
    assert split.turn == "TIP A RD1\n# my last tip\n# sent in a hurry"
    assert split.lines == ("Cheers", "Ada")


def test_nothing_is_set_aside_below_end_which_the_parser_ignores_anyway():
    text = "TIP A RD1\nEND\nCheers, Ada"
    assert split_signoff(text).turn == text
    assert parse_turn(text).ok


def test_line_numbers_of_the_turn_stay_as_written():
    split = split_signoff("\n\nTIP A RD1\n\nTIP B RD2\n\nBest,\nAda")
    assert split.turn.split("\n")[4] == "TIP B RD2"


@pytest.mark.parametrize(("word", "keyword"), [
    ("TPI", "tip"), ("tpi", "tip"), ("Top", "tip"), ("QUESTOIN", "question"),
    ("Qeustion", "question"), ("Frgae", "frage"), ("Tippp", "tipp"), ("Repaet", "repeat"),
    ("Streihce", "streiche"), ("Edn", "end"),
])
def test_typos_of_keywords_are_near_misses(word, keyword):
    assert near_miss(word) == keyword


@pytest.mark.parametrize("word", ["Tim", "Ted", "Ed", "And", "Ada", "Ben", "Cheers", "Grüße",
                                  "Thanks", "Best", "Regards", "Q", "A", "Tina", "Andy"])
def test_ordinary_sign_off_words_are_not_near_misses(word):
    assert near_miss(word) is None


@pytest.mark.parametrize(("line", "turnish"), [
    ("TIP A RD1", True), ("tip", True), ("A", True), ("niemand", True), ("1dr", True),
    ("Diamant", True), ("Ada", False), ("Ada B.", False), ("# TIP A RD1", False),
    ("Have a nice day", False), ("E-Mail: ada@example.org", False),
])
def test_what_looks_like_a_turn_line(line, turnish):
    assert looks_like_turn(line) is turnish


# --- a board post's closing greeting (orders.signoff.strip_post_signoff) -------------------

def test_a_posts_greeting_and_name_are_set_aside_in_three_languages():
    from vpsleuth.orders.signoff import strip_post_signoff

    for tail in ("Ben", "Cheers,\nBen", "Cheers, Ben", "Viele Grüße\nBen", "LG Ben",
                 "Un abrazo,\nBen", "-- Ben"):
        assert strip_post_signoff(f"Who has the red?\n\n{tail}", ("Ben",)) == "Who has the red?"


def test_a_post_keeps_a_last_paragraph_that_says_more_than_goodbye():
    from vpsleuth.orders.signoff import strip_post_signoff

    for text in ("Who has the red?\n\nBen thinks E.", "Who?\n\nThanks!", "Thanks!",
                 "One\n\nCheers\nBen\nand\nmore", "Who?\n\nCheers, Carl", "Who?\n\nSaludos"):
        assert strip_post_signoff(text, ("Ben",)) == text
