"""The deal and its commitment (RULES.md section 2)."""

import hashlib
import re
from collections import Counter

import pytest

from vpsleuth.rules import (
    GEM_BY_CODE,
    GEMS,
    LOCATIONS,
    NOBODY,
    PLACEHOLDERS,
    Distribution,
    DistributionError,
    commitment,
    deal,
    new_salt,
    verify_commitment,
)

# The information-sheet order dealt in runs of five: A gets the first five gems, ... X the last.
SHEET_CANONICAL = (
    "A=RD1,BD1,GD1,YD1,RD2;"
    "B=BD2,GD2,YD2,RD3,BD3;"
    "C=GD3,YD3,RP1,BP1,GP1;"
    "D=YP1,RP2,BP2,GP2,YP2;"
    "E=RP3,BP3,GP3,YP3,RO1;"
    "F=BO1,GO1,YO1,RO2,BO2;"
    "G=GO2,YO2,RO3,BO3,GO3;"
    "X=YO3"
)


def sheet_placement() -> dict:
    locations = [p for p in PLACEHOLDERS for _ in range(5)] + [NOBODY]
    return dict(zip(GEMS, locations, strict=True))


@pytest.fixture
def sheet() -> Distribution:
    return Distribution(sheet_placement())


# --- the deal -----------------------------------------------------------------------------


def test_there_are_seven_placeholders_and_nobody():
    assert PLACEHOLDERS == ("A", "B", "C", "D", "E", "F", "G")
    assert NOBODY == "X"
    assert LOCATIONS == PLACEHOLDERS + ("X",)


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, None])
def test_a_deal_gives_five_gems_to_each_placeholder_and_one_to_nobody(seed):
    dist = deal(seed)
    counts = Counter(dist.values())
    assert counts == {**dict.fromkeys(PLACEHOLDERS, 5), NOBODY: 1}
    assert sorted(dist, key=lambda g: g.code) == sorted(GEMS, key=lambda g: g.code)
    assert len(dist) == 36


def test_a_seeded_deal_is_reproducible():
    assert deal(42) == deal(42)
    assert deal(42).canonical() == deal(42).canonical()


def test_different_seeds_give_different_deals():
    assert len({deal(seed).canonical() for seed in range(20)}) == 20


def test_unseeded_deals_differ():
    # 36! / (5!^7) orderings: two equal secure deals would mean a broken random source.
    assert len({deal().canonical() for _ in range(5)}) == 5


# --- the distribution ---------------------------------------------------------------------


def test_holding_lists_a_placeholders_gems_in_sheet_order(sheet):
    assert [g.code for g in sheet.holding("A")] == ["RD1", "BD1", "GD1", "YD1", "RD2"]
    assert [g.code for g in sheet.holding("X")] == ["YO3"]


def test_holding_sorts_regardless_of_insertion_order():
    placement = dict(reversed(list(sheet_placement().items())))
    assert [g.code for g in Distribution(placement).holding("G")] == [
        "GO2", "YO2", "RO3", "BO3", "GO3"]


def test_a_distribution_maps_each_gem_to_its_location(sheet):
    assert sheet[GEM_BY_CODE["RD1"]] == "A"
    assert sheet[GEM_BY_CODE["YO3"]] == "X"
    assert sheet[GEM_BY_CODE["GO3"]] == "G"


def test_a_distribution_is_read_only(sheet):
    with pytest.raises(TypeError):
        sheet[GEM_BY_CODE["RD1"]] = "B"  # type: ignore[index]


def test_a_distribution_copies_its_placement():
    placement = sheet_placement()
    dist = Distribution(placement)
    placement[GEM_BY_CODE["RD1"]] = "B"
    assert dist[GEM_BY_CODE["RD1"]] == "A"


def test_canonical_text_has_the_documented_form(sheet):
    assert sheet.canonical() == SHEET_CANONICAL


def test_canonical_text_of_any_deal_lists_all_locations_in_order():
    text = deal(7).canonical()
    assert [part.split("=")[0] for part in text.split(";")] == list(LOCATIONS)
    assert re.fullmatch(r"(?:[A-G]=(?:[RBGY][DPO][123],){4}[RBGY][DPO][123];){7}X=[RBGY][DPO][123]",
                        text)


@pytest.mark.parametrize("seed", [0, 3, 99])
def test_canonical_text_round_trips(seed):
    dist = deal(seed)
    again = Distribution.from_canonical(dist.canonical())
    assert again == dist
    assert again.canonical() == dist.canonical()


