"""Barrell phase names (the ``phase`` of a state, its notation and its observation)."""

from __future__ import annotations

from typing import Final

# Phases. The end-of-battle phases are named after their stage (RULINGS §2.2 E2, E3, E7, E9).
MULLIGAN_PHASE: Final = "mulligan"
PLAY_PHASE: Final = "play"
SWAP_PHASE: Final = "swap"
JOKERS: Final = "jokers"
HEARTS: Final = "hearts"
KING_OF_HEARTS_PHASE: Final = "kh"
KING_OF_SPADES_PHASE: Final = "ks"
OVER: Final = "over"
