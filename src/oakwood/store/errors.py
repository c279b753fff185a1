"""The one error the store raises: a sentence a person can act on, never a driver's traceback."""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot be opened, read or written (a bad URL, a missing driver, a server that does not
    answer, a file that is not a database, a schema from a newer Oakwood…)."""


class GameMoved(StoreError):
    """A guarded write found the game's stored moves changed by someone else (another server now holds the
    table), so it wrote nothing."""
