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
import random
import secrets
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NoReturn

from oakwood import summaries
from oakwood.engine import Decision, Game, IllegalActionError, NotYourTurnError, OakwoodError, State, name_seats
from oakwood.engine.undo import UndoTracker
from oakwood.store import GameMoved, LiveGame, StoreError, WebTable

from .protocol import ProtocolError

HUMAN = "human"
BOT = "bot"
#: The level of the bot that keeps an absent player's seat warm.
COVER_LEVEL = "medium"


@dataclass
class Change:
    """A change of a table's position, checked and made on a copy, waiting to be stored (see
    :meth:`Table.prepare_act`): nothing shows it until it is stored and :meth:`Table.settle` makes it the table's."""

    #: the position after it
    state: State
    #: the action played (None: an undo)
    action: Hashable | None
    #: the undo tracker remembered a checkpoint for it (forgotten if the change is refused)
    tracked: bool
    #: the decision asked before it, and the seats other than the mover's that were still to answer it
    asked: Decision
    waiting: set[int]
    #: it takes a move back
    undone: bool = False


class TableError(ProtocolError):
    """A request the table refuses (see ``docs/web.md`` for the codes): well formed, but not possible now."""


def display_names(seats: Sequence[tuple[str, str | None, str | None]]) -> list[str]:
    """The display name of each seat given as ``(kind, level, name)``: the person's name (with the seat's number
    when two people share one), ``Bot 2 (medium)``, or ``Seat 2 (free)``."""
    people = [name for kind, _, name in seats if kind == HUMAN and name]
    names = []
    for number, (kind, level, name) in enumerate(seats, start=1):
        if kind != HUMAN:
            names.append(f"Bot {number} ({level})")
        elif not name:
            names.append(f"Seat {number} (free)")
        else:
            names.append(name if people.count(name) == 1 else f"{name} ({number})")
    return names


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
    #: the seat whose player gave the game up before its end (it is then over, and stored ``abandoned``)
    abandoned_by: int | None = None
    #: the game's options as JSON values (every summary carries them; computed once)
    options: dict[str, Any] = field(init=False)
    #: per seat (None: spectators): how many events were looked at for round summaries, the index of the last
    #: ending among them, and its summary with the names it was built with
    _summaries: dict[int | None, tuple[int, int | None, tuple[list[str], dict[str, Any] | None] | None]] = field(
        init=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self.options = self.game.options.to_dict()

    # ------------------------------------------------------------------ who is who
    @property
    def status(self) -> str:
        """``abandoned``, ``finished``, ``waiting`` (a human seat is still free), ``paused`` (no player is
        connected: nobody's game is kept warm, so nothing moves until one comes back) or ``playing``."""
        if self.abandoned_by is not None:
            return "abandoned"
        if self.state.is_terminal():
            return "finished"
        if any(seat.is_free for seat in self.seats):
            return "waiting"
        if not any(seat.kind == HUMAN and seat.connections > 0 for seat in self.seats):
            return "paused"
        return "playing"

    @property
    def over(self) -> bool:
        """Whether the game has ended, by its rules or given up."""
        return self.abandoned_by is not None or self.state.is_terminal()

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
        except StoreError as exc:
            seat.name = seat.token_hash = None
            if isinstance(exc, GameMoved):  # another server holds the table now and changed its seats
                raise TableError("moved", "the table is moving to another server: try again in a moment") from None
            raise TableError("store", f"the seat could not be stored: {exc}") from None
        return number, token

    def save_seats(self) -> None:
        """Write the seats to the store (the game's row keeps the moves); the seat that gave the game up says
        so (``abandoned``)."""
        seats = [seat.stored() for seat in self.seats]
        if self.abandoned_by is not None:
            seats[self.abandoned_by]["abandoned"] = True
        self.live.save_table(  # guarded, on a server of several, against another server's write of the seats
            WebTable(
                id=self.id,
                game_id=self.live.id,
                seats=seats,
                turn_seconds=self.turn_seconds,
                created_at=self.created_at,
            )
        )

    def summary(self) -> dict[str, Any]:
        """The table as the lobby and every client see it."""
        over = self.over
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
            "created_at": self.created_at.isoformat(),
            "score_name": summaries.score_name(self.game.name),
            "scores": self.state.scores() if over else None,
            "winners": self.state.winners() if self.state.is_terminal() else None,
            "abandoned_by": None if self.abandoned_by is None else self.names()[self.abandoned_by],
        }

    def abandon(self, seat: int) -> None:
        """``seat``'s player gives the game up: allowed while no other person is at the table (they would lose
        their game), and stored as ``abandoned`` before it is true here."""
        if self.over:
            raise TableError("game_over", "the game is over")
        if self.seats[seat].kind != HUMAN:
            raise TableError("not_your_turn", "only a player can give up a game")
        others = [n for n, other in enumerate(self.seats) if n != seat and other.kind == HUMAN and other.connections]
        if others:
            raise TableError(
                "others_playing",
                "another player is at the table: leave it, and a bot keeps your seat until you are back",
            )
        try:
            self.live.abandon()
            self.abandoned_by = seat
            self.save_seats()
        except StoreError as exc:
            raise TableError("store", f"the table could not be given up: {exc}") from None

    # ------------------------------------------------------------------ moves
    def to_act(self) -> list[int]:
        """The seats that may act now (empty once the game is over)."""
        return [] if self.over else list(self.state.to_act())

    def act(self, seat: int, seq: int | None, index: int) -> Hashable:
        """Apply ``seat``'s action with codec index ``index``, answering update ``seq`` (None: a bot, or a
        clock, acting on the current position). Stored before it returns; the action applied."""
        change = self.prepare_act(seat, seq, index)
        self.store_now(change)
        assert change.action is not None  # (an action is never None; only an undo's change has none)
        return change.action

    def prepare_act(self, seat: int, seq: int | None, index: int) -> Change:
        """Check ``seat``'s action with codec index ``index`` (see :meth:`act`) and play it on a copy of the
        position: the change, to be stored and then made the table's (:meth:`settle`), or given up
        (:meth:`refuse`). Until then the table shows the position before it."""
        if not 0 <= seat < len(self.seats):
            raise TableError("not_your_turn", "that is not a seat at this table")
        if self.over:
            raise TableError("game_over", "the game is over")
        if self.status == "waiting":
            raise TableError("waiting", "the game starts when every seat is taken")
        if seq is not None and not self.answers_current(seq):
            raise TableError("stale", "the position changed since that move was chosen: look again")
        if not 0 <= index < self.game.num_actions:
            raise TableError("illegal", f"there is no action {index} in {self.game.title}")
        action = self.game.decode(index)
        # Played on a copy, so that while it is being stored (a server stores off its event loop) every update
        # sent still shows the stored position. A person's move leaves its checkpoint in the undo tracker at
        # once: until the change settles, an update sent meanwhile offers no undo (the checkpoint is not the
        # shown position's), which the update after the move corrects.
        after = self.state.clone()
        tracked = self.seats[seat].kind == HUMAN and not self.seats[seat].covered
        try:
            if tracked:
                self.undo.apply(after, seat, action)
            else:
                after.apply(seat, action)
        except NotYourTurnError:
            if seq is not None and seq != self.seq:  # a second answer to a commit, sent before the first was seen
                raise TableError("stale", "the position changed since that move was chosen: look again") from None
            raise TableError("not_your_turn", "it is not your turn") from None
        except IllegalActionError as exc:
            raise TableError("illegal", str(exc)) from None
        except OakwoodError as exc:
            raise TableError("illegal", str(exc)) from None
        return Change(after, action, tracked, self.decision, set(self.to_act()) - {seat})

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
        self.store_now(self.prepare_take_back(seat, seq))

    def prepare_take_back(self, seat: int, seq: int) -> Change:
        """Check ``seat``'s undo (see :meth:`take_back`): the position before its last move, to be stored and
        settled as :meth:`prepare_act`'s change is."""
        if seq != self.seq:
            raise TableError("stale", "the position changed since you asked: look again")
        reason = self.undo.why_not(self.state, seat)
        if reason is not None:
            raise TableError("undo_refused", f"cannot undo: {reason}")
        return Change(self.undo.undo(self.state), None, False, self.decision, set(), undone=True)

    def store_now(self, change: Change) -> None:
        """Store ``change`` here and now (the caller waits for the database), then make it the table's."""
        try:
            self.live.sync(change.state)
        except StoreError as exc:
            self.refuse(change, exc)
        self.settle(change)

    def settle(self, change: Change) -> None:
        """``change`` is stored: it is the table's position now."""
        self.state = change.state
        self.seq += 1
        # The same commit or race goes on while the seats still to answer are among those that were: others'
        # answers change nothing a seat knows. A resolved one (a Quarrel's tie played again) starts anew. An
        # undo starts the question anew.
        asked = change.asked
        goes_on = not change.undone and asked is not Decision.TURN and self.decision is asked
        if not (goes_on and set(self.to_act()) <= change.waiting):
            self.decision_seq = self.seq

    def refuse(self, change: Change, exc: StoreError) -> NoReturn:
        """``change`` could not be stored: it is not played (the position stays as it was) and is refused."""
        if change.tracked:
            self.undo.forget_last()
        raise TableError("store", f"the move was not saved, so it was not played: {exc}") from None

    def legal_indices(self, seat: int, verb: str) -> list[int]:
        """The codec indices of ``seat``'s legal actions whose verb is ``verb`` (``pass`` in a race)."""
        if seat not in self.to_act():
            return []
        return [self.game.encode(a) for a in self.state.legal_actions(seat) if getattr(a, "verb", None) == verb]

    # ------------------------------------------------------------------ what a client sees
    def names(self) -> list[str]:
        """Each seat's display name, as every text of the table names it (:func:`display_names`)."""
        return display_names([(seat.kind, seat.level, seat.name) for seat in self.seats])

    def update_for(self, seat: int | None, since: int) -> dict[str, Any]:
        """The ``update`` message for ``seat`` (None: a spectator), with the events from index ``since``.
        Every text in it names the seats by their display names (:meth:`names`)."""
        state = self.state
        names = self.names()
        observation = state.observe(seat)
        events = state.events_seen_by(seat, since)
        legal: list[dict[str, Any]] = []
        # a game that can say what a move costs in this position (Nutty's AP) labels its moves with it
        describe = getattr(self.game, "describe_move", None)
        if seat is not None and seat in self.to_act() and self.status != "waiting":  # a waiting table takes no move
            actions = state.legal_actions(seat)
            # A sentence the client asks the person to confirm before a move (Nutty solo, NS-17l). The game
            # reads a world of the seat's, never the live state, so no hidden card can reach the text; a game
            # that warns of nothing costs nothing here (no world is drawn).
            warnings: dict[Hashable, str] = {}
            if actions and type(self.game).move_warnings is not Game.move_warnings:
                warnings = self.game.move_warnings(state.determinize(seat, random.Random(0)), seat)
            for action in actions:
                label = describe(observation, action) if describe else self.game.describe_action(action)
                warning = warnings.get(action)
                legal.append(
                    {
                        "index": self.game.encode(action),
                        "notation": str(action),
                        "label": name_seats(label, names),
                        "verb": getattr(action, "verb", str(action).split(" ", 1)[0]),
                        "warning": None if warning is None else name_seats(warning, names),
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
                {
                    "index": since + offset,
                    "kind": event.get("kind", ""),
                    "seat": event.get("seat"),
                    "text": name_seats(self.game.describe_event(event), names),
                }
                for offset, event in enumerate(events)
            ],
            "summary": self._last_summary(seat, names),
            "final": self._final_summary(seat, observation, names),
            "can_undo": self.can_undo(seat),
            "deadline": None,
        }

    def _last_summary(self, seat: int | None, names: list[str]) -> dict[str, Any] | None:
        """The summary of the last round or battle that ended (as ``seat`` saw it), with the index of the event
        that ended it (the client shows each one once); None before the first ends. Only the events new since
        the last call are looked at, and a summary is built again only for a new ending or new names."""
        count = len(self.state.events)
        scanned, ending, built = self._summaries.get(seat, (0, None, None))
        if scanned > count:  # an undo rewound the log
            scanned, ending, built = 0, None, None
        if scanned < count:
            last = summaries.latest_ending(self.game, self.state.events_seen_by(seat, scanned))
            if last is not None:
                ending, built = scanned + last, None
        if ending is not None and (built is None or built[0] != names):
            found = summaries.summary(self.game, self.state.events_seen_by(seat, 0), ending, names, seat)
            built = (list(names), None if found is None else {**found.to_json(), "event_index": ending})
        self._summaries[seat] = (count, ending, built)
        return None if built is None else built[1]

    def _final_summary(self, seat: int | None, observation: dict[str, Any], names: list[str]) -> dict[str, Any] | None:
        """The closing summary of a finished game that its last round or battle does not already give."""
        if not observation["terminal"]:
            return None
        built = summaries.final_summary(self.game, observation, names, seat)
        return None if built is None else built.to_json()

    @property
    def decision(self) -> Decision:
        """The kind of decision the position asks for."""
        return self.state.decision
