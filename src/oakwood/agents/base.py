"""The agent contract, re-exported: it is part of the engine (``oakwood.engine.agent``)."""

from __future__ import annotations

from oakwood.engine.agent import Agent, Choice, PlayerView, as_choice

__all__ = ["Agent", "Choice", "PlayerView", "as_choice"]
