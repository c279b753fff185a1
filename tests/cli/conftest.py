"""Register the toy game for every CLI test."""

from __future__ import annotations

from tests.cli.toygame import register_toy

register_toy()
