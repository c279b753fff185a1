"""Each game's feature extractor, found by the game's name (``oakwood.analysis.features.<game>.EXTRACTOR``)."""

from __future__ import annotations

import importlib

from .base import FeatureExtractor, GameFeatures

__all__ = ["FeatureExtractor", "GameFeatures", "extractor_for", "extractor_key"]


def extractor_for(game: str) -> FeatureExtractor:
    """The extractor of ``game``; ``LookupError`` for a game the workbench cannot measure yet."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game}":
            raise
        raise LookupError(f"the balance workbench has no measures for {game!r} yet") from None
    extractor: FeatureExtractor = module.EXTRACTOR
    return extractor


def extractor_key(extractor: FeatureExtractor) -> str:
    """How the store names what one version of an extractor measured (``game/version``)."""
    return f"{extractor.game}/{extractor.version}"
