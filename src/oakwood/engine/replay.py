"""Replays: ``(game, options, players, seed, [(seat, action index)…])`` reproduce a match exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidNotationError, InvalidOptionError, OakwoodError, UnknownGameError, shown
from .game import MAX_HISTORY_LENGTH, MAX_NOTATION_LENGTH
from .rng import check_seed
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

    def __reduce__(self) -> tuple[type[Replay], tuple[Any, ...]]:
        """Pickle as a call of the constructor."""
        # Compiled by mypyc, a frozen dataclass no longer unpickles field by field (its ``__setattr__`` refuses):
        # it is rebuilt from its fields instead, in both forms (the process pool and dask pickle it).
        return (Replay, (self.game, self.options, self.players, self.seed, self.actions, self.start))

    def play(self, upto: int | None = None) -> State:
        """Rebuild the state after the first ``upto`` actions (all by default).

        A replay that is not a game (an action that cannot be played there, a start that is not a position)
        raises :class:`InvalidNotationError` naming the step.
        """
        from .registry import load

        game = load(self.game, **self.options)
        state = game.new_state(self.players, self.seed) if self.start is None else game.from_notation(self.start)
        for step, (seat, index) in enumerate(self.actions[:upto], start=1):
            try:
                state.apply(seat, game.decode(index))
            except OakwoodError as exc:
                raise InvalidNotationError(f"step {step} cannot be played: {exc}", field="actions") from None
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
    def from_json(cls, data: object) -> Replay:
        """Inverse of :meth:`to_json`; :class:`InvalidNotationError` names a malformed field.

        The game must exist, the options must be valid for it, the player count in its range and the seed
        in range; ``actions`` are ``[seat, action index]`` pairs of integers. Whether the actions can be played
        is known only by playing them: :meth:`play` says which step cannot.
        """
        from .registry import game_class

        if not isinstance(data, dict):
            raise InvalidNotationError(f"a replay is a JSON object, not {type(data).__name__}")
        name = data.get("game")
        try:
            if not isinstance(name, str):
                raise UnknownGameError(f"a game name is text, not {shown(name)}")
            cls_ = game_class(name)
            options = cls_.options_class.from_dict(data.get("options"))
        except UnknownGameError as exc:
            raise InvalidNotationError(str(exc), field="game") from None
        except InvalidOptionError as exc:
            raise InvalidNotationError(str(exc), field="options") from None
        players, seed, start, actions = data.get("players"), data.get("seed"), data.get("start"), data.get("actions")
        if type(players) is not int or not cls_.min_players <= players <= cls_.max_players:
            raise InvalidNotationError(f"{cls_.min_players}–{cls_.max_players} players", field="players", text=players)
        try:
            seed = check_seed(seed)
        except ValueError as exc:
            raise InvalidNotationError(str(exc), field="seed") from None
        if start is not None and (not isinstance(start, str) or len(start) > MAX_NOTATION_LENGTH):
            raise InvalidNotationError("a start is a position in notation, or null", field="start", text=start)
        if not isinstance(actions, list) or len(actions) > MAX_HISTORY_LENGTH:
            raise InvalidNotationError(
                f"a list of at most {MAX_HISTORY_LENGTH:,} [seat, action] pairs", field="actions"
            )
        pairs: list[tuple[int, int]] = []
        for step, entry in enumerate(actions, start=1):
            if type(entry) is not list or len(entry) != 2 or any(type(x) is not int for x in entry):
                raise InvalidNotationError(f"step {step} is not a [seat, action] pair of integers", field="actions")
            pairs.append((entry[0], entry[1]))
        return cls(game=cls_.name, options=options.to_dict(), players=players, seed=seed, actions=pairs, start=start)
