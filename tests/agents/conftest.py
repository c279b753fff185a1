"""Register the toy game for the agent tests."""

from __future__ import annotations

from tests.cli.toygame import register_toy

register_toy()
