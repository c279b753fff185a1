"""Agents: the protocol, the random agent; per-game heuristics live with their game."""

from __future__ import annotations

from .base import Agent, Choice, PlayerView
from .random_agent import RandomAgent

__all__ = ["Agent", "Choice", "PlayerView", "RandomAgent"]
