"""The tables of the store, as SQLAlchemy 2 typed models.

A game row holds everything ``Replay`` needs (game, options, players, seed, start, the action history as
``[seat, codec index]`` pairs) plus its outcome and where it came from; ``seats`` names who played each seat;
``tournaments`` and ``ratings`` belong to ``oakwood arena``. The history is one JSON column rather than a row
per action: a bulk simulation writes thousands of games a second, and a row per action would cost it more
than the whole simulation (see ``docs/ARCHITECTURE.md``).

Any change here needs an Alembic revision in ``migrations/versions`` (the test suite checks that the models
and the migrations agree).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

#: ``games.status`` of a game still being played (or abandoned mid-way: ``play`` can stop at any move).
RUNNING = "running"
#: ``games.status`` of a game that reached its end.
FINISHED = "finished"
#: ``games.status`` of a web table's game its last player gave up before the end (it is never resumed).
ABANDONED = "abandoned"
#: ``games.source``: which command played the game.
SOURCES = ("play", "simulate", "arena", "web", "analyze")


class Seed(TypeDecorator[int]):
    """A seed as decimal text: seeds may need more than the 63 bits a database integer holds (the engine
    takes any integer in [-2¹²⁷, 2¹²⁸)), and SQLite would silently turn a larger number into a float."""

    impl = String(40)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class Base(DeclarativeBase):
    """The declarative base of every Oakwood table."""


class TournamentRow(Base):
    """An arena run: one game with options, a lineup of agents, a seed and a number of games.

    ``key`` is a digest of exactly those settings, so the same command finds its own tournament again
    (to resume it) and two different ones never share a row.
    """

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    agents: Mapped[list[str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Seed)
    games: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    ratings: Mapped[list[RatingRow]] = relationship(back_populates="tournament", cascade="all, delete-orphan")


class GameRow(Base):
    """One game: how to replay it, how it ended, who played it and which command did."""

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "game_index", name="uq_games_tournament_index"),
        Index("ix_games_started_at", "started_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Seed)
    start: Mapped[str | None] = mapped_column(Text)  # a set-up position in notation; None = the seed's deal
    actions: Mapped[list[list[int]]] = mapped_column(JSON)  # [[seat, codec index], …], as state.replay() holds
    steps: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    source: Mapped[str] = mapped_column(String(16))
    scores: Mapped[list[float] | None] = mapped_column(JSON)
    returns: Mapped[list[float] | None] = mapped_column(JSON)
    winners: Mapped[list[int] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    game_index: Mapped[int | None] = mapped_column(Integer)
    # the Oakwood version that started the game (None: not recorded, as before revision 0002)
    version: Mapped[str | None] = mapped_column(String(32))

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game_row", cascade="all, delete-orphan", order_by="SeatRow.seat"
    )


class SeatRow(Base):
    """Who played one seat of a game: ``human`` or a bot's name."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    agent: Mapped[str] = mapped_column(String(64))

    game_row: Mapped[GameRow] = relationship(back_populates="seats")


class RatingRow(Base):
    """An agent's openskill rating over the finished games of one tournament."""

    __tablename__ = "ratings"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    agent: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    tournament: Mapped[TournamentRow] = relationship(back_populates="ratings")


class WebTableRow(Base):
    """A table of ``oakwood serve``: its game row, who sits where and the secret of each human seat.

    ``seats`` is a list of ``{kind, level, name, token_hash}`` (``kind`` ``human`` or ``bot``): a token is
    kept only as its SHA-256, so the database never holds what would let someone take a seat. A restarted
    server rebuilds every unfinished table from this row and its game's moves.
    """

    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    turn_seconds: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameFeaturesRow(Base):
    """What the balance workbench measured in one finished game, by one version of its game's extractor.

    Measuring means replaying the game with its events, so ``oakwood analyze`` keeps the answer: a report
    over games already measured reads them here instead of replaying them again. A new extractor version
    (``extractor``, e.g. ``squarrels/2``) measures again.
    """

    __tablename__ = "game_features"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    extractor: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
