"""Rows written the way an older schema takes them, for the migration tests.

The game row names only the columns that every revision since the first has,
so one statement serves a test that starts from any of them.
"""

from __future__ import annotations


def old_game(name: str = "Old", state: str = "running") -> str:
    """An INSERT for game 1 with the house rules of the seed rules."""
    return ("INSERT INTO game (id, name, state, language, timezone, schedule_json, rounds, "
            "first_bonus_round, bonuses, points_right, points_wrong, early_resolution, "
            f"created_at) VALUES (1, '{name}', '{state}', 'en', 'UTC', '{{}}', 12, 5, '3,2,1', "
            "1, -2, false, '2026-01-01 00:00:00')")
