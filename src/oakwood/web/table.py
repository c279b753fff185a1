"""One table of ``oakwood serve``, without the network: the state, the seats, and every rule about who may
change it.

The table is the authority. It checks each request (a seat's move, an undo) against the position, applies
it, and writes the game to the store **before** anyone hears of it: if the write fails, the move is taken
back and refused, so what clients are shown is always what a restarted server will rebuild. What leaves the
table for a seat is only :meth:`Table.update_for` — ``observe(seat)``, the events ``events_seen_by(seat)`` and
the seat's own legal actions.

Asynchrony (connections, bots thinking, clocks) lives in :mod:`oakwood.web.room`; this module is plain,
synchronous and tested on its own.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from oakwood.engine import Decision, Game, IllegalActionError, NotYourTurnError, OakwoodError, State
from oakwood.engine.undo import UndoTracker
from oakwood.store import LiveGame, StoreError, WebTable

from .protocol import ProtocolError

HUMAN = "human"
BOT = "bot"
#: The level of the bot that keeps an absent player's seat warm.
COVER_LEVEL = "medium"


class TableError(ProtocolError):
    """A request the table refuses (see ``docs/web.md`` for the codes): well formed, but not possible now."""


def new_token() -> str:
    """A seat's secret: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_digest(token: str) -> str:
    """What the store keeps of a token (its SHA-256), so the database never holds a usable secret."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """Who sits at one seat: a ``human`` (named once someone takes it) or a ``bot`` of a level."""

    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    #: open connections of this seat's player (the table shows presence)
    connections: int = 0
    #: a bot is playing for this absent or out-of-time human until they come back
    covered: bool = False

    @property
    def is_free(self) -> bool:
        """A human seat nobody has taken yet."""
        return self.kind == HUMAN and self.token_hash is None

    @property
    def played_by_bot(self) -> bool:
        """Whether a bot chooses this seat's moves now (a bot seat, or a covered human)."""
        return self.kind == BOT or self.covered

    def stored(self) -> dict[str, Any]:
        """The seat as the store keeps it (no presence: that belongs to the running server)."""
        return {"kind": self.kind, "level": self.level, "name": self.name, "token_hash": self.token_hash}

    def summary(self, number: int) -> dict[str, Any]:
        """The seat as every client may see it (never its token)."""
        return {
            "seat": number,
            "kind": self.kind,
            "level": self.level if self.kind == BOT else (COVER_LEVEL if self.covered else None),
            "name": self.name,
            "connected": self.connections > 0 or self.kind == BOT,
            "covered": self.covered,
        }


