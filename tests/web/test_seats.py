"""Seats at a live table: what each one is sent, reconnecting, the turn clock, a bot keeping an absent
player's seat warm and handing it back, and undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oakwood.engine import load
from tests.web.conftest import Update, create, hello, receive, send, until

pytestmark = pytest.mark.timeout(60)


def live_state(client: TestClient, table_id: str) -> Any:
    """The server's own state of a table (the test looks behind the boundary to check what crossed it)."""
    return client.app.state.registry.get(table_id).table.state  # type: ignore[attr-defined]


def test_each_client_is_sent_its_own_view_and_nothing_more(client: TestClient) -> None:
    answer = create(client, "barrell", ["human", "medium", "medium"])
    table_id = answer["table"]["id"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ann,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        update = hello(ann, answer["token"])
        watched = hello(watcher, None)
        for _ in range(12):
            state = live_state(client, table_id)
            if update["seq"] == watched["seq"] == state.replay().actions.__len__():
                assert update["observation"] == state.observe(0)
                assert watched["observation"] == state.observe(None)
                hidden = [card for seat in (1, 2) for card in state.observe(seat)["hand"]]
                assert not set(hidden) & set(update["observation"]["hand"])
                assert "hand" not in watched["observation"] or watched["observation"]["hand"] in ([], None)
                assert watched["legal"] == [] and all(m["index"] >= 0 for m in update["legal"])
            if update["observation"]["terminal"]:
                break
            if update["legal"]:
                send(ann, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            update = until(ann, lambda u: True)
            if watched["seq"] < update["seq"]:  # the watcher may already be ahead of Ann: then nothing more comes
                watched = until(watcher, lambda u, seq=update["seq"]: u["seq"] >= seq)


def test_a_player_who_reloads_gets_the_same_seat_and_the_whole_log(client: TestClient) -> None:
    answer = create(client, "nutty", ["human", "easy"])
    table_id = answer["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        update = hello(ws, answer["token"])
        if not update["legal"]:  # the bot may play first: the table waited for Ann to arrive
            update = until(ws, lambda u: bool(u["legal"]))
        for _ in range(3):
            send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            update = until(ws, lambda u: bool(u["legal"]) or u["observation"]["terminal"])
        log = len(update["events"]) + update["events_from"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as again:
        back = hello(again, answer["token"])
        assert back["seat"] == 0 and back["events_from"] == 0 and len(back["events"]) >= log
        assert back["observation"] == live_state(client, table_id).observe(0)
        assert back["table"]["seats"][0]["connected"] is True


def test_the_turn_clock_lets_a_bot_play_for_a_player_out_of_time_until_they_are_back(
    server: Callable[..., TestClient],
) -> None:
    client = server(turn_seconds_range=(0.2, 60.0))
    answer = create(client, "barrell", ["human", "easy"], turn_seconds=0.3)
    table_id = answer["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        update = hello(ws, answer["token"])
        if not update["legal"]:
            update = until(ws, lambda u: bool(u["legal"]))
        assert update["deadline"] is not None and 0 < update["deadline"] <= 0.3
        covered = until(ws, lambda u: u["table"]["seats"][0]["covered"])
        assert covered["table"]["seats"][0]["level"] == "medium"
        moved = until(ws, lambda u, seq=covered["seq"]: u["seq"] > seq)  # the bot played for Ann
        assert moved["table"]["seats"][0]["covered"] is True
        send(ws, type="back")
        back = until(ws, lambda u: not u["table"]["seats"][0]["covered"])
        assert back["table"]["seats"][0]["kind"] == "human"


def test_a_bot_keeps_an_absent_players_seat_warm_and_hands_it_back(server: Callable[..., TestClient]) -> None:
    client = server(absent_seconds=0.2)
    answer = create(client, "barrell", ["human", "human"])
    table_id = answer["table"]["id"]
    bob_token = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as bob:
        hello(bob, bob_token)
        # Ann never connects: after absent_seconds her seat is covered and the game goes on without her
        covered = until(bob, lambda u: u["table"]["seats"][0]["covered"])
        assert covered["table"]["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/tables/{table_id}") as ann:
            back = hello(ann, answer["token"])
            assert back["table"]["seats"][0]["covered"] is False and back["table"]["seats"][0]["connected"]
            until(bob, lambda u: u["table"]["seats"][0]["connected"])  # past the moves her bot made
        gone = until(bob, lambda u: not u["table"]["seats"][0]["connected"])
        assert gone["table"]["seats"][0]["covered"] is False  # not yet: she has absent_seconds to come back
        again = until(bob, lambda u: u["table"]["seats"][0]["covered"])
        assert again["table"]["seats"][0]["name"] == "Ann"


def first_store(options: dict[str, Any], seed: int) -> int:
    """How many first-legal moves lead the S'Quarrels deal to a seat that can store a set."""
    state = load("squarrels", **options).new_state(2, seed)
    for step in range(500):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if any(a.verb == "store" for a in legal):
            return step
        state.apply(seat, legal[0])
    raise AssertionError("no set to store in this deal")


def test_undo_follows_board_game_arenas_policy(client: TestClient) -> None:
    options = {"single_round": True}
    answer = create(client, "squarrels", ["human", "human"], options=options, seed=3)
    table_id = answer["table"]["id"]
    bob_token = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ann,
        client.websocket_connect(f"/ws/tables/{table_id}") as bob,
    ):
        sockets = [ann, bob]
        latest: list[Update] = [hello(ann, answer["token"]), hello(bob, bob_token)]
        latest[0] = until(ann, lambda u: u["table"]["seats"][1]["connected"])
        for _ in range(first_store(options, 3)):
            seq = latest[0]["seq"]
            seat = next(s for s in (0, 1) if latest[s]["legal"])
            send(sockets[seat], type="act", seq=seq, action=latest[seat]["legal"][0]["index"])
            latest = [until(ws, lambda u, seq=seq: u["seq"] == seq + 1) for ws in sockets]
        seat = next(s for s in (0, 1) if latest[s]["legal"])
        before = latest[seat]
        store = next(m for m in before["legal"] if m["verb"] == "store")
        send(sockets[seat], type="act", seq=before["seq"], action=store["index"])
        stored = until(sockets[seat], lambda u: u["seq"] == before["seq"] + 1)
        assert stored["can_undo"] is True
        other = sockets[1 - seat]
        other_view = until(other, lambda u: u["seq"] == before["seq"] + 1)
        assert other_view["can_undo"] is False  # only the player who moved
        send(other, type="undo", seq=other_view["seq"])
        assert receive(other)["code"] == "undo_refused"
        send(sockets[seat], type="undo", seq=stored["seq"])
        undone = until(sockets[seat], lambda u: u["seq"] == before["seq"] + 2)
        assert undone["observation"] == before["observation"] and undone["events_from"] == 0
        assert undone["can_undo"] is False
        send(sockets[seat], type="undo", seq=undone["seq"])
        assert receive(sockets[seat])["code"] == "undo_refused"  # the draw before it showed a card
