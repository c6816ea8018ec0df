"""Properties of the rules core and the turn language, checked with hypothesis."""

import hashlib
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from vpsleuth.orders import ParsedTurn, format_turn, parse_turn
from vpsleuth.rules import (
    ATTRIBUTES,
    COLOURS,
    GEMS,
    KINDS,
    LOCATIONS,
    NOBODY,
    PLACEHOLDERS,
    SIZES,
    Distribution,
    GemError,
    Question,
    QuestionError,
    Ruleset,
    commitment,
    competition_ranks,
    deal,
    make_question,
    parse_gem,
    parse_question,
    rank_bonuses,
    score_tips,
    verify_commitment,
)

FAST = settings(max_examples=150, deadline=None)

gems = st.sampled_from(GEMS)
locations = st.sampled_from(LOCATIONS)
tip_maps = st.dictionaries(gems, locations, max_size=36)
one_attribute = st.sampled_from(ATTRIBUTES).map(lambda a: [a])
two_categories = st.sampled_from([(COLOURS, KINDS), (COLOURS, SIZES), (KINDS, SIZES)]).flatmap(
    lambda pair: st.tuples(st.sampled_from(pair[0]), st.sampled_from(pair[1])).map(list))
questions = st.builds(make_question, st.sampled_from(PLACEHOLDERS),
                      st.one_of(one_attribute, two_categories))
langs = st.sampled_from(["en", "de"])

# Words of the turn language, so generated text reaches deep into the parser.
VOCABULARY = [
    "QUESTION", "FRAGE", "Q", "TIP", "TIPP", "DROP", "STREICHE", "ALL", "ALLE", "NONE", "KEINE",
    "REPEAT", "WIEDERHOLE", "END", "A", "B", "E", "G", "X", "H", "nobody", "niemand", "RD1",
    "yo3", "1DR", "red", "grün", "gruene", "Perle", "Diamant", "opal", "I", "II", "III", "2",
    "cluster", "Einer", "banana", ",", ";", ":", "#", "//", "-", "\n", "\r\n", " ", "\t", "\x00",
    "ß", "ü", "\u0308",
]
turn_like_text = st.lists(st.sampled_from(VOCABULARY), max_size=40).map(" ".join)


# --- the turn language never raises -------------------------------------------------------


@FAST
@given(st.text(max_size=300))
def test_parse_turn_never_raises_on_arbitrary_text(text):
    parsed = parse_turn(text)
    assert isinstance(parsed, ParsedTurn)
    lines = max(1, len(text.splitlines()))
    assert all(1 <= e.line <= lines and e.message and e.hint for e in parsed.errors)


@FAST
@given(turn_like_text)
def test_parse_turn_never_raises_on_text_made_of_its_own_words(text):
    parsed = parse_turn(text)
    assert parsed.ok == (not parsed.errors)
    assert set(parsed.change.tips.values()) <= set(LOCATIONS)


@FAST
@given(st.text(max_size=100))
def test_parse_gem_returns_a_gem_or_raises_gem_error(text):
    try:
        gem = parse_gem(text)
    except GemError as exc:
        assert str(exc)
    else:
        assert gem in GEMS


@FAST
@given(st.one_of(st.text(max_size=60), turn_like_text))
def test_parse_question_returns_a_legal_question_or_raises_question_error(text):
    try:
        q = parse_question(text)
    except QuestionError as exc:
        assert str(exc)
    else:
        assert q.placeholder in PLACEHOLDERS
        assert 1 <= len(q.attributes) <= 2
        assert len({a.category for a in q.attributes}) == len(q.attributes)


# --- round trips --------------------------------------------------------------------------


@FAST
@given(st.one_of(st.none(), questions), tip_maps, langs)
def test_a_formatted_turn_parses_back_to_the_same_question_and_tips(question, tips, lang):
    parsed = parse_turn(format_turn(question, tips, lang))
    assert parsed.ok, parsed.errors
    assert parsed.change.changes_question
    assert parsed.change.question == question
    assert parsed.change.tips == tips


# --- the order of lines (RULES.md 6a) -----------------------------------------------------

# One line of a turn as (text, what it does); the model below applies them one by one.
tip_lines = st.tuples(locations, gems, langs).map(
    lambda t: ((f"TIP {t[0]} {t[1].code}" if t[2] == "en" else f"TIPP {t[0]} {t[1].name('de')}"),
               ("tip", t[1], t[0])))
drop_lines = st.tuples(gems, st.sampled_from(["DROP", "STREICHE"])).map(
    lambda t: (f"{t[1]} {t[0].code}", ("drop", t[0])))
turn_lines = st.one_of(
    tip_lines, tip_lines, drop_lines,
    st.sampled_from([("DROP ALL", ("drop_all",)), ("STREICHE ALLE", ("drop_all",)),
                     ("REPEAT", ("repeat",)), ("WIEDERHOLE", ("repeat",)),
                     ("QUESTION NONE", ("question", None)), ("FRAGE KEINE", ("question", None)),
                     ("", ("nothing",)), ("# a comment", ("nothing",))]),
    questions.map(lambda q: (f"QUESTION {q.short('en')}", ("question", q))),
)


def by_the_rules(lines, standing, last_round):
    """RULES.md 6a read literally: each line in turn, a later one winning."""
    tips, question = dict(standing), "unchanged"
    for _, (what, *args) in lines:
        if what == "tip":
            tips[args[0]] = args[1]
        elif what == "drop":
            tips.pop(args[0], None)
        elif what == "drop_all":
            tips.clear()
        elif what == "repeat":
            tips.update(last_round)
        elif what == "question":
            question = args[0]
    return tips, question


