"""S'Quarrels: the card game of storing acorns before Winter."""

from __future__ import annotations

from .game import SQuarrels
from .options import SQuarrelsOptions
from .state import SQuarrelsState

__all__ = ["SQuarrels", "SQuarrelsOptions", "SQuarrelsState"]
