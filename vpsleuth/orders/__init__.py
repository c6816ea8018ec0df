"""The turn language, pure: text -> TurnChange plus per-line errors, and back."""

from .parser import (
    HINTS,
    DropAll,
    DropTip,
    LineError,
    ParsedTurn,
    PlaceTip,
    RepeatLastRound,
    Step,
    TurnChange,
    parse_location,
    parse_turn,
)
from .render import format_turn
from .words import ShownLine, describe, localized

__all__ = ["HINTS", "DropAll", "DropTip", "LineError", "ParsedTurn", "PlaceTip",
           "RepeatLastRound", "ShownLine", "Step", "TurnChange", "describe", "format_turn",
           "localized", "parse_location", "parse_turn"]
