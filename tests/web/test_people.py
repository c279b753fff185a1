"""What a person reads at a table: seats named by their display names in every text, round and battle
summaries with the revealed cards, the game's end; and a table its people left: paused, then given up."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import Update, create, hello, play_out, receive, send, until

pytestmark = pytest.mark.timeout(90)

#: A seat as the games write it (``P1``): no text a person reads at a table may still hold one.
SEAT_TOKEN = re.compile(r"\bP[1-9]\b")


def texts(update: Update) -> list[str]:
    """Every text of an update a person reads: the log lines, the move labels and the summaries."""
    out = [event["text"] for event in update["events"]] + [move["label"] for move in update["legal"]]
    for summary in (update.get("summary"), update.get("final")):
        if summary:
            out += [summary["title"], *summary["lines"], *summary["notes"]]
            out += [c if isinstance(c, str) else c["text"] for row in summary["rows"] for c in row["cells"]]
    return out


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("squarrels", ["human", "medium", "medium"], {"target_score": 10}),
        ("barrell", ["human", "medium"], {}),
        ("nutty", ["human", "medium"], {}),
    ],
)
def test_every_text_names_the_seats_by_their_display_names(
    client: TestClient, game: str, seats: list[str], options: dict[str, Any]
) -> None:
    answer = create(client, game, seats, options=options, seed=5)
    seen: list[str] = []
    summaries: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        while not update["observation"]["terminal"]:
            seen += texts(update)
            if update.get("summary") and update["summary"] not in summaries:
                summaries.append(update["summary"])
            if update["legal"]:
                send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            message = receive(ws)
            while message["type"] == "error":
                assert message["code"] == "stale", message
                message = receive(ws)
            update = message
        seen += texts(update)
    named = [text for text in seen if SEAT_TOKEN.search(text)]
    assert not named, named[:5]
    assert any("Ann" in text for text in seen) and any("Bot 2 (medium)" in text for text in seen)
    if game != "nutty":  # a round or a battle ended at least once, and was summed up with the names
        assert summaries and all(s["rows"][0]["cells"][0] == "Ann" for s in summaries)


def test_a_squarrels_round_summary_shows_the_special_cards_held_at_winter(client: TestClient) -> None:
    answer = create(client, "squarrels", ["human", "medium", "medium"], options={"single_round": True}, seed=11)
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        last = play_out(ws, hello(ws, answer["token"]))
    summary = last["summary"]
    assert summary["kind"] == "round_end" and summary["title"].startswith("Winter ends round 1")
    assert summary["columns"] == ["Seat", "Sets stored", "Sets", "Golden / Rotten", "Round", "Total"]
    special = [row["cells"][3] for row in summary["rows"]]
    held = [cell["cards"] for cell in special if isinstance(cell, dict)]
    assert all(set(cards) <= {"golden", "rotten"} for cards in held)
    end = next(e for e in last["events"] if e["kind"] == "round_end")
    assert summary["event_index"] == end["index"]
    rounds = [int(row["cells"][4]) for row in summary["rows"]]
    assert rounds == last["observation"]["last_round_scores"]


def test_a_barrell_battle_summary_shows_every_field_as_revealed(client: TestClient) -> None:
    answer = create(client, "barrell", ["human", "medium"], seed=3)
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        log = list(update["events"])
        while not update.get("summary"):
            if update["legal"]:
                send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            message = receive(ws)
            if message["type"] == "update":
                update = message
                log += update["events"]
    summary = update["summary"]
    assert summary["kind"] == "battle_result" and summary["title"].startswith("Battle 1 is over")
    reveal = next(e for e in log if e["kind"] == "reveal")
    fields = [row["cells"][1] for row in summary["rows"]]
    assert any(isinstance(cell, dict) for cell in fields)
    for row, cell in zip(summary["rows"], fields, strict=True):
        if isinstance(cell, dict):  # the cards drawn are the ones the reveal named for that seat
            assert f"{row['cells'][0]} {cell['text']}" in reveal["text"]
            assert len(cell["cards"]) == len(
                cell["text"].replace("Red Joker", "RJ").replace("Black Joker", "BJ").split()
            )


def test_a_solo_game_says_how_far_it_was_from_twenty(client: TestClient) -> None:
    answer = create(client, "nutty", ["human"], seed=1)
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        end = next(m for m in update["legal"] if m["notation"] == "end game")
        send(ws, type="act", seq=update["seq"], action=end["index"])
        over = until(ws, lambda u: u["observation"]["terminal"])
    assert over["final"]["title"] == "0 points: 20 short of 20"


# ---------------------------------------------------------------------- a table its people left
def test_a_table_nobody_is_at_waits_and_can_be_given_up(server: Callable[..., TestClient]) -> None:
    client = server(absent_seconds=0.2)
    answer = create(client, "barrell", ["human", "medium"], seed=4)
    table_id, token = answer["table"]["id"], answer["token"]
    assert answer["table"]["status"] == "paused"  # nobody is at the table yet: nothing moves
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        update = hello(ws, token)
        assert update["table"]["status"] == "playing"
        if update["legal"]:
            send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
            update = until(ws, lambda u, seq=update["seq"]: u["seq"] > seq)
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "paused"
    registry = client.app.state.registry  # type: ignore[attr-defined]
    seq = registry.get(table_id).table.seq
    time.sleep(0.6)  # three absence clocks: before, a bot would now have played Ann's seat
    assert registry.get(table_id).table.seq == seq, "no bot plays a table nobody is at"
    assert not registry.get(table_id).table.seats[0].covered or registry.get(table_id).table.status == "paused"
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[table_id]["status"] == "paused"
    refused = client.post(f"/api/tables/{table_id}/abandon", json={"token": "not-a-token"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
    given_up = client.post(f"/api/tables/{table_id}/abandon", json={"token": token})
    assert given_up.status_code == 200, given_up.text
    assert given_up.json()["status"] == "abandoned" and given_up.json()["abandoned_by"] == "Ann"
    lobby = client.get("/api/tables").json()
    assert table_id not in {t["id"] for t in lobby["tables"]}
    ended = next(g for g in lobby["history"] if g["id"] == table_id)
    assert ended["status"] == "abandoned" and ended["abandoned_by"] == "Ann" and ended["names"][0] == "Ann"
    stored = client.get(f"/api/replays/{answer['table']['game_id']}")
    assert stored.status_code == 200  # over, so its replay may be watched
    again = client.post(f"/api/tables/{table_id}/abandon", json={"token": token})
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"


def test_nobody_gives_up_a_game_another_person_is_playing(client: TestClient) -> None:
    answer = create(client, "barrell", ["human", "human"])
    table_id = answer["table"]["id"]
    bob = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, bob["token"])
        refused = client.post(f"/api/tables/{table_id}/abandon", json={"token": answer["token"]})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "others_playing"


def test_the_lobby_history_tells_each_finished_game_apart(client: TestClient, tmp_path: Any) -> None:
    for seed in (1, 2):
        # two levels of bot, the cheap ones: what is told apart is the games, not the bots' strength
        answer = create(client, "squarrels", ["human", "medium", "easy"], options={"single_round": True}, seed=seed)
        with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
            play_out(ws, hello(ws, answer["token"]))
    history = client.get("/api/tables").json()["history"]
    assert len(history) == 2
    for game in history:
        assert game["ended_at"] and game["scores"] and game["winners"] is not None
        assert game["names"] == ["Ann", "Bot 2 (medium)", "Bot 3 (easy)"] and game["score_name"] == "Total"
    assert history[0]["ended_at"] >= history[1]["ended_at"]
    assert history[0]["game_id"] != history[1]["game_id"]


def test_the_catalog_gives_the_deck_composition_an_editor_of_counts(client: TestClient) -> None:
    nutty = next(g for g in client.get("/api/catalog").json()["games"] if g["name"] == "nutty")
    deck = next(o for o in nutty["options"] if o["name"] == "deck_composition")
    editor = deck["editor"]
    assert editor["kind"] == "counts" and sum(editor["presets"]["proposed_v1"].values()) == 54
    assert {item["code"] for item in editor["items"]} >= {"1", "G", "BB", "OW"}
    counts = {**editor["presets"]["proposed_v1"], "BB": 2}
    made = create(client, "nutty", ["human", "medium"], options={"deck_composition": json.dumps(counts)})
    assert json.loads(made["table"]["options"]["deck_composition"])["BB"] == 2
    others = [
        o for g in client.get("/api/catalog").json()["games"] for o in g["options"] if o["name"] != "deck_composition"
    ]
    assert all(o["editor"] is None for o in others)


def test_the_favicon_is_served(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    for page in ("/", "/t/x", "/replay/1"):
        assert '<link rel="icon" href="/static/favicon.svg"' in client.get(page).text


def test_an_abandoned_table_does_not_come_back_after_a_restart(server: Callable[..., TestClient]) -> None:
    client = server()
    answer = create(client, "nutty", ["human", "medium"])
    table_id = answer["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/abandon", json={"token": answer["token"]}).status_code == 200
    restarted = server()  # a new server on the same database
    assert restarted.get(f"/api/tables/{table_id}").status_code == 404
    assert [g["id"] for g in restarted.get("/api/tables").json()["history"]] == [table_id]