@FAST
@given(st.lists(turn_lines, max_size=12), tip_maps, tip_maps)
def test_the_lines_of_a_turn_apply_in_the_order_written(lines, standing, last_round):
    parsed = parse_turn("\n".join(text for text, _ in lines))
    assert parsed.ok, parsed.errors
    tips = dict(standing)
    parsed.change.apply_tips(tips, lambda: last_round)
    question = parsed.change.question if parsed.change.changes_question else "unchanged"
    assert (tips, question) == by_the_rules(lines, standing, last_round)


@FAST
@given(st.lists(turn_lines, max_size=12), tip_maps, tip_maps)
def test_a_turn_does_what_its_lines_sent_one_by_one_would_do(lines, standing, last_round):
    whole = dict(standing)
    parse_turn("\n".join(text for text, _ in lines)).change.apply_tips(whole, lambda: last_round)
    one_by_one = dict(standing)
    for text, _ in lines:
        parse_turn(text).change.apply_tips(one_by_one, lambda: last_round)
    assert whole == one_by_one


@FAST
@given(questions, langs)
def test_a_question_round_trips_through_codes_and_short_text(question, lang):
    assert Question.from_codes(question.codes) == question
    assert parse_question(question.short(lang)) == question
    ending = {"en": f" does {question.placeholder} hold?", "de": f" hat {question.placeholder}?"}
    assert question.text(lang).endswith(ending[lang])


@FAST
@given(gems, langs, st.randoms(use_true_random=False), st.booleans())
def test_a_gem_name_parses_in_any_word_order_and_case(gem, lang, rnd, upper):
    words = gem.name(lang).split()
    rnd.shuffle(words)
    text = " ".join(words)
    assert parse_gem(text.upper() if upper else text.lower()) == gem


@FAST
@given(gems, st.permutations([0, 1, 2]), st.lists(st.booleans(), min_size=3, max_size=3))
def test_a_gem_code_parses_in_any_order_and_case(gem, order, lower):
    code = "".join(gem.code[i].lower() if low else gem.code[i]
                   for i, low in zip(order, lower, strict=True))
    assert parse_gem(code) == gem


# --- the deal -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.text(max_size=40))
def test_any_deal_is_a_valid_distribution_whose_commitment_verifies(seed, salt):
    dist = deal(seed)
    counts = Counter(dist.values())
    assert counts == {**dict.fromkeys(PLACEHOLDERS, 5), NOBODY: 1}
    assert set(dist) == set(GEMS)
    text = dist.canonical()
    assert Distribution.from_canonical(text) == dist
    published = commitment(dist, salt)
    assert published == hashlib.sha256(f"{salt}:{text}".encode()).hexdigest()
    assert verify_commitment(text, salt, published)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.text(max_size=20), st.text(max_size=20))
def test_a_commitment_fails_for_any_other_salt(seed, salt, other):
    dist = deal(seed)
    assert verify_commitment(dist.canonical(), other, commitment(dist, salt)) == (salt == other)


@FAST
@given(st.text(max_size=200), st.text(max_size=20), st.text(max_size=80))
def test_verify_commitment_never_raises_on_garbage(text, salt, published):
    assert verify_commitment(text, salt, published) in (True, False)


# --- scoring ------------------------------------------------------------------------------

rulesets = st.builds(Ruleset, points_right=st.integers(1, 10), points_wrong=st.integers(-10, 0))


@FAST
@given(st.integers(min_value=0, max_value=1000), tip_maps, rulesets)
def test_tip_score_is_correct_times_right_plus_wrong_times_wrong_points(seed, tips, rules):
    dist = deal(seed)
    correct = sum(1 for g, loc in tips.items() if dist[g] == loc)
    score = score_tips(tips, dist, rules)
    assert (score.correct, score.wrong) == (correct, len(tips) - correct)
    assert score.score == correct * rules.points_right + (len(tips) - correct) * rules.points_wrong


counts = st.dictionaries(st.text(min_size=1, max_size=5), st.integers(0, 36), max_size=12)
bonus_values = st.lists(st.integers(0, 10), max_size=10).map(
    lambda xs: tuple(sorted(xs, reverse=True)))


@FAST
@given(counts, bonus_values)
def test_rank_bonuses_are_monotone_in_correct_tips(correct, bonuses):
    bonus = rank_bonuses(correct, bonuses)
    assert set(bonus) == set(correct)
    for a in correct:
        for b in correct:
            if correct[a] < correct[b]:
                assert bonus[a] <= bonus[b]


@FAST
@given(counts, bonus_values)
def test_equal_counts_share_a_bonus_and_zero_earns_none(correct, bonuses):
    bonus = rank_bonuses(correct, bonuses)
    for a in correct:
        if correct[a] == 0:
            assert bonus[a] == 0
        else:
            assert bonus[a] in (*bonuses, 0)
        for b in correct:
            if correct[a] == correct[b]:
                assert bonus[a] == bonus[b]


@FAST
@given(counts, bonus_values)
def test_the_top_count_earns_the_top_bonus(correct, bonuses):
    bonus = rank_bonuses(correct, bonuses)
    positive = [c for c in correct.values() if c > 0]
    if positive and bonuses:
        top = max(positive)
        assert all(bonus[p] == bonuses[0] for p, c in correct.items() if c == top)


@FAST
@given(st.dictionaries(st.integers(), st.integers(-100, 100), max_size=12))
def test_a_standings_rank_is_one_plus_the_number_of_players_ahead(totals):
    ranks = competition_ranks(totals)
    for who, total in totals.items():
        assert ranks[who] == 1 + sum(1 for t in totals.values() if t > total)
