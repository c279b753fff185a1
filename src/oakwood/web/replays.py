"""Replays of stored games for the browser: any finished game, stepped from any seat's view.

Only games that are over are shown (finished, or abandoned by their players), so a replay can never reveal a
hand of a game still being played. Each step
is rebuilt from the stored moves through the rules and described exactly as a live table would describe it
to that seat: ``observe(seat)`` and ``events_seen_by(seat)`` (``seat`` None: a spectator's view).
"""

from __future__ import annotations

from typing import Any

from oakwood.engine import OakwoodError, load, name_seats
from oakwood.store import ABANDONED, Store, StoredGame, StoreError

from .table import TableError, display_names


def finished_game(store: Store, game_id: int) -> StoredGame:
    """The stored game ``game_id`` if it is over (finished or abandoned); ``unknown_game`` otherwise."""
    try:
        stored = store.get_game(game_id)
    except StoreError:
        raise TableError("unknown_game", f"there is no game {game_id}") from None
    if not stored.finished and stored.status != ABANDONED:
        raise TableError("unknown_game", f"game {game_id} is not finished: its replay opens when it ends")
    return stored


def seat_names(store: Store, stored: StoredGame) -> list[str]:
    """Who played each seat, as the live table named them (:func:`~oakwood.web.table.display_names`); a game
    of another command by seat and agent, ``P1 (human)``."""
    tables = store.web_tables(game_id=stored.id) if stored.source == "web" else []
    if not tables:
        return [f"P{seat + 1} ({agent})" for seat, agent in enumerate(stored.agents)]
    seats = zip(tables[0].seats, stored.agents, strict=False)
    return display_names([(seat["kind"], seat.get("level") or agent, seat.get("name")) for seat, agent in seats])


def replay_info(store: Store, game_id: int) -> dict[str, Any]:
    """What the replay page needs first: the game, its seats and how many steps it has."""
    stored = finished_game(store, game_id)
    title = load(stored.game, **stored.options).title
    return {
        "game_id": stored.id,
        "game": stored.game,
        "title": title,
        "players": stored.players,
        "options": stored.options,
        "steps": stored.steps,
        "agents": stored.agents,
        "names": seat_names(store, stored),
        "source": stored.source,
        "scores": stored.scores,
        "winners": stored.winners,
    }


def replay_step(store: Store, game_id: int, step: int, seat: int | None) -> dict[str, Any]:
    """The position after ``step`` moves as ``seat`` saw it, shaped like a live table's update (no legal
    moves); the events are the whole log up to that step."""
    stored = finished_game(store, game_id)
    if not 0 <= step <= stored.steps:
        raise TableError("bad_request", f"game {game_id} has steps 0 to {stored.steps}, not {step}")
    if seat is not None and not 0 <= seat < stored.players:
        raise TableError("bad_request", f"game {game_id} has seats 1 to {stored.players}")
    try:
        state = stored.replay().play(step)
    except OakwoodError as exc:
        raise TableError("bad_request", f"game {game_id} no longer replays: {exc}") from None
    game = state.game
    names = seat_names(store, stored)
    observation = state.observe(seat)
    return {
        "type": "update",
        "seq": step,
        "steps": stored.steps,
        "seat": seat,
        "observation": observation,
        "text": game.render(observation),
        "legal": [],
        "events_from": 0,
        "events": [
            {
                "index": i,
                "kind": event.get("kind", ""),
                "seat": event.get("seat"),
                "text": name_seats(game.describe_event(event), names),
            }
            for i, event in enumerate(state.events_seen_by(seat, 0))
        ],
        "can_undo": False,
        "deadline": None,
        "table": {
            "id": None,
            "game": stored.game,
            "title": game.title,
            "players": stored.players,
            "options": stored.options,
            "status": "finished",
            "seats": [
                {
                    "seat": i,
                    "kind": "human" if agent == "human" else "bot",
                    "level": None if agent == "human" else agent,
                    "name": name,
                    "connected": False,
                    "covered": False,
                }
                for i, (agent, name) in enumerate(zip(stored.agents, names, strict=True))
            ],
            "turn_seconds": None,
            "game_id": stored.id,
        },
    }
