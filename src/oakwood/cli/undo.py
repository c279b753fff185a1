"""Undo for terminal play, allowed only where it cannot leak anything.

A human may take back their own last action(s) when nothing random happened since (the state's
``rng.counter`` is unchanged, so no card was drawn or shuffled that they might now have seen) and no other
seat acted since (so nobody reacted to it). The state is rebuilt from its replay minus the last action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass

from oakwood.engine import State


@dataclass(frozen=True)
class Checkpoint:
    """The position just before a human's action: who acted, how long the history was, the RNG counter."""

    seat: int
    history_len: int
    rng_counter: int


class UndoTracker:
    """Remembers a checkpoint before every human action and decides whether an undo is allowed."""

    def __init__(self) -> None:
        self._stack: list[Checkpoint] = []

    def apply(self, state: State, seat: int, action: Hashable) -> None:
        """Apply ``seat``'s action to ``state``, remembering the position before it (nothing if refused)."""
        checkpoint = Checkpoint(seat, len(state.history), state.rng.counter)
        state.apply(seat, action)
        self._stack.append(checkpoint)

    def why_not(self, state: State, seat: int) -> str | None:
        """None if ``seat`` may undo its last action now, else the sentence saying why not."""
        if not self._stack:
            return "there is nothing to undo"
        last = self._stack[-1]
        history = state.history
        if len(history) != last.history_len + 1 or last.seat != seat or history[-1][0] != seat:
            return "you can only undo your own last move, before anyone else has acted"
        if state.rng.counter != last.rng_counter:
            return "something random happened since (a draw or a shuffle), so that move cannot be taken back"
        return None

    def undo(self, state: State) -> State:
        """The state before the last action, rebuilt from the replay. Check :meth:`why_not` first."""
        replay = state.replay()
        rebuilt = dataclasses.replace(replay, actions=replay.actions[:-1]).play()
        self._stack.pop()
        return rebuilt
