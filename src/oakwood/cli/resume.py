"""``oakwood play --resume [GAME_ID]``: continue a game of ``play`` where it stopped.

Every game of ``play`` is stored as it is played (the row is ``running`` until the end), so a game left
mid-way — quit, Ctrl-C, a closed terminal, a killed process — holds its seed, options, seats and every move
made. Resuming replays those moves through the rules (never trusting a saved position), rebuilds the seats
from the stored names (humans stay humans; bots are built again by name with the seeds ``play`` gave them)
and goes on storing into the same row.

Only what can be continued faithfully is: a game of ``play`` (not a bot-only game of ``simulate`` or
``arena``), not finished, whose options this version still accepts, started by this same Oakwood version
(another version's rules might replay the moves to a different position), and whose moves all replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oakwood.agents import agent_names
from oakwood.engine import Game, InvalidOptionError, OakwoodError, State, game_names
from oakwood.store import Store, StoredGame, StoreError

from .common import find_game_class, package_version
from .errors import CliInputError
from .messages import quote


@dataclass(frozen=True)
class ResumedGame:
    """A stored game rebuilt to where it stopped, with what the session needs to carry on."""

    stored: StoredGame
    game: Game[Any]
    state: State
    names: list[str]  # who plays each seat: ``human`` or a bot's name, as stored
    #: per human seat, the event index its "since your last move" log starts from (before its last move)
    seen: dict[int, int]
    #: the event index of the last human move (where a public race log starts)
    public_seen: int


def find_stored(store: Store, target: str | None) -> StoredGame:
    """The game ``--resume`` means: ``target`` is a game id, a game's name (its latest unfinished game of
    ``play``) or None (the latest unfinished game of ``play`` of any game)."""
    if target is not None and target.strip().isascii() and target.strip().isdigit():
        text = target.strip()
        number = int(text) if len(text) <= 12 else 0
        try:
            return store.get_game(number)
        except StoreError as exc:
            raise CliInputError(f"--resume: {exc} (list them with: oakwood games --recent)") from None
    game = None
    if target is not None:
        game = target.strip().lower()
        if game not in game_names():
            raise CliInputError(
                f"--resume {quote(target)}: give a stored game's id or a game's name ({', '.join(game_names())})"
            )
    try:
        found = store.latest_unfinished(source="play", game=game)
        if found is None:
            of = f" of {game}" if game is not None else ""
            raise CliInputError(
                f"no unfinished game{of} of oakwood play to resume in {store.url} "
                f"(start one with: oakwood play {game or 'GAME'})"
            )
        return store.get_game(found)
    except StoreError as exc:
        raise CliInputError(str(exc)) from None


def check_resumable(stored: StoredGame, version: str | None) -> None:
    """Refuse, in one sentence, a game that cannot be continued as it was played."""
    where = f"game {stored.id}"
    if stored.source != "play":
        raise CliInputError(
            f"{where} was played by oakwood {stored.source}, not by oakwood play: only a game of play can be "
            f"resumed (watch it with: oakwood replay {stored.id})"
        )
    if stored.finished:
        raise CliInputError(f"{where} is finished (watch it again with: oakwood replay {stored.id})")
    if stored.version is not None and stored.version != version:
        raise CliInputError(
            f"{where} was started with Oakwood {stored.version} and this is Oakwood {version or 'unknown'}: "
            "a game is resumed only by the version that started it (its rules may replay the moves "
            "differently)"
        )


def restore(stored: StoredGame) -> ResumedGame:
    """Rebuild ``stored`` by replaying its moves; a game this installation cannot rebuild is refused."""
    where = f"game {stored.id}"
    cls = find_game_class(stored.game)
    try:
        options = cls.options_class.from_dict(stored.options)
    except InvalidOptionError as exc:
        raise CliInputError(f"{where} was stored with options this version does not accept: {exc}") from None
    if set(options.to_dict()) != set(stored.options):
        raise CliInputError(
            f"{where} was stored with options {', '.join(sorted(stored.options)) or '(none)'}, but this version "
            f"of {cls.title} has {', '.join(sorted(options.to_dict())) or '(none)'}: it cannot be resumed"
        )
    game = cls(options)
    known = ["human", *agent_names(game)]
    if len(stored.agents) != stored.players:
        raise CliInputError(f"{where} names {len(stored.agents)} seats for {stored.players} players")
    for agent in stored.agents:
        if agent not in known:
            raise CliInputError(f"{where} has a seat played by {quote(agent)}, which this version does not know")
    try:
        state = (
            game.new_state(stored.players, stored.seed) if stored.start is None else game.from_notation(stored.start)
        )
    except OakwoodError as exc:
        raise CliInputError(f"{where} cannot be resumed: its start cannot be set up ({exc})") from None
    seen: dict[int, int] = {}
    public_seen = 0
    for step, (seat, index) in enumerate(stored.actions, start=1):
        before = len(state.events)
        try:
            state.apply(seat, game.decode(index))
        except OakwoodError as exc:
            raise CliInputError(f"{where} cannot be resumed: step {step} cannot be played ({exc})") from None
        if stored.agents[seat] == "human":  # as the session does after a human's move (its log starts there)
            seen[seat] = before
            public_seen = before
    return ResumedGame(stored, game, state, list(stored.agents), seen, public_seen)


def resume(store: Store, target: str | None) -> ResumedGame:
    """Find, check and rebuild the game ``--resume`` asks for (see :func:`find_stored`)."""
    stored = find_stored(store, target)
    check_resumable(stored, package_version())
    return restore(stored)
