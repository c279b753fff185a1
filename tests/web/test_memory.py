"""What a table's bots hold: a searching bot keeps a bounded tree between moves, lets go of it when the game is
over, and a table the registry forgets is garbage with its bots (docs/web.md, "Memory")."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

import oakwood.web.registry as registry_module
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.agents.levels import level_settings
from oakwood.engine import load
from oakwood.web.room import Room, RoomSettings

from .conftest import Update, create, hello, play_out, receive, send

KEEP = 10


def room_of(client: TestClient, table_id: str) -> Room:
    """The live room of a table (the tests read its bots through :attr:`Room.agents`)."""
    room: Room = client.app.state.registry.get(table_id)  # type: ignore[attr-defined]
    return room


def searching(room: Room) -> list[ISMCTSAgent]:
    """The room's searching bots."""
    return [agent for agent in room.agents.values() if isinstance(agent, ISMCTSAgent)]


def eventually(done: Callable[[], bool], limit: float = 15.0) -> bool:
    """Whether ``done`` comes true within ``limit`` seconds (a bot's thread may still be ending its search)."""
    end = time.monotonic() + limit
    while not done():
        if time.monotonic() > end:
            return False
        gc.collect()
        time.sleep(0.02)
    return True


def test_the_web_room_builds_its_searching_bots_with_the_bound() -> None:
    assert RoomSettings().bot_keep_nodes > 0  # the bound is on by default (its figure: docs/web.md, "Memory")


def test_searching_bots_keep_a_bounded_tree_between_moves(server: Callable[..., TestClient]) -> None:
    # a time budget that cuts the longer searches short (Barrell's expert: 900 iterations); the bound holds either way
    client = server(bot_seconds=0.5, bot_keep_nodes=KEEP, bot_processes=0)
    answer = create(client, "barrell", ["human", "hard", "expert"])
    room = room_of(client, answer["table"]["id"])
    iterations = {level: level_settings(load("barrell"), level)["iterations"] for level in ("hard", "expert")}
    largest = 0
    searched = 0

    def check(update: Update) -> int:
        nonlocal largest, searched
        for (_, level), agent in room.agents.items():
            assert isinstance(agent, ISMCTSAgent) and agent.keep == KEEP
            # at most the nodes kept plus one a search's iteration, whenever one looks (a bot may be mid-search)
            assert len(agent.tree) <= KEEP + iterations[level], (level, len(agent.tree))
            largest = max(largest, len(agent.tree))
            searched += agent.last is not None and agent.last.iterations > 0
        index: int = update["legal"][0]["index"]
        return index

    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        for _ in range(12):  # a dozen of this seat's moves: the bots search between them
            if update["observation"]["terminal"]:
                break
            if update["legal"]:
                send(ws, type="act", seq=update["seq"], action=check(update))
            message = receive(ws)
            while message["type"] == "error":
                assert message["code"] == "stale", message
                message = receive(ws)
            update = message
    assert searched and largest > 0, "the bots searched and kept some of their trees"


@pytest.mark.parametrize("ending", ["finished", "abandoned"])
def test_a_table_the_registry_forgets_is_garbage_with_its_bots(
    server: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    client = server(bot_seconds=0.05, bot_processes=0)
    answer = create(client, "barrell", ["human", "expert", "hard"])
    table_id = answer["table"]["id"]
    room = room_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        update = hello(ws, answer["token"])
        if ending == "finished":
            play_out(ws, update)
        else:
            while not searching(room):  # a bot has searched (it may be searching still when the game is given up)
                if update["legal"]:
                    send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
                update = receive(ws)
            given_up = client.post(f"/api/tables/{table_id}/abandon", json={"token": answer["token"]})
            assert given_up.status_code == 200, given_up.text
    bots = [weakref.ref(agent) for agent in searching(room)]
    assert bots and room.table.over
    assert eventually(lambda: all(len(getattr(ref(), "tree", ())) == 0 for ref in bots)), "the trees are let go"
    refs: list[Callable[[], object]] = [weakref.ref(room), *bots]
    del room
    assert eventually(lambda: not room_of(client, table_id).clients), "the connection is gone"
    # the registry forgets finished tables nobody looks at once it is full: make it full at one table
    monkeypatch.setattr(registry_module, "MAX_TABLES", 1)
    create(client, "barrell", ["human", "medium"])
    assert table_id not in client.app.state.registry.rooms  # type: ignore[attr-defined]
    assert eventually(lambda: all(ref() is None for ref in refs)), "the room and its bots are garbage"
