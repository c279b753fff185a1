"""Register the toy game for the store tests (the database fixtures live in ``tests/conftest.py``)."""

from __future__ import annotations

from tests.cli.toygame import register_toy

register_toy()
