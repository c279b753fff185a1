"""Undo for play surfaces (terminal and web), allowed only where it cannot leak or re-roll anything.

A human may take back their own last action(s) when, since the position before it:

- no other seat acted (nobody reacted to it, and nobody's secret choice was revealed by it);
- nothing random happened (the state's ``rng.counter`` is unchanged: no shuffle, roll or random pick);
- every event logged is one the game declares quiet (``Game.quiet_events``): a set stored, a card played
  face down, a move. A draw from a deck shuffled long ago touches no generator, so the counter alone
  cannot see it; the event whitelist does, and an event kind a game forgot to list refuses undo (safe by
  default).

The state is rebuilt from its replay minus the last action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass

from .state import State

NOTHING = "there is nothing to undo"
NOT_LAST = "you can only undo your own last move, before anyone else has acted"
RANDOM = "something random happened since (a shuffle, a roll or a random pick), so that move cannot be taken back"
REVEALED = "that move revealed something new ({kinds}), so it cannot be taken back"
NO_LOG = "this game is not recording events, so undo cannot tell what was revealed"


@dataclass(frozen=True)
class Checkpoint:
    """The position just before a human's action: who acted, how long the history and log were, the RNG."""

    seat: int
    history_len: int
    events_len: int
    rng_counter: int

    def __reduce__(self) -> tuple[type[Checkpoint], tuple[int, int, int, int]]:
        """Pickle as a call of the constructor."""
        # Compiled by mypyc, a frozen dataclass no longer unpickles field by field (its ``__setattr__`` refuses):
        # it is rebuilt from its fields instead, in both forms (the process pool and dask pickle it).
        return (Checkpoint, (self.seat, self.history_len, self.events_len, self.rng_counter))


class UndoTracker:
    """Remembers a checkpoint before every human action and decides whether an undo is allowed."""

    def __init__(self) -> None:
        self._stack: list[Checkpoint] = []

    def apply(self, state: State, seat: int, action: Hashable) -> None:
        """Apply ``seat``'s action to ``state``, remembering the position before it (nothing if refused)."""
        checkpoint = Checkpoint(seat, len(state.history), len(state.events), state.rng.counter)
        state.apply(seat, action)
        self._stack.append(checkpoint)

    def why_not(self, state: State, seat: int) -> str | None:
        """None if ``seat`` may undo its last action now, else the sentence saying why not."""
        if not self._stack:
            return NOTHING
        last = self._stack[-1]
        history = state.history
        if len(history) != last.history_len + 1 or last.seat != seat or history[-1][0] != seat:
            return NOT_LAST
        if state.rng.counter != last.rng_counter:
            return RANDOM
        if not state.record_events:
            return NO_LOG
        quiet = state.game.quiet_events
        loud = sorted({event.kind for event in state.events[last.events_len :] if event.kind not in quiet})
        if loud:
            return REVEALED.format(kinds=", ".join(k.replace("_", " ") for k in loud))
        return None

    def forget_last(self) -> None:
        """Drop the checkpoint of the last action (it was taken back by other means, or never kept)."""
        if self._stack:
            self._stack.pop()

    def undo(self, state: State) -> State:
        """The state before the last action, rebuilt from the replay. Check :meth:`why_not` first."""
        replay = state.replay()
        rebuilt = dataclasses.replace(replay, actions=replay.actions[:-1]).play()
        self._stack.pop()
        return rebuilt