@dataclass
class Table:
    """A game at a table: the live state, its stored row, the seats and the undo history."""

    id: str
    game: Game[Any]
    state: State
    seats: list[Seat]
    live: LiveGame
    turn_seconds: float | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    #: counts every change of the position (a move, an undo): a request must answer the latest
    seq: int = 0
    #: the ``seq`` at which the decision now asked for began: a turn begins at every move; a commit or a race
    #: goes on while seats answer it one by one (see :meth:`act`), so an answer chosen at any update since is
    #: still an answer to the same question
    decision_seq: int = 0
    undo: UndoTracker = field(default_factory=UndoTracker)
    #: the game's options as JSON values (every summary carries them; computed once)
    options: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.options = self.game.options.to_dict()

    # ------------------------------------------------------------------ who is who
    @property
    def status(self) -> str:
        """``finished``, ``waiting`` (a human seat is still free) or ``playing``."""
        if self.state.is_terminal():
            return "finished"
        return "waiting" if any(seat.is_free for seat in self.seats) else "playing"

    def seat_of(self, token: str) -> int | None:
        """The seat whose secret is ``token``, or None."""
        digest = token_digest(token)
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return number
        return None

    def take_seat(self, name: str, wanted: int | None = None) -> tuple[int, str]:
        """Seat a person named ``name`` (at ``wanted``, else the first free human seat); the seat and its
        token. The store is told before the seat is given."""
        free = [number for number, seat in enumerate(self.seats) if seat.is_free]
        if wanted is not None and wanted not in free:
            raise TableError("seat_taken", f"seat {wanted + 1} is not a free seat at this table")
        if not free:
            raise TableError("table_full", "every seat at this table is taken")
        number = wanted if wanted is not None else free[0]
        token = new_token()
        seat = self.seats[number]
        seat.name, seat.token_hash = name, token_digest(token)
        try:
            self.save_seats()
        except StoreError:
            seat.name = seat.token_hash = None
            raise
        return number, token

    def save_seats(self) -> None:
        """Write the seats to the store (the game's row keeps the moves)."""
        self.live.store.save_web_table(
            WebTable(
                id=self.id,
                game_id=self.live.id,
                seats=[seat.stored() for seat in self.seats],
                turn_seconds=self.turn_seconds,
                created_at=self.created_at,
            )
        )

    def summary(self) -> dict[str, Any]:
        """The table as the lobby and every client see it."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.state.num_players,
            "options": self.options,
            "status": self.status,
            "seats": [seat.summary(number) for number, seat in enumerate(self.seats)],
            "turn_seconds": self.turn_seconds,
            "game_id": self.live.id,
        }

    # ------------------------------------------------------------------ moves
    def to_act(self) -> list[int]:
        """The seats that may act now (empty once the game is over)."""
        return [] if self.state.is_terminal() else list(self.state.to_act())

    def act(self, seat: int, seq: int | None, index: int) -> Hashable:
        """Apply ``seat``'s action with codec index ``index``, answering update ``seq`` (None: a bot, or a
        clock, acting on the current position). Stored before it returns; the action applied."""
        if not 0 <= seat < len(self.seats):
            raise TableError("not_your_turn", "that is not a seat at this table")
        if self.state.is_terminal():
            raise TableError("game_over", "the game is over")
        if self.status == "waiting":
            raise TableError("waiting", "the game starts when every seat is taken")
        if seq is not None and not self.answers_current(seq):
            raise TableError("stale", "the position changed since that move was chosen: look again")
        if not 0 <= index < self.game.num_actions:
            raise TableError("illegal", f"there is no action {index} in {self.game.title}")
        action = self.game.decode(index)
        before = self.state.clone()
        asked, waiting = self.decision, set(self.to_act()) - {seat}
        try:
            if self.seats[seat].kind == HUMAN and not self.seats[seat].covered:
                self.undo.apply(self.state, seat, action)
            else:
                self.state.apply(seat, action)
        except NotYourTurnError:
            raise TableError("not_your_turn", "it is not your turn") from None
        except IllegalActionError as exc:
            raise TableError("illegal", str(exc)) from None
        except OakwoodError as exc:
            raise TableError("illegal", str(exc)) from None
        self._store_or_restore(before)
        # The same commit or race goes on while the seats still to answer are among those that were: others'
        # answers change nothing a seat knows. A resolved one (a Quarrel's tie played again) starts anew.
        if asked is Decision.TURN or self.decision is not asked or not set(self.to_act()) <= waiting:
            self.decision_seq = self.seq
        return action

    def answers_current(self, seq: int) -> bool:
        """Whether a request made at update ``seq`` answers the decision asked now: the latest update, or in
        a commit or a race any update since it began (other seats answering moved ``seq`` on meanwhile)."""
        if seq == self.seq:
            return True
        return self.decision is not Decision.TURN and self.decision_seq <= seq <= self.seq

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last move now."""
        return seat is not None and self.seats[seat].kind == HUMAN and self.undo.why_not(self.state, seat) is None

    def take_back(self, seat: int, seq: int) -> None:
        """Undo ``seat``'s last move (Board Game Arena's policy: see :mod:`oakwood.engine.undo`)."""
        if seq != self.seq:
            raise TableError("stale", "the position changed since you asked: look again")
        reason = self.undo.why_not(self.state, seat)
        if reason is not None:
            raise TableError("undo_refused", f"cannot undo: {reason}")
        before = self.state
        self.state = self.undo.undo(self.state)
        self._store_or_restore(before, undone=True)
        self.decision_seq = self.seq

    def _store_or_restore(self, before: State, *, undone: bool = False) -> None:
        """Save the new position; if the store refuses, go back to ``before`` and refuse the request."""
        try:
            self.live.sync(self.state)
        except StoreError as exc:
            self.state = before
            if not undone:
                self.undo.forget_last()
            raise TableError("store", f"the move was not saved, so it was not played: {exc}") from None
        self.seq += 1

    def legal_indices(self, seat: int, verb: str) -> list[int]:
        """The codec indices of ``seat``'s legal actions whose verb is ``verb`` (``pass`` in a race)."""
        if seat not in self.to_act():
            return []
        return [self.game.encode(a) for a in self.state.legal_actions(seat) if getattr(a, "verb", None) == verb]

    # ------------------------------------------------------------------ what a client sees
    def update_for(self, seat: int | None, since: int) -> dict[str, Any]:
        """The ``update`` message for ``seat`` (None: a spectator), with the events from index ``since``."""
        state = self.state
        observation = state.observe(seat)
        events = state.events_seen_by(seat, since)
        legal: list[dict[str, Any]] = []
        # a game that can say what a move costs in this position (Nutty's AP) labels its moves with it
        describe = getattr(self.game, "describe_move", None)
        if seat is not None and seat in self.to_act() and self.status == "playing":  # a waiting table takes no move
            for action in state.legal_actions(seat):
                legal.append(
                    {
                        "index": self.game.encode(action),
                        "notation": str(action),
                        "label": describe(observation, action) if describe else self.game.describe_action(action),
                        "verb": getattr(action, "verb", str(action).split(" ", 1)[0]),
                    }
                )
        return {
            "type": "update",
            "seq": self.seq,
            "table": self.summary(),
            "seat": seat,
            "observation": observation,
            "legal": legal,
            "events_from": since,
            "events": [
                {"index": since + offset, "kind": event.get("kind", ""), "text": self.game.describe_event(event)}
                for offset, event in enumerate(events)
            ],
            "can_undo": self.can_undo(seat),
            "deadline": None,
        }

    @property
    def decision(self) -> Decision:
        """The kind of decision the position asks for."""
        return self.state.decision
