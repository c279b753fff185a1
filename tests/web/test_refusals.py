"""Every refusal of the server: one clear error to the sender only, and nothing at the table changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oakwood.web.protocol import MAX_MESSAGE_BYTES
from tests.web.conftest import create, hello, receive, send, until

pytestmark = pytest.mark.timeout(60)


def refused(client: TestClient, body: object) -> tuple[int, str, str]:
    """POST a table and return the status, error code and message of the refusal."""
    response = client.post("/api/tables", json=body)
    error = response.json()["error"]
    return response.status_code, error["code"], error["message"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "players": 2, "seats": ["human", "easy"], "name": "A"}, "no game named 'chess'"),
        ({"game": "barrell", "players": 9, "seats": ["human"] * 9, "name": "A"}, "2 to 4 players, not 9"),
        ({"game": "barrell", "players": 2, "seats": ["human"], "name": "A"}, "one entry per seat"),
        ({"game": "barrell", "players": 2, "seats": ["human", "god"], "name": "A"}, "a level"),
        ({"game": "barrell", "players": 2, "seats": ["easy", "easy"], "name": "A"}, "at least one seat"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "  "}, "cannot be empty"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "x" * 41}, "at most 40"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "a\x07b"}, "control characters"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "A", "turn_seconds": 1}, "clock"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "A", "options": {"nope": 1}}, "nope"),
        (
            {
                "game": "squarrels",
                "players": 2,
                "seats": ["human", "easy"],
                "name": "A",
                "options": {"hoard_race": "x"},
            },
            "hoard_race",
        ),
        ({"game": "barrell", "players": "two", "seats": ["human", "easy"], "name": "A"}, "players"),
        ({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "A", "admin": True}, "admin"),
    ],
)
def test_a_bad_table_is_refused_with_a_sentence(client: TestClient, body: object, words: str) -> None:
    status, code, message = refused(client, body)
    assert status == 400 and code in ("bad_request", "malformed") and words in message, message
    assert client.get("/api/tables").json()["tables"] == []


def test_bodies_that_are_not_json_or_too_large_are_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{not json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "malformed"
    response = client.post("/api/tables", content=b"x" * 20_000)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_unknown_tables_and_games(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/join", json={"name": "A"}).json()["error"]["code"] == "unknown_table"
    assert client.get("/api/rules/chess").status_code == 404
    assert client.get("/api/replays/999").json()["error"]["code"] == "unknown_game"
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert receive(ws)["code"] == "unknown_table"


def test_a_replay_opens_only_when_the_game_is_over(client: TestClient) -> None:
    answer = create(client, "barrell", ["human", "easy"])
    response = client.get(f"/api/replays/{answer['table']['game_id']}/0")
    assert response.status_code == 404 and "not finished" in response.json()["error"]["message"]


@pytest.fixture
def table(client: TestClient) -> dict[str, str]:
    """A Barrell table of two people (Ann at seat 0, Bob at seat 1), both seated."""
    answer = create(client, "barrell", ["human", "human"])
    table_id = answer["table"]["id"]
    bob = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()
    return {"id": table_id, "ann": answer["token"], "bob": bob["token"]}


BAD_FRAMES: list[tuple[str, str]] = [
    ("not json at all", "malformed"),
    ('{"type": "act", "seq": 0}', "malformed"),  # a missing field
    ('{"type": "act", "seq": "0", "action": 1}', "malformed"),  # a mistyped field
    ('{"type": "act", "seq": 0, "action": 1, "cheat": true}', "malformed"),  # an unknown field
    ('{"type": "teleport"}', "malformed"),
    ("[1, 2, 3]", "malformed"),
    ('{"type": "hello", "token": "' + "x" * MAX_MESSAGE_BYTES + '"}', "too_large"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
def test_a_broken_message_is_refused_and_changes_nothing(
    client: TestClient, table: dict[str, str], frame: str, code: str
) -> None:
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        before = hello(ws, table["ann"])
        ws.send_text(frame)
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == code and error["message"]
        send(ws, type="ping")
        assert ws.receive_json() == {"type": "pong"}  # the connection is still served
        with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            assert hello(watcher, None)["seq"] == before["seq"]  # nothing was played


def test_binary_frames_and_acts_before_hello_are_refused(client: TestClient, table: dict[str, str]) -> None:
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_bytes(b"\xff\xfe")
        assert receive(ws)["code"] == "malformed"
        send(ws, type="act", seq=0, action=0)
        assert "hello first" in receive(ws)["message"]


def test_seat_tokens_acting_out_of_turn_stale_and_illegal_moves(client: TestClient, table: dict[str, str]) -> None:
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}") as ann,
        client.websocket_connect(f"/ws/tables/{table['id']}") as bob,
        client.websocket_connect(f"/ws/tables/{table['id']}") as stranger,
    ):
        send(stranger, type="hello", token="not-a-token")
        assert receive(stranger)["code"] == "bad_token"
        first = hello(ann, table["ann"])
        bob_view = hello(bob, table["bob"])
        first = until(ann, lambda u: u["table"]["seats"][1]["connected"])
        mover, waiter = (ann, bob) if first["legal"] else (bob, ann)
        moving = first if first["legal"] else bob_view
        waiting_update = bob_view if first["legal"] else first
        # the seat not to act: refused, to that client only
        legal_of_mover = moving["legal"][0]["index"]
        send(waiter, type="act", seq=moving["seq"], action=legal_of_mover)
        assert receive(waiter)["code"] == "not_your_turn"
        # a codec index out of range and an action that is not legal now
        send(mover, type="act", seq=moving["seq"], action=10_000)
        assert receive(mover)["code"] == "illegal"
        illegal = next(i for i in range(272) if i not in {m["index"] for m in moving["legal"]})
        send(mover, type="act", seq=moving["seq"], action=illegal)
        error = receive(mover)
        assert error["code"] == "illegal" and error["message"]
        # an answer to an old update
        send(mover, type="act", seq=moving["seq"] + 5, action=legal_of_mover)
        assert receive(mover)["code"] == "stale"
        # nothing changed: the same move is still accepted once
        send(mover, type="act", seq=moving["seq"], action=legal_of_mover)
        after = until(mover, lambda u: u["seq"] == moving["seq"] + 1)
        assert after["seq"] == waiting_update["seq"] + 1


def test_a_spectator_sees_the_table_but_cannot_act(client: TestClient, table: dict[str, str]) -> None:
    with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
        update = hello(watcher, None)
        assert update["seat"] is None and update["legal"] == [] and update["can_undo"] is False
        send(watcher, type="act", seq=update["seq"], action=0)
        assert receive(watcher)["code"] == "spectator"
        send(watcher, type="hello", token=None)
        assert "already" in receive(watcher)["message"]


def test_a_flood_is_refused(server: Callable[..., TestClient]) -> None:
    client = server(rate_limit=20)
    answer = create(client, "barrell", ["human", "easy"])
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        hello(ws, answer["token"])
        for _ in range(30):
            send(ws, type="ping")
        replies: list[dict[str, Any]] = []
        while len(replies) < 30:  # the answers to the pings (the table's own updates may come between them)
            message = ws.receive_json()
            if message["type"] != "update":
                replies.append(message)
    codes = [r.get("code") for r in replies if r["type"] == "error"]
    assert codes and set(codes) == {"rate_limited"} and len(codes) >= 9
    assert json.dumps(replies).count("pong") <= 20
