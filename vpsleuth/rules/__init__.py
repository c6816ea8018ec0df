"""The rules of VP-Sleuth, pure: no Flask, no database, standard library only."""

from .deal import (
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
from .gems import (
    ATTRIBUTES,
    COLOURS,
    GEM_BY_CODE,
    GEMS,
    KINDS,
    SIZES,
    Attribute,
    Category,
    Gem,
    GemError,
    parse_attributes,
    parse_gem,
)
from .questions import Question, QuestionError, make_question, parse_question
from .scoring import (
    PlayerResult,
    RoundOutcome,
    Ruleset,
    RulesetError,
    TipScore,
    Turn,
    competition_ranks,
    is_game_over,
    rank_bonuses,
    resolve,
    score_tips,
)

__all__ = [
    "ATTRIBUTES", "COLOURS", "GEMS", "GEM_BY_CODE", "KINDS", "LOCATIONS", "NOBODY",
    "PLACEHOLDERS", "SIZES", "Attribute", "Category", "Distribution", "DistributionError",
    "Gem", "GemError", "PlayerResult", "Question", "QuestionError", "RoundOutcome", "Ruleset",
    "RulesetError", "TipScore", "Turn", "commitment", "competition_ranks", "deal",
    "is_game_over", "make_question", "new_salt", "parse_attributes", "parse_gem",
    "parse_question", "rank_bonuses", "resolve", "score_tips", "verify_commitment",
]
