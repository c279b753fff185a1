"""Replays: ``(game, options, players, seed, [(seat, action index)…])`` reproduce a match exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidNotationError
from .state import State


@dataclass(frozen=True)
class Replay:
    """Everything needed to rebuild a match action by action."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int
    actions: list[tuple[int, int]] = field(default_factory=list)
    start: str | None = None  # notation of a set-up position; None = a fresh deal from ``seed``

    def play(self, upto: int | None = None) -> State:
        """Rebuild the state after the first ``upto`` actions (all by default)."""
        from .registry import load

        game = load(self.game, **self.options)
        state = game.new_state(self.players, self.seed) if self.start is None else game.from_notation(self.start)
        for seat, index in self.actions[:upto]:
            state.apply(seat, game.decode(index))
        return state

    def to_json(self) -> dict[str, Any]:
        """JSON types, for files and the database."""
        return {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "start": self.start,
            "actions": [list(pair) for pair in self.actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Replay:
        """Inverse of :meth:`to_json`."""
        try:
            return cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                players=int(data["players"]),
                seed=int(data["seed"]),
                actions=[(int(s), int(i)) for s, i in data["actions"]],
                start=data.get("start"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidNotationError(f"malformed replay: {exc}") from None
