"""Commit and race decisions at a real table: a Quarrel is a true commit and reveal, the Hoard a true race."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from oakwood.engine import Decision, load
from tests.web.conftest import Update, create, hello, receive, send, until

pytestmark = pytest.mark.timeout(60)

SINGLE_ROUND = {"single_round": True}


def seat_everyone(client: TestClient, players: int, options: dict[str, Any], seed: int) -> tuple[str, list[str]]:
    """A S'Quarrels table of ``players`` people with a fixed deal; its id and each seat's token."""
    answer = create(client, "squarrels", ["human"] * players, options=options, seed=seed)
    table_id = answer["table"]["id"]
    tokens = [answer["token"]]
    for n in range(1, players):
        tokens.append(client.post(f"/api/tables/{table_id}/join", json={"name": f"P{n + 1}"}).json()["token"])
    return table_id, tokens


def steps_to(decision: Decision, players: int, options: dict[str, Any], seed: int) -> int:
    """How many first-legal moves lead the deal to its first ``decision`` (found with the engine alone)."""
    state = load("squarrels", **options).new_state(players, seed)
    for step in range(500):
        if state.decision is decision:
            return step
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    raise AssertionError(f"no {decision} in this deal")


def first_moves(sockets: list[WebSocketTestSession], latest: list[Update], count: int) -> None:
    """Play ``count`` moves, each the first legal move of the first seat to act, reading every socket up."""
    for _ in range(count):
        seq = latest[0]["seq"]
        seat = next(s for s, update in enumerate(latest) if update["legal"])
        send(sockets[seat], type="act", seq=seq, action=latest[seat]["legal"][0]["index"])
        for s, ws in enumerate(sockets):
            latest[s] = until(ws, lambda u, seq=seq: u["seq"] == seq + 1)


def all_here(sockets: list[WebSocketTestSession], latest: list[Update]) -> None:
    """Read each socket up to the update that shows every player connected."""
    for s, ws in enumerate(sockets):
        if not all(seat["connected"] for seat in latest[s]["table"]["seats"]):
            latest[s] = until(ws, lambda u: all(seat["connected"] for seat in u["table"]["seats"]))


def index_of(update: Update, notation: str) -> int:
    """The codec index of the legal move written ``notation``."""
    return next(m["index"] for m in update["legal"] if m["notation"] == notation)


def test_a_quarrel_shows_who_has_chosen_never_what_then_reveals_together(client: TestClient) -> None:
    table_id, tokens = seat_everyone(client, 2, SINGLE_ROUND, seed=0)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ann,
        client.websocket_connect(f"/ws/tables/{table_id}") as bob,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        sockets = [ann, bob]
        latest = [hello(ann, tokens[0]), hello(bob, tokens[1])]
        latest[0] = until(ann, lambda u: u["table"]["seats"][1]["connected"])
        hello(watcher, None)
        first_moves(sockets, latest, steps_to(Decision.COMMIT, 2, SINGLE_ROUND, 0))
        assert latest[0]["observation"]["decision"] == "commit" and latest[0]["legal"] and latest[1]["legal"]
        seq = latest[0]["seq"]
        send(ann, type="act", seq=seq, action=latest[0]["legal"][0]["index"])
        chosen = latest[0]["legal"][0]["notation"].split()[-1]
        bob_sees = until(bob, lambda u: u["seq"] == seq + 1)
        watcher_sees = until(watcher, lambda u: u["seq"] == seq + 1)
        for seen in (bob_sees, watcher_sees):
            quarrel = seen["observation"]["quarrel"]
            assert quarrel["committed"] == [0] and quarrel["your_play"] is None and quarrel["pot"] == []
        assert bob_sees["legal"], "Bob still chooses, knowing only that Ann has"
        ann_sees = until(ann, lambda u: u["seq"] == seq + 1)
        assert ann_sees["observation"]["quarrel"]["your_play"] == chosen and ann_sees["legal"] == []
        send(bob, type="act", seq=seq + 1, action=bob_sees["legal"][0]["index"])
        revealed = until(watcher, lambda u: u["seq"] == seq + 2)
        assert revealed["observation"]["quarrel"] is None or revealed["observation"]["quarrel"]["pot"]
        assert any("quarrel" in event["kind"] for event in revealed["events"])


RACE = {**SINGLE_ROUND, "hoard_race": "realtime"}


@contextlib.contextmanager
def at_first_race(client: TestClient, window: float) -> Iterator[tuple[list[WebSocketTestSession], list[Update]]]:
    """Three people at a S'Quarrels deal played up to its first Hoard race (seats 0 and 1 race), with a race
    window of ``window`` seconds: the three sockets and each one's latest update."""
    options = {**RACE, "hoard_race_window_s": window}
    table_id, tokens = seat_everyone(client, 3, options, seed=0)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as b,
        client.websocket_connect(f"/ws/tables/{table_id}") as c,
    ):
        sockets = [a, b, c]
        latest = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
        all_here(sockets, latest)
        first_moves(sockets, latest, steps_to(Decision.RACE, 3, options, 0))
        assert latest[0]["observation"]["decision"] == "race"
        yield sockets, latest


