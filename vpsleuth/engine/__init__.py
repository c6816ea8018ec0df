"""The sleuth engine: what the public record proves (pure: stdlib and vpsleuth.rules only)."""

from .analysis import (
    Analysis,
    analyse,
    answer_chances,
    best_questions,
    information,
    legal_questions,
    possible_places,
)
from .model import GAME, Universe
from .record import Answered, PublicRecord
from .search import OutOfSteps

__all__ = [
    "GAME", "Analysis", "Answered", "OutOfSteps", "PublicRecord", "Universe", "analyse",
    "answer_chances",
    "best_questions", "information", "legal_questions", "possible_places",
]
