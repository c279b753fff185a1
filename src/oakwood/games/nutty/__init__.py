"""Nutty Squirrels of the Oakwood Forest: 2–6 players on a tree of six limbs, and the solo mode."""

from __future__ import annotations

from .game import Nutty

__all__ = ["Nutty"]
