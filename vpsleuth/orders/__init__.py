"""The turn language, pure: text -> TurnChange plus per-line errors, and back."""

from .parser import HINTS, LineError, ParsedTurn, TurnChange, parse_location, parse_turn
from .render import format_turn

__all__ = ["HINTS", "LineError", "ParsedTurn", "TurnChange", "format_turn", "parse_location",
           "parse_turn"]
