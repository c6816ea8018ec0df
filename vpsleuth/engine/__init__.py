"""The sleuth engine: what the public record proves (pure: stdlib and vpsleuth.rules only,
and OR-Tools' CP-SAT in cpsat.py for the rare record the engine's own search hands over)."""

from .analysis import (
    Analysis,
    Places,
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
    "GAME", "Analysis", "Answered", "OutOfSteps", "Places", "PublicRecord", "Universe",
    "analyse",
    "answer_chances",
    "best_questions", "information", "legal_questions", "possible_places",
]
