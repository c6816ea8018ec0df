"""The story's numbers as a player reads them, in English, German and Spanish (Babel).

How many deals were still possible ("about 2.6 million", "etwa 2,6 Millionen",
"alrededor de 2,6 millones"), how much an answer ruled out ("65 %", "one in
714") and the bits for those who want them, never "-0.00". Pure: Babel and the
catalogues, no Flask.

Numbers beyond the locales' own words (CLDR names them up to trillions) are
written as a power of ten, "1.0 × 10²⁷", and ``power_note`` says once what that
means; the story's first number is always one of those (36 gems dealt to A-G
and X can lie in about 10²⁷ ways).
"""

from __future__ import annotations

import math
import re

from babel import Locale
from babel.numbers import format_compact_decimal, format_decimal, format_percent

from . import locale_of, ntranslate, translate

# Exact counts below this are written out digit for digit ("48", "1,234").
EXACT_BELOW = 10_000
# From here compact words ("2.6 million"); from WORDS_BELOW on, a power of ten.
COMPACT_FROM = 1_000_000
WORDS_BELOW = 10**15
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# Below this many bits an answer ruled out under 0.1 % of the deals: nothing to speak of.
NOTHING = 0.0015


def _two_digits(number: float) -> float:
    """``number`` rounded to two significant digits (25,555 -> 26,000)."""
    if number <= 0:
        return 0.0
    power = math.floor(math.log10(number)) - 1
    return round(number / 10**power) * 10**power


def _scientific(number: float) -> tuple[float, int]:
    """(mantissa, exponent) with the mantissa in [1, 10) once rounded to one decimal."""
    exponent = math.floor(math.log10(number))
    mantissa = number / 10**exponent
    if round(mantissa, 1) >= 10:
        exponent, mantissa = exponent + 1, mantissa / 10
    return mantissa, exponent


def _power(exponent: int) -> str:
    return "10" + str(exponent).translate(SUPERSCRIPT)


def power_of_ten(number: float, lang: str = "en") -> str:
    """``number`` as "2.6 × 10²⁵" (the mantissa with the locale's decimal mark), held
    together by no-break spaces so that a narrow column does not split it."""
    mantissa, exponent = _scientific(number)
    shown = format_decimal(mantissa, format="0.0", locale=locale_of(lang))
    return f"{shown}\u00a0×\u00a0{_power(exponent)}"


def number_words(number: float, lang: str = "en", *, exact: bool = True) -> tuple[str, bool]:
    """(text, rounded): ``number`` as a player reads it, and whether the text is rounded.

    Exact numbers below EXACT_BELOW in full ("1,234"); others to two significant
    digits: in digits below a million ("26,000"), in the locale's words below
    10^15 ("2.6 million", "26 Milliarden", "3 billones"), beyond that as a power
    of ten ("1.0 × 10²⁷").
    """
    locale = locale_of(lang)
    if exact and number < EXACT_BELOW:
        return format_decimal(round(number), locale=locale), False
    rounded = _two_digits(number)
    if rounded < COMPACT_FROM:
        return format_decimal(rounded, locale=locale), True
    if rounded < WORDS_BELOW:
        return format_compact_decimal(rounded, format_type="long", fraction_digits=1,
                                      locale=locale), True
    return power_of_ten(number, lang), True


def deals_text(count: float, exact: bool, lang: str = "en") -> str:
    """How many deals were still possible: "only one", "48", "about 2.6 million"."""
    if exact and count <= 1:
        return translate(lang, "only one")
    text, rounded = number_words(count, lang, exact=exact)
    return translate(lang, "about {}").format(text) if rounded else text


def power_note(count: float, lang: str = "en") -> str:
    """What "10²⁷" means, when ``count`` is written as a power of ten; else ""."""
    if _two_digits(count) < WORDS_BELOW:
        return ""
    exponent = _scientific(count)[1]
    return ntranslate(lang, "{power} is a one followed by {num} zero.",
                      "{power} is a one followed by {num} zeros.", exponent).format(
        power=_power(exponent), num=exponent)


def percent(share: float, lang: str = "en") -> str:
    """A share as the locale writes it: "65%", "65 %"; one decimal below 10 % ("0.3%")."""
    locale = Locale.parse(locale_of(lang))
    pattern = locale.percent_formats[None].pattern
    if share < 0.1:
        pattern = re.sub(r"0(?=[^0#]*%)", "0.#", pattern, count=1)
    return format_percent(share, format=pattern, locale=locale)


def one_in(bits: float, lang: str = "en") -> str:
    """The N of "one in N" for what ``bits`` left: 2**bits, as a player reads it."""
    return number_words(2.0**bits, lang, exact=2.0**bits < EXACT_BELOW)[0]


def ruled_out(bits: float | None, lang: str = "en") -> str:
    """What one answer did to the deals still possible before its round, in few words.

    "told nothing new" (the answer was certain: 0 bits, never "-0.00"), "ruled
    out 65%", or, from nine in ten on, "left one in 714".
    """
    if bits is None:
        return "–"
    if bits < NOTHING:
        return translate(lang, "told nothing new")
    share = 1 - 2.0**-bits
    if share >= 0.9:
        return translate(lang, "left one in {}").format(one_in(bits, lang))
    return translate(lang, "ruled out {}").format(percent(share, lang))


def round_told(bits: float, lang: str = "en") -> str:
    """What all of a round's answers together did to the deals possible before it."""
    if bits < NOTHING:
        return translate(lang, "This round's answers told nothing new.")
    share = 1 - 2.0**-bits
    if share >= 0.5:
        return translate(lang, "Together, this round's answers left only one in {} of the "
                               "deals that were possible before it.").format(
            one_in(bits, lang))
    return translate(lang, "Together, this round's answers ruled out {} of the deals that "
                           "were possible before it.").format(percent(share, lang))


def expected_share(bits: float, lang: str = "en") -> str:
    """What a question could be expected to rule out, from its expected bits: "76%"."""
    return percent(min(0.99, max(0.0, 1 - 2.0**-bits)), lang)


def bits_text(bits: float | None, lang: str = "en", places: int = 1) -> str:
    """Bits with the locale's decimal mark, never negative ("-0.0" is 0.0): "84.4"."""
    if bits is None:
        return "–"
    return format_decimal(max(0.0, bits) + 0.0, format="#,##0." + "0" * places,
                          locale=locale_of(lang))


def gems_certain(number: int, lang: str = "en") -> str:
    """"no gem certain", "1 gem certain", "3 gems certain" in the language's plural forms."""
    if number == 0:
        return translate(lang, "no gem certain")
    return ntranslate(lang, "{num} gem certain", "{num} gems certain", number).format(
        num=number)
