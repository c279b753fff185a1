"""The database of every game played: SQLAlchemy models, Alembic migrations and a small repository.

``open_store(url)`` opens (and migrates) SQLite by default, any SQLAlchemy URL by ``--db`` / ``OAKWOOD_DB``.
Games go in as :class:`NewGame` (finished, in batches) or through :class:`LiveGame` (as they are played) and
come out as :class:`StoredGame`, whose ``replay()`` rebuilds them.
"""

from __future__ import annotations

from .database import ENV_VARIABLE, default_url, resolve_url
from .errors import GameMoved, StoreError
from .live import LiveGame
from .models import ABANDONED
from .records import (
    EndedWebTable,
    GameListing,
    NewGame,
    PlayedGame,
    Rating,
    StoredGame,
    Tournament,
    TournamentGame,
    TournamentSettings,
    WebTable,
)
from .repository import Store, open_store

__all__ = [
    "ABANDONED",
    "ENV_VARIABLE",
    "EndedWebTable",
    "GameListing",
    "GameMoved",
    "LiveGame",
    "NewGame",
    "PlayedGame",
    "Rating",
    "Store",
    "StoreError",
    "StoredGame",
    "Tournament",
    "TournamentGame",
    "TournamentSettings",
    "WebTable",
    "default_url",
    "open_store",
    "resolve_url",
]
