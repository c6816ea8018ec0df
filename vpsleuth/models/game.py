"""Games, their secret, players, rounds and the GM audit log."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from ..rules import Ruleset
from .types import UTCDateTime, utcnow


class Game(db.Model):
    """One game with its house rules and deadline schedule.

    state: setup -> running (-> paused -> running) -> finished.
    """

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    state: Mapped[str] = mapped_column(String(16), default="setup")
    language: Mapped[str] = mapped_column(String(2), default="en")
    timezone: Mapped[str] = mapped_column(String(64))
    schedule_json: Mapped[str] = mapped_column(Text)
    # house rules (RULES.md section 7)
    rounds: Mapped[int] = mapped_column(Integer, default=12)
    first_bonus_round: Mapped[int] = mapped_column(Integer, default=5)
    bonuses: Mapped[str] = mapped_column(String(40), default="3,2,1")
    points_right: Mapped[int] = mapped_column(Integer, default=1)
    points_wrong: Mapped[int] = mapped_column(Integer, default=-2)
    early_resolution: Mapped[bool] = mapped_column(default=False)
    # After a round closed early: "calendar" keeps the schedule's dates, "fresh" gives
    # the next round a whole interval from the close (schedule.Schedule.following).
    after_early: Mapped[str] = mapped_column(String(8), default="calendar",
                                             server_default="calendar")
    reminder_hours: Mapped[str] = mapped_column(String(40), default="24,4")
    game_master_id: Mapped[int | None] = mapped_column(ForeignKey("game_master.id"), index=True)
    # Listed on /games/open, where signed-in visitors ask to join (services/lobby.py);
    # max_players caps the active players however they came (None: no limit).
    open_to_join: Mapped[bool] = mapped_column(default=False, server_default=false())
    max_players: Mapped[int | None] = mapped_column(Integer)
    # House rule (issue 13): the players' sheet shows what the public record rules out.
    deduction_aid: Mapped[bool] = mapped_column(default=False, server_default=false())
    # One human against bots (services/practice.py): never listed, resolves on the human's turn.
    practice: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The archive (issue 22): readable by anyone once finished; the GM sets it at any time.
    public: Mapped[bool] = mapped_column(default=False, server_default=false())
    # House rule: counts for the ratings (services/ratings.py); fixed when the game starts.
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # House rule (issue 20): none, repeat, repeat-when-absent (models/season.py).
    missed_turn_rule: Mapped[str] = mapped_column(String(20), default="none",
                                                  server_default="none")
    # published at the start; the distribution itself lives in GameSecret
    commitment: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.id", cascade="all, delete-orphan")
    rounds_: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan")
    secret: Mapped[GameSecret | None] = relationship(cascade="all, delete-orphan")

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset(
            rounds=self.rounds, first_bonus_round=self.first_bonus_round,
            bonuses=tuple(int(b) for b in self.bonuses.split(",") if b.strip()),
            points_right=self.points_right, points_wrong=self.points_wrong,
            early_resolution=self.early_resolution,
        )

    @ruleset.setter
    def ruleset(self, rules: Ruleset) -> None:
        self.rounds, self.first_bonus_round = rules.rounds, rules.first_bonus_round
        self.bonuses = ",".join(str(b) for b in rules.bonuses)
        self.points_right, self.points_wrong = rules.points_right, rules.points_wrong
        self.early_resolution = rules.early_resolution

    @property
    def reminders(self) -> list[int]:
        """Hours before the deadline at which players with no turn are reminded."""
        return sorted({int(h) for h in self.reminder_hours.split(",") if h.strip()},
                      reverse=True)

    @property
    def schedule(self) -> dict:
        return json.loads(self.schedule_json)

    @property
    def active_players(self) -> list[Player]:
        return [p for p in self.players if p.active]

    @property
    def open_round(self) -> Round | None:
        return next((r for r in self.rounds_ if r.state != "resolved"), None)

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds_ if r.number == number), None)

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.name!r} {self.state}>"


class GameSecret(db.Model):
    """The distribution and salt: shown to the GM, revealed when the game ends."""

    __tablename__ = "game_secret"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), primary_key=True)
    distribution: Mapped[str] = mapped_column(Text)  # Distribution.canonical()
    salt: Mapped[str] = mapped_column(String(64))

    def __repr__(self) -> str:
        return f"<GameSecret game={self.game_id} (secret)>"


class Player(db.Model):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "name"), UniqueConstraint("game_id", "email"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(254))
    language: Mapped[str] = mapped_column(String(2), default="en")
    timezone: Mapped[str | None] = mapped_column(String(64))  # None: the game's
    active: Mapped[bool] = mapped_column(default=True)
    # which mails the player wants; reports are always sent
    wants_round_mail: Mapped[bool] = mapped_column(default=True)
    wants_reminders: Mapped[bool] = mapped_column(default=True)
    wants_confirmations: Mapped[bool] = mapped_column(default=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)  # invited
    # First signed in, or sent a turn by mail, web or API: None while only invited.
    first_signed_in_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Raised when the address changes: reply keys and feed links made before stop working.
    key_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    # A computer player (easy, medium, hard; bots/): no mailbox, plays from the public record.
    bot_level: Mapped[str | None] = mapped_column(String(8))
    # The name the archive shows for this seat, chosen by the player (services/names.py).
    display_name: Mapped[str | None] = mapped_column(String(40))
    # Set when the person deleted their account (services/leaving.py): the seat keeps its
    # points as "former player N" (former_number), with no name, address, notebook or mail.
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    former_number: Mapped[int | None] = mapped_column(Integer)
    # The game board by mail (models/season.py BOARD_MAIL): each post, a daily digest, none.
    board_mail: Mapped[str] = mapped_column(String(8), default="digest",
                                            server_default="digest")
    # The last post a digest or a mail of its own has told this player of.
    board_told_post_id: Mapped[int | None] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="players")

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    @property
    def zone(self) -> str:
        """The time zone the player's days and times are told in: their own, else the game's."""
        return self.timezone or self.game.timezone

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


class Round(db.Model):
    """state: open -> resolving -> resolved (resolving only inside one transaction)."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)
    state: Mapped[str] = mapped_column(String(16), default="open")
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    game: Mapped[Game] = relationship(back_populates="rounds_")

    def __repr__(self) -> str:
        return f"<Round {self.number} of game {self.game_id} {self.state}>"


class AuditEntry(db.Model):
    """One GM action (or a system action on the GM's behalf), for the GM to review."""

    __tablename__ = "audit_entry"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor: Mapped[str] = mapped_column(String(120))
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[str] = mapped_column(Text, default="")
