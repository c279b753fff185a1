"""Barrell: a card game of battles for 2–4 players (rules in ``rules.md``)."""

from __future__ import annotations

from .game import Barrell

__all__ = ["Barrell"]
