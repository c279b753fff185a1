"""Searching bots in worker processes (``oakwood.web.search_pool``): what crosses to a worker tells it nothing
its seat's observation does not, a bot there plays exactly the moves it plays in process, it keeps a bounded
tree and is let go when its game ends, and a worker that dies is replaced without stopping the table."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oakwood.agents import make_agent
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.agents.levels import level_settings
from oakwood.engine import Rng, State, load
from oakwood.engine.agent import PlayerView
from oakwood.web import search_pool
from oakwood.web.search_pool import SearchPool

from .conftest import create, hello, play_out, receive, send

pytestmark = pytest.mark.timeout(180)

CASES = [("squarrels", 4), ("squarrels", 2), ("barrell", 2), ("nutty", 2), ("nutty", 1)]


def positions(game_name: str, players: int, count: int = 6) -> list[State]:
    """Positions along one random game (every few moves), each with a seat to act."""
    game = load(game_name)
    state, rng, found = game.new_state(players, seed=11), random.Random(5), []
    for step in range(400):
        if state.is_terminal or len(found) >= count:
            break
        seat = state.to_act()[0]
        if step % 7 == 3:
            found.append(state)
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


@pytest.mark.parametrize(("game_name", "players"), CASES)
def test_what_a_worker_is_sent_is_the_same_for_truths_the_seat_cannot_tell_apart(game_name: str, players: int) -> None:
    # the world the room sends is drawn from the truth; had the truth been any world the seat cannot tell from
    # it, the worker would have been sent exactly the same text: it holds nothing of what is hidden
    for state in positions(game_name, players):
        seat = state.to_act()[0]
        other_truth = state.determinize(seat, Rng(99))
        for draw in range(3):
            sent = state.determinize(seat, Rng(draw)).to_notation()
            assert sent == other_truth.determinize(seat, Rng(draw)).to_notation()


@pytest.mark.parametrize(("game_name", "players"), CASES)
def test_a_bot_in_a_worker_plays_the_moves_it_plays_in_process(game_name: str, players: int) -> None:
    game = load(game_name)
    settings = {**level_settings(game, "expert"), "iterations": 60}  # an iteration budget: no clock involved
    for state in positions(game_name, players, count=3):
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) < 2:
            continue
        here, there = make_agent(game, "ismcts", seed=3, **settings), make_agent(game, "ismcts", seed=3, **settings)
        in_process = here.act(PlayerView.for_agent(state, seat, here, Rng(8)))
        sent = state.determinize(seat, Rng(8)).to_notation()  # what the room sends, drawn with the same generator
        in_worker = there.act(PlayerView.of_world(game.from_notation(sent), seat))
        assert in_worker == in_process


def held(client: TestClient) -> dict[tuple[str, int, str], int]:
    """The bots the server's workers hold, with the nodes of each tree."""
    pool: SearchPool = client.app.state.registry.searches  # type: ignore[attr-defined]
    assert client.portal is not None
    result: dict[tuple[str, int, str], int] = client.portal.call(pool.held)
    return result


def test_bots_in_workers_keep_a_bounded_tree_and_are_let_go_when_the_game_ends(
    server: Callable[..., TestClient],
) -> None:
    keep = 10
    client = server(bot_seconds=0.3, bot_keep_nodes=keep, bot_processes=2)
    answer = create(client, "barrell", ["human", "hard", "expert"])
    table = answer["table"]["id"]
    iterations = {level: level_settings(load("barrell"), level)["iterations"] for level in ("hard", "expert")}
    seen: dict[tuple[str, int, str], int] = {}

    def check(update: dict[str, Any]) -> int:
        for key, nodes in held(client).items():  # between searches: at most what a bot keeps
            assert key[0] == table and nodes <= keep + iterations[key[2]], (key, nodes)
            seen[key] = max(seen.get(key, 0), nodes)
        index: int = update["legal"][0]["index"]
        return index

    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        play_out(ws, hello(ws, answer["token"]), check)
    assert {(table, 1, "hard"), (table, 2, "expert")} <= set(seen), seen
    room = client.app.state.registry.get(table)  # type: ignore[attr-defined]
    assert not room.agents, "no bot searched in the server's own interpreter (where it held up the event loop)"
    assert any(nodes > 0 for nodes in seen.values()), "the bots searched and kept part of their trees"
    assert not [key for key in held(client) if key[0] == table], "the workers let the game's bots go"


def test_a_worker_that_dies_is_replaced_and_the_game_goes_on(server: Callable[..., TestClient]) -> None:
    client = server(bot_seconds=0.05, bot_processes=1)
    answer = create(client, "barrell", ["human", "expert"])
    pool: SearchPool = client.app.state.registry.searches  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        while not held(client):  # the expert has moved once: its worker runs
            if update["legal"]:
                send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            update = receive(ws)
        worker: Any = pool._workers[0]
        for pid in list(worker._processes):
            os.kill(pid, signal.SIGKILL)
        last = play_out(ws, update)
    assert last["observation"]["terminal"] and last["table"]["status"] == "finished"
    assert pool._workers[0] is not worker, "a new worker took the dead one's place"


class NoProcesses:
    """A worker that can never run (a host that forbids processes): every job finds it broken."""

    def submit(self, *args: object, **kwargs: object) -> None:
        raise BrokenProcessPool("no processes here")

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


def test_when_no_worker_will_run_the_bots_think_in_the_servers_threads(
    server: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = server(bot_seconds=0.05, bot_processes=1)
    pool: SearchPool = client.app.state.registry.searches  # type: ignore[attr-defined]
    monkeypatch.setattr(search_pool, "ProcessPoolExecutor", lambda **settings: NoProcesses())
    for _ in range(2):  # a room whose bot fell back to a thread keeps it there: a second table tries again
        answer = create(client, "barrell", ["human", "expert"])
        with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
            last = play_out(ws, hello(ws, answer["token"]))
        assert last["table"]["status"] == "finished"
        room = client.app.state.registry.get(answer["table"]["id"])  # type: ignore[attr-defined]
        bot = room.agents[(1, "expert")]
        assert isinstance(bot, ISMCTSAgent) and bot.seconds == 0.05, "the expert searched in a thread, not at random"
    assert not pool.usable, "after three dead workers in a row the pool is given up on"
