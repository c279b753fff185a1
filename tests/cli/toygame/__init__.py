"""A tiny card game used to test the generic CLI and arena through the engine contract only."""

from __future__ import annotations

from .game import TOY_NAME, ToySnap, register_toy

__all__ = ["TOY_NAME", "ToySnap", "register_toy"]
