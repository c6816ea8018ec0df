"""Computer players: a pure brain that reads the public record and writes a turn.

brain.py decides; it imports the rules, the turn language and the engine and
nothing above them, so it cannot reach the distribution. The driver that
feeds it the public record and sends its turn through the turn service is
services/bots.py.
"""

from .brain import LEVELS, Me, decide

__all__ = ["LEVELS", "Me", "decide"]