@pytest.fixture
def race_table(client: TestClient) -> Any:
    """The first race of the deal, with a window long enough for the test to answer in."""
    with at_first_race(client, 30.0) as (sockets, latest):
        assert {m["notation"] for m in latest[0]["legal"]} == {"slap", "pass"}
        yield sockets, latest


def test_the_first_slap_to_reach_the_server_wins_the_hoard(race_table: Any) -> None:
    sockets, latest = race_table
    seq = latest[0]["seq"]
    assert latest[0]["deadline"] is not None and 0 < latest[0]["deadline"] <= 30
    send(sockets[1], type="act", seq=seq, action=index_of(latest[1], "slap"))
    send(sockets[0], type="act", seq=seq, action=index_of(latest[0], "slap"))  # too late: the race is over
    won = until(sockets[2], lambda u: u["seq"] == seq + 1)
    assert [e["text"] for e in won["events"] if e["kind"] == "hoard_won"] == ["P2 grabs the Hoard Pile (4 cards)."]
    late = receive(sockets[0])
    while late["type"] == "update":
        late = receive(sockets[0])
    assert late["code"] in ("stale", "not_your_turn")


def test_the_race_window_closes_as_a_pass(client: TestClient) -> None:
    with at_first_race(client, 0.5) as (sockets, latest):
        seq = latest[0]["seq"]
        started = time.monotonic()
        closed = until(sockets[2], lambda u: u["observation"]["decision"] != "race")
        assert time.monotonic() - started >= 0.4 and closed["seq"] == seq + 2  # both racers passed
        assert any(e["kind"] == "race_declined" for e in closed["events"]), closed["events"]


def test_the_race_window_never_runs_on_into_the_winners_turn(client: TestClient) -> None:
    """Winning a race hands the winner the turn; with no turn clock, nothing may time that turn: no bot covers
    the seat and no countdown shows, however long the winner thinks (the race window is long over)."""
    with at_first_race(client, 0.5) as (sockets, latest):
        seq = latest[0]["seq"]
        send(sockets[0], type="act", seq=seq, action=index_of(latest[0], "slap"))
        won = until(sockets[0], lambda u: u["seq"] == seq + 1)
        assert won["observation"]["decision"] == "turn" and won["legal"], "the winner plays on"
        assert won["deadline"] is None, "no countdown on a turn without a clock"
        time.sleep(1.5)  # three race windows
        send(sockets[0], type="ping")
        assert sockets[0].receive_json()["type"] == "pong"  # nothing came meanwhile: no cover, no move for the seat
        send(sockets[0], type="act", seq=won["seq"], action=won["legal"][0]["index"])
        moved = until(sockets[0], lambda u: u["seq"] == seq + 2)
        assert not moved["table"]["seats"][0]["covered"]


def test_a_commit_answer_crossing_another_seats_answer_still_counts(client: TestClient) -> None:
    """In a Quarrel a player chooses while others do: an answer sent from an update that another seat's answer
    has since moved on is not stale (it answers the same question), so no click is lost."""
    table_id, tokens = seat_everyone(client, 3, SINGLE_ROUND, seed=2)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as b,
        client.websocket_connect(f"/ws/tables/{table_id}") as c,
    ):
        sockets = [a, b, c]
        latest = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
        all_here(sockets, latest)
        first_moves(sockets, latest, steps_to(Decision.COMMIT, 3, SINGLE_ROUND, 2))
        choosing = [s for s, update in enumerate(latest) if update["legal"]]
        assert len(choosing) >= 2, "a Quarrel with at least two players choosing"
        first, second = choosing[:2]
        seq = latest[0]["seq"]
        send(sockets[first], type="act", seq=seq, action=latest[first]["legal"][0]["index"])
        send(sockets[second], type="act", seq=seq, action=latest[second]["legal"][0]["index"])  # seq is old now
        after = until(sockets[second], lambda u: u["seq"] == seq + 2)
        assert {first, second} <= set(after["observation"]["quarrel"]["committed"]) or not after["observation"][
            "quarrel"
        ], "both answers were taken"