def test_canonical_text_may_carry_surrounding_whitespace(sheet):
    assert Distribution.from_canonical(f"  {SHEET_CANONICAL}\n") == sheet


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "bad part ''"),
        ("garbage", "bad part 'garbage'"),
        (SHEET_CANONICAL.replace("X=", "Z="), "bad part 'Z=YO3'"),
        (SHEET_CANONICAL.replace("RD1", "RD4"), "bad or repeated gem 'RD4'"),
        (SHEET_CANONICAL.replace("RD1", "rd1"), "bad or repeated gem 'rd1'"),
        (SHEET_CANONICAL.replace("X=YO3", "X=RD1"), "bad or repeated gem 'RD1'"),
        (SHEET_CANONICAL.replace(";X=YO3", ""), "each of the 36 gems exactly once"),
        (SHEET_CANONICAL.replace("RD2;B=", "RD2,BD2;B=").replace("B=BD2,", "B="),
         "placeholder A must hold 5 gems"),
        (SHEET_CANONICAL.replace(",GO3;X=YO3", ";X=YO3,GO3"), "placeholder G must hold 5 gems"),
    ],
)
def test_bad_canonical_text_is_refused_with_a_reason(text, message):
    with pytest.raises(DistributionError, match=re.escape(message)):
        Distribution.from_canonical(text)


def test_distribution_error_is_a_value_error():
    assert issubclass(DistributionError, ValueError)


def test_a_distribution_must_place_every_gem():
    placement = sheet_placement()
    del placement[GEM_BY_CODE["YO3"]]
    with pytest.raises(DistributionError, match="each of the 36 gems exactly once"):
        Distribution(placement)


def test_a_distribution_must_give_each_placeholder_five_gems():
    placement = sheet_placement()
    placement[GEM_BY_CODE["RD1"]] = "B"
    with pytest.raises(DistributionError, match="placeholder A must hold 5 gems"):
        Distribution(placement)


def test_a_distribution_must_give_exactly_one_gem_to_nobody():
    placement = sheet_placement()
    placement[GEM_BY_CODE["RD1"]] = "X"
    placement[GEM_BY_CODE["YO3"]] = "A"
    Distribution(placement)  # still five at A, one at X: fine
    placement[GEM_BY_CODE["GO3"]] = "X"
    with pytest.raises(DistributionError, match="placeholder G must hold 5 gems"):
        Distribution(placement)


def test_a_distribution_with_an_unknown_location_is_refused():
    placement = sheet_placement()
    placement[GEM_BY_CODE["YO3"]] = "H"
    with pytest.raises(DistributionError, match="exactly one gem goes to nobody"):
        Distribution(placement)


def test_the_repr_of_a_distribution_does_not_leak_the_placement():
    dist = deal(5)
    for text in (repr(dist), str(dist), f"{dist!r}", repr([dist])):
        assert "secret" in text
        assert not any(g.code in text for g in GEMS)
        assert "=" not in text


# --- the commitment -----------------------------------------------------------------------


def test_commitment_is_sha256_of_salt_colon_canonical_text(sheet):
    expected = hashlib.sha256(f"pepper:{SHEET_CANONICAL}".encode()).hexdigest()
    assert commitment(sheet, "pepper") == expected


def test_commitment_is_64_lower_case_hex_digits():
    assert re.fullmatch(r"[0-9a-f]{64}", commitment(deal(1), new_salt()))


def test_commitment_depends_on_the_salt(sheet):
    assert commitment(sheet, "a") != commitment(sheet, "b")


def test_new_salts_are_32_hex_digits_and_differ():
    salts = {new_salt() for _ in range(10)}
    assert len(salts) == 10
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in salts)


def test_commitment_verifies_for_the_revealed_distribution_and_salt():
    dist, salt = deal(11), new_salt()
    assert verify_commitment(dist.canonical(), salt, commitment(dist, salt))


def test_commitment_verification_ignores_case_and_whitespace_of_the_published_digest():
    dist, salt = deal(11), "s"
    published = f"  {commitment(dist, salt).upper()}\n"
    assert verify_commitment(dist.canonical() + "\n", salt, published)


def test_commitment_fails_when_one_gem_was_moved(sheet):
    published = commitment(sheet, "salt")
    swapped = SHEET_CANONICAL.replace("RD1", "tmp").replace("BD2", "RD1").replace("tmp", "BD2")
    assert Distribution.from_canonical(swapped) != sheet
    assert not verify_commitment(swapped, "salt", published)


def test_commitment_fails_with_the_wrong_salt(sheet):
    published = commitment(sheet, "salt")
    assert not verify_commitment(SHEET_CANONICAL, "Salt", published)
    assert not verify_commitment(SHEET_CANONICAL, "", published)


@pytest.mark.parametrize(
    "text", ["", "garbage", "A=RD1", SHEET_CANONICAL + ";X=RD1", "\x00\xff", "A=ü;X=ß"])
def test_commitment_fails_for_garbage_distribution_text(sheet, text):
    assert not verify_commitment(text, "salt", commitment(sheet, "salt"))


@pytest.mark.parametrize("published", ["", "0" * 64, "not hex", "ü" * 64, "é"])
def test_commitment_fails_for_a_garbage_published_digest(sheet, published):
    assert not verify_commitment(SHEET_CANONICAL, "salt", published)


def test_commitment_accepts_a_non_ascii_salt(sheet):
    published = commitment(sheet, "Grüße")
    assert published == hashlib.sha256(f"Grüße:{SHEET_CANONICAL}".encode()).hexdigest()
    assert verify_commitment(SHEET_CANONICAL, "Grüße", published)
