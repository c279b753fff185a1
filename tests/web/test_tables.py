"""The table life cycle through the HTTP API and the WebSocket: create, join, play to the end, replay."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from oakwood.engine import load
from tests.web.conftest import create, hello, play_out, receive, send, until

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("squarrels", ["human", "medium"], {"single_round": True}),
        ("barrell", ["human", "medium", "easy"], {}),
        ("nutty", ["human", "medium"], {}),
        ("nutty", ["human"], {}),
    ],
)
def test_a_person_plays_a_whole_game_against_bots_and_it_is_stored(
    client: TestClient, game: str, seats: list[str], options: dict[str, object]
) -> None:
    answer = create(client, game, seats, options=options)
    table = answer["table"]
    assert table["status"] == "paused" and table["seats"][0]["name"] == "Ann"  # until Ann is at the table
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        first = hello(ws, answer["token"])
        assert first["seat"] == 0 and first["events_from"] == 0
        last = play_out(ws, first)
    assert last["table"]["status"] == "finished" and last["observation"]["winners"] == last["observation"]["winners"]
    stored = client.get(f"/api/replays/{table['game_id']}").json()
    assert stored["steps"] > 0 and stored["winners"] == last["observation"]["winners"]
    # the stored moves replay to the end the players saw
    final = client.get(f"/api/replays/{table['game_id']}/{stored['steps']}", params={"seat": 0}).json()
    assert final["observation"] == last["observation"]
    assert stored["names"][0] == "Ann" and final["table"]["seats"][0]["name"] == "Ann"


def test_a_table_waits_for_its_people_then_plays(client: TestClient) -> None:
    answer = create(client, "barrell", ["human", "human"])
    table_id = answer["table"]["id"]
    assert answer["table"]["status"] == "waiting"
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed if t["status"] == "waiting"] == [table_id]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ann:
        update = hello(ann, answer["token"])
        assert update["legal"] == [] and update["table"]["status"] == "waiting"  # no move offered while waiting
        send(ann, type="act", seq=update["seq"], action=0)
        assert receive(ann)["code"] == "waiting"
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        assert joined.status_code == 200
        bob_token = joined.json()["token"]
        assert joined.json()["seat"] == 1 and joined.json()["table"]["status"] == "playing"
        update = until(ann, lambda u: u["table"]["status"] == "playing")
        assert [s["name"] for s in update["table"]["seats"]] == ["Ann", "Bob"]
        assert client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"}).json()["error"]["code"] == "table_full"
        with client.websocket_connect(f"/ws/tables/{table_id}") as bob:
            hello(bob, bob_token)
            update = until(ann, lambda u: u["table"]["seats"][1]["connected"])
            assert update["table"]["seats"][1]["connected"] is True


def test_the_two_people_play_a_game_through_to_the_end(client: TestClient) -> None:
    # A fixed deal (160 moves): a random one can bring Winter within ten moves, too short to show anything.
    options = {"single_round": True, "hoard_race": "seat_order"}
    answer = create(client, "squarrels", ["human", "human"], options=options, seed=1)
    table_id = answer["table"]["id"]
    bob_token = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ann,
        client.websocket_connect(f"/ws/tables/{table_id}") as bob,
    ):
        sockets = {0: ann, 1: bob}
        latest = {0: hello(ann, answer["token"]), 1: hello(bob, bob_token)}
        steps = 0
        while not latest[0]["observation"]["terminal"]:
            seq = latest[0]["seq"]
            seat = next(s for s in (0, 1) if latest[s]["legal"])  # one move at a time: nothing crosses
            send(sockets[seat], type="act", seq=seq, action=latest[seat]["legal"][0]["index"])
            steps += 1
            for s, ws in sockets.items():
                latest[s] = until(ws, lambda u, seq=seq: u["seq"] == seq + 1)
        assert latest[1]["observation"]["terminal"] and steps > 10


def test_the_lobby_lists_every_game_with_its_options_and_levels(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert catalog["levels"] == ["easy", "medium", "hard", "expert"]
    by_name = {g["name"]: g for g in catalog["games"]}
    assert {"squarrels", "barrell", "nutty"} <= set(by_name)  # (other tests may register toy games)
    option = next(o for o in by_name["squarrels"]["options"] if o["name"] == "hoard_race")
    assert option["default"] == load("squarrels").options.hoard_race and option["choices"] and option["help"]
    assert by_name["nutty"]["min_players"] == 1
    rules = client.get("/api/rules/barrell")
    assert rules.status_code == 200 and "Barrell" in rules.text


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/t/anything", "/replay/1"):
        response = client.get(path)
        assert response.status_code == 200 and "<html" in response.text.lower(), path


def test_a_searching_bot_thinks_within_the_servers_time_budget(server: Callable[..., TestClient]) -> None:
    client = server(bot_seconds=0.1, bot_processes=0)  # in the server's threads (the worker processes' bots:
    # tests/web/test_search_pool.py)
    answer = create(client, "barrell", ["human", "expert"])
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        last = play_out(ws, hello(ws, answer["token"]))
    assert last["table"]["status"] == "finished" and last["table"]["seats"][1]["level"] == "expert"
    agent = client.app.state.registry.get(answer["table"]["id"])._agents[(1, "expert")]  # type: ignore[attr-defined]
    assert agent.seconds == 0.1
