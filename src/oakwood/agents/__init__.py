"""Agents: the random agent and the catalogue of bots by name; per-game heuristics live with their game."""

from __future__ import annotations

from oakwood.engine.agent import Agent, Choice, PlayerView

from .catalog import agent_names, make_agent
from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "Choice", "ISMCTSAgent", "PlayerView", "RandomAgent", "agent_names", "make_agent"]
