"""``oakwood serve --redis``: several processes on one store and one Redis serve every table as one service.

Real processes, a real ``redis-server`` on a Unix socket of the test's folder, real WebSockets: a player on
each process plays one game to its end; the owner of a table is killed with SIGKILL mid-game and another
process takes it over from the store, the clients resume and no acknowledged move is lost; Redis itself is
killed and restarted mid-game.
"""

from __future__ import annotations

import json
import signal
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from oakwood.cli.main import app
from oakwood.engine import Decision, load
from oakwood.store import open_store
from tests.conftest import fresh_postgres_database
from tests.store import postgres
from tests.web.cluster_helpers import (
    RedisServer,
    act,
    closed_with,
    hello,
    next_update,
    nodes,
    receive,
    seat_socket_after_move,
    start_redis,
    stop_all,
    ws_url,
)
from tests.web.served import Served, free_port

pytestmark = pytest.mark.timeout(180)


runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("localhost:6379", "a Redis URL starts with redis://, rediss:// or unix://"),
        ("http://localhost:6379", "a Redis URL starts with redis://, rediss:// or unix://"),
        ("unix:///nonexistent/redis.sock", "Redis does not answer"),
    ],
)
def test_a_redis_that_is_not_one_or_does_not_answer_is_refused_in_one_line(tmp_path: Path, url: str, said: str) -> None:
    command = ["serve", "--redis", url, "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(free_port())]
    result = runner.invoke(app, command, env={"COLUMNS": "200"})
    assert result.exit_code != 0 and f"--redis {url}: {said}" in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("lease", ["0", "-1", "soon", "601"])
def test_a_lease_that_is_not_a_duration_is_refused(lease: str) -> None:
    result = runner.invoke(app, ["serve", "--lease-seconds", lease], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "--lease-seconds" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--advertise-url", "https://games.example.org/node/a"], "--advertise-url is for one of several processes"),
        (["--redis", "unix:///x.sock", "--advertise-url", "games.example.org"], "starts with http:// or https://"),
        (["--redis", "unix:///x.sock", "--advertise-url", "https://g.example.org/a?b=1"], "has no query"),
    ],
)
def test_an_advertised_address_that_is_not_one_is_refused_in_one_line(flags: list[str], said: str) -> None:
    result = runner.invoke(app, ["serve", *flags], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and said in result.output and "Traceback" not in result.output, result.output


def table_ids(served: Served) -> list[str]:
    """The ids of the tables the lobby of ``served`` lists."""
    return [t["id"] for t in httpx.get(f"{served.base}/api/tables", timeout=10).json()["tables"]]


def owner_of(redis_url: str, table_id: str) -> str | None:
    """The node id holding ``table_id``'s lease."""
    import redis

    with redis.Redis.from_url(redis_url, decode_responses=True) as client:
        owner = client.get(f"oakwood:table:{table_id}:owner")
    return None if owner is None else str(owner)


def stored_seed(db: str, game_id: int) -> int:
    """The seed the store keeps for ``game_id``."""
    with open_store(db) as store:
        return int(store.get_game(game_id).seed)


def play_both(a: ClientConnection, a_update: dict[str, Any], b: ClientConnection, b_update: dict[str, Any]) -> None:
    """Two people at two processes play their first legal moves until the game is over (each reading its own
    socket; whoever must act does)."""
    updates = {0: a_update, 1: b_update}
    sockets = {0: a, 1: b}
    while not (updates[0]["observation"]["terminal"] and updates[1]["observation"]["terminal"]):
        moved = False
        for who in (0, 1):
            update = updates[who]
            if update["legal"] and not update["observation"]["terminal"]:
                act(sockets[who], update)
                moved = True
                updates[who] = next_update(sockets[who])
        if not moved:  # nobody can act on what they saw: the other's update is on its way
            for who in (0, 1):
                if updates[who]["seq"] < max(u["seq"] for u in updates.values()):
                    updates[who] = next_update(sockets[who])
                    break
            else:
                updates[0] = next_update(sockets[0])
    assert updates[0]["seq"] == updates[1]["seq"]
    assert updates[0]["table"]["status"] == "finished"


def test_two_processes_serve_one_table_with_a_player_on_each(tmp_path: Path, redis_server: RedisServer) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    one, two = nodes(tmp_path, redis_server.url, db, ["one", "two"])
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "human"], "name": "Ann"}
        created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
        table_id = created["table"]["id"]
        # the lobby of either process lists it; the second person joins at the other process
        assert table_ids(one) == [table_id] and table_ids(two) == [table_id]
        joined = httpx.post(f"{two.base}/api/tables/{table_id}/join", json={"name": "Bob"}, timeout=10)
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1 and joined.json()["table"]["status"] == "paused"  # full, nobody connected yet
        seen = httpx.get(f"{two.base}/api/tables/{table_id}", timeout=10).json()
        assert [seat["name"] for seat in seen["seats"]] == ["Ann", "Bob"]
        with (
            connect(ws_url(one, table_id)) as ann,
            connect(ws_url(two, table_id)) as bob,
            connect(ws_url(two, table_id)) as watcher,
        ):
            ann_first, bob_first = hello(ann, created["token"]), hello(bob, joined.json()["token"])
            spectator = hello(watcher, None)
            assert (ann_first["seat"], bob_first["seat"], spectator["seat"]) == (0, 1, None)
            # each update is the owner's view of that one seat: Bob, relayed, sees his own hand and nothing of
            # Ann's; the relayed spectator sees no hand at all
            game = load("barrell")
            truth = game.new_state(2, stored_seed(db, created["table"]["game_id"]))
            assert bob_first["observation"] == truth.observe(1) and ann_first["observation"] == truth.observe(0)
            assert bob_first["observation"]["hand"] != ann_first["observation"]["hand"]
            assert spectator["observation"]["hand"] is None
            play_both(ann, ann_first, bob, bob_first)
            last = next_update(watcher)
            while not last["observation"]["terminal"]:
                last = next_update(watcher)
            assert last["seat"] is None and last["legal"] == []
        # the game is stored once, finished, and the lobby of both processes moved it to the history
        with open_store(db) as store:
            stored = store.get_game(created["table"]["game_id"])
            assert stored.finished
        for served in (one, two):
            lobby = httpx.get(f"{served.base}/api/tables", timeout=10).json()
            assert lobby["tables"] == [] and lobby["history"][0]["id"] == table_id
    finally:
        stop_all([one, two])


def position_after(db: str, game_id: int, moves: int, seat: int) -> dict[str, Any]:
    """What ``seat`` saw of stored game ``game_id`` after its first ``moves`` moves."""
    with open_store(db) as store:
        stored = store.get_game(game_id)
    game = load(stored.game, **stored.options)
    state = game.new_state(stored.players, int(stored.seed))
    for who, index in stored.actions[:moves]:
        state.apply(who, game.decode(index))
    observed: dict[str, Any] = state.observe(seat)
    return observed


def play(ws: ClientConnection, update: dict[str, Any], moves: int | None) -> dict[str, Any]:
    """Play the first legal move ``moves`` times (None: to the end); the last update, whose moves were all
    acknowledged (an update comes only after the owner stored the move)."""
    played = 0
    while not update["observation"]["terminal"] and (moves is None or played < moves):
        if update["legal"]:
            act(ws, update)
            played += 1
        update = next_update(ws)
    return update


def test_a_killed_owner_s_table_is_taken_over_and_nothing_acknowledged_is_lost(
    tmp_path: Path, redis_server: RedisServer, postgres_cluster: postgres.Cluster
) -> None:
    db = fresh_postgres_database(postgres_cluster)  # the store of a real deployment of several processes
    one, two, three = nodes(tmp_path, redis_server.url, db, ["one", "two", "three"])
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
        created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
        table_id, game_id, token = created["table"]["id"], created["table"]["game_id"], created["token"]
        with connect(ws_url(two, table_id)) as ann, connect(ws_url(one, table_id)) as watcher:
            before = play(ann, hello(ann, token), moves=6)  # Ann at process two, relayed to the owner, one
            hello(watcher, None)  # a spectator at the owner itself
            killed_owner = owner_of(redis_server.url, table_id)
            assert killed_owner is not None
            assert not before["observation"]["terminal"]
            killed = time.monotonic()
            one.process.send_signal(signal.SIGKILL)
            one.process.wait(10)
            # the relay hangs Ann up once the table has moved; the spectator lost its process
            assert closed_with(ann) == 4010
            assert closed_with(watcher) is not None
        # Ann reconnects as a browser does (to any process, again while the table is still moving), the spectator
        # to another one
        with (
            seat_socket_after_move(two, table_id, token) as (ann, again),
            seat_socket_after_move(three, table_id, None) as (_, watched),
        ):
            resumed = time.monotonic() - killed
            assert again["seat"] == 0 and again["seq"] >= before["seq"]
            if again["seq"] == before["seq"]:
                assert again["observation"] == before["observation"]  # exactly where Ann left it
            assert watched["seat"] is None and watched["observation"]["hand"] is None
            # read while the game goes on: a finished table needs no owner, and its lease may lapse unrenewed
            new_owner = owner_of(redis_server.url, table_id)
            assert new_owner is not None and new_owner != killed_owner
            last = play(ann, again, moves=None)  # the bot, at its new owner, plays on to the end
        assert last["table"]["status"] == "finished"
        # every move acknowledged before the kill is in the store, in order, as Ann saw it
        assert position_after(db, game_id, before["seq"], 0) == before["observation"]
        with open_store(db) as store:
            stored = store.get_game(game_id)
        assert stored.finished and stored.replay().play().observe(0) == last["observation"]
        print(f"SIGKILL to the table resumed at another process: {resumed:.2f} s")
    finally:
        stop_all([one, two, three])


def seat_summary(served: Served, table_id: str, seat: int) -> dict[str, Any]:
    """Seat ``seat`` as the lobby summary of ``table_id`` at ``served`` shows it."""
    summary: dict[str, Any] = httpx.get(f"{served.base}/api/tables/{table_id}", timeout=10).json()
    return dict(summary["seats"][seat])


def wait_for(check: Any, what: str, seconds: float = 30) -> None:
    """Poll ``check()`` until it is true (a condition reached through other processes); fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)


def test_a_killed_relay_s_player_counts_as_gone_and_a_bot_covers_the_seat(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    one, two = nodes(tmp_path, redis_server.url, db, ["one", "two"], "--absent-seconds", "1")
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
        created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
        table_id = created["table"]["id"]
        with connect(ws_url(two, table_id)) as ws:  # Ann, relayed by two to the owner, one
            play(ws, hello(ws, created["token"]), moves=2)
            wait_for(lambda: seat_summary(one, table_id, 0)["connected"], "Ann shown connected")
            two.process.send_signal(signal.SIGKILL)  # the relay dies without a goodbye
            two.process.wait(10)
        # the owner notices the relay is gone: Ann is away, and after the absence clock her bot plays on
        wait_for(lambda: seat_summary(one, table_id, 0)["covered"], "a bot covering Ann's seat")
        assert not seat_summary(one, table_id, 0)["connected"]
        with connect(ws_url(one, table_id)) as again:
            update = hello(again, created["token"])
            assert update["seat"] == 0 and not update["table"]["seats"][0]["covered"]  # back: her bot stops
            last = play(again, update, moves=None)
        assert last["table"]["status"] == "finished"
    finally:
        stop_all([one, two])


def test_redis_restarted_mid_game_the_service_recovers_and_nothing_acknowledged_is_lost(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    one, two = nodes(tmp_path, redis_server.url, db, ["one", "two"])
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
        created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
        table_id, game_id, token = created["table"]["id"], created["table"]["game_id"], created["token"]
        with connect(ws_url(two, table_id)) as ann:
            before = play(ann, hello(ann, token), moves=4)
            redis_server.stop()  # SIGKILL: Redis forgets everything (nothing is saved)
            time.sleep(1.5)  # longer than the lease: no process may trust its hold on the table now
            health = httpx.get(f"{two.base}/healthz", timeout=10)
            assert health.status_code == 503 and health.json()["error"] == "Redis does not answer"
            lobby = httpx.get(f"{two.base}/api/tables", timeout=10)
            assert lobby.status_code == 503 and lobby.json()["error"]["code"] == "unavailable"
            restarted = start_redis(redis_server.socket.parent)
            redis_server.process = restarted.process
            assert closed_with(ann) == 4010  # the relayed socket may have missed frames: it reconnects
        deadline = time.monotonic() + 30
        while True:  # as a browser does: reconnect until the table answers
            try:
                with connect(ws_url(two, table_id)) as ann:
                    again = hello(ann, token)
                    assert again["seq"] >= before["seq"]
                    if again["seq"] == before["seq"]:
                        assert again["observation"] == before["observation"]
                    last = play(ann, again, moves=None)
                    break
            except (AssertionError, ConnectionClosed):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert last["table"]["status"] == "finished"
        assert position_after(db, game_id, before["seq"], 0) == before["observation"]
        assert httpx.get(f"{one.base}/healthz", timeout=10).status_code == 200
    finally:
        stop_all([one, two])


def until(ws: ClientConnection, done: Any) -> dict[str, Any]:
    """Read updates on ``ws`` until one satisfies ``done``."""
    while True:
        update = next_update(ws)
        if done(update):
            return update


def steps_to(decision: Decision, options: dict[str, Any], seed: int) -> int:
    """How many first-legal moves lead a 3-player S'Quarrels deal to its first ``decision`` (the engine alone)."""
    state = load("squarrels", **options).new_state(3, seed)
    for step in range(500):
        if state.decision is decision:
            return step
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    raise AssertionError(f"no {decision} in this deal")


def squarrels_table(
    one: Served, two: Served, options: dict[str, Any], seed: int
) -> tuple[str, list[str], list[Served]]:
    """Three people at a S'Quarrels table created at ``one``: Ann there, the two others joining at ``two``
    (and playing through it, relayed). The id, the tokens, and where each seat connects."""
    body = {"game": "squarrels", "players": 3, "seats": ["human"] * 3, "name": "P1", "options": options, "seed": seed}
    created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
    table_id, tokens = created["table"]["id"], [created["token"]]
    for n in (2, 3):
        joined = httpx.post(f"{two.base}/api/tables/{table_id}/join", json={"name": f"P{n}"}, timeout=10)
        tokens.append(joined.json()["token"])
    return table_id, tokens, [one, two, two]


def to_decision(sockets: list[ClientConnection], latest: list[dict[str, Any]], moves: int) -> None:
    """Play ``moves`` first-legal moves, each by the first seat that may act, reading every socket up."""
    for _ in range(moves):
        seq = latest[0]["seq"]
        seat = next(s for s, update in enumerate(latest) if update["legal"])
        time.sleep(0.05)
        sockets[seat].send(json.dumps({"type": "act", "seq": seq, "action": latest[seat]["legal"][0]["index"]}))
        for s, ws in enumerate(sockets):
            latest[s] = until(ws, lambda u, seq=seq: u["seq"] == seq + 1)


def all_connected(sockets: list[ClientConnection], latest: list[dict[str, Any]]) -> None:
    """Read each socket up to the update that shows every player connected."""
    for s, ws in enumerate(sockets):
        if not all(seat["connected"] for seat in latest[s]["table"]["seats"]):
            latest[s] = until(ws, lambda u: all(seat["connected"] for seat in u["table"]["seats"]))


def test_a_race_and_a_commit_across_processes_resolve_exactly_once(tmp_path: Path, redis_server: RedisServer) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    one, two = nodes(tmp_path, redis_server.url, db, ["one", "two"])
    try:
        # the Hoard race: seats 0 (at the owner) and 1 (relayed) slap for the same pile at once
        options = {"single_round": True, "hoard_race": "realtime", "hoard_race_window_s": 30.0}
        table_id, tokens, where = squarrels_table(one, two, options, seed=0)
        with ExitStack() as stack:
            sockets = [stack.enter_context(connect(ws_url(at, table_id))) for at in where]
            latest = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
            all_connected(sockets, latest)
            to_decision(sockets, latest, steps_to(Decision.RACE, options, 0))
            assert latest[0]["observation"]["decision"] == "race"
            seq = latest[0]["seq"]
            for seat in (1, 0):
                slap = next(m["index"] for m in latest[seat]["legal"] if m["notation"] == "slap")
                sockets[seat].send(json.dumps({"type": "act", "seq": seq, "action": slap}))
            won = until(sockets[2], lambda u: u["seq"] == seq + 1)
            grabs = [e for e in won["events"] if e["kind"] == "hoard_won"]
            assert len(grabs) == 1 and grabs[0]["seat"] in (0, 1)
            loser = 1 - grabs[0]["seat"]
            late = receive(sockets[loser])
            while late["type"] == "update":  # the loser's slap came too late: refused
                late = receive(sockets[loser])
            assert late["code"] in ("stale", "not_your_turn")
            time.sleep(1.0)  # let anything else the race might wrongly bring reach the store
        with open_store(db) as store:
            stored = next(g for g in store.web_tables() if g.id == table_id)
            actions = store.get_game(stored.game_id).actions
        assert len(actions) == seq + 1  # the race resolved once: one slap stored, the other refused

        # a Quarrel: two seats, at two processes, commit to the same question; both answers count
        table_id, tokens, where = squarrels_table(one, two, {"single_round": True}, seed=2)
        with ExitStack() as stack:
            sockets = [stack.enter_context(connect(ws_url(at, table_id))) for at in where]
            latest = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
            all_connected(sockets, latest)
            to_decision(sockets, latest, steps_to(Decision.COMMIT, {"single_round": True}, 2))
            choosing = [s for s, update in enumerate(latest) if update["legal"]]
            assert len(choosing) >= 2 and {0, 1} & set(choosing) and set(choosing) - {0}
            seq = latest[0]["seq"]
            for seat in choosing:
                time.sleep(0.05)
                sockets[seat].send(json.dumps({"type": "act", "seq": seq, "action": latest[seat]["legal"][0]["index"]}))
            after = until(sockets[0], lambda u: u["seq"] == seq + len(choosing))
            quarrel = after["observation"]["quarrel"]
            assert not quarrel or set(choosing) <= set(quarrel["committed"]), "every answer was taken, once"
        with open_store(db) as store:
            stored = next(g for g in store.web_tables() if g.id == table_id)
            answered = [seat for seat, _ in store.get_game(stored.game_id).actions[seq : seq + len(choosing)]]
        assert sorted(answered) == sorted(choosing)
    finally:
        stop_all([one, two])


def test_a_node_whose_redis_is_gone_still_stops_cleanly_on_sigterm(tmp_path: Path, redis_server: RedisServer) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    (one,) = nodes(tmp_path, redis_server.url, db, ["one"])
    body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
    created = httpx.post(f"{one.base}/api/tables", json=body, timeout=10).json()
    with connect(ws_url(one, created["table"]["id"])) as ann:
        hello(ann, created["token"])
        redis_server.stop()
        time.sleep(1.5)  # the heartbeat and the listener have met the missing Redis
        assert one.stop() == 0  # within Served.stop's 15 s, with a connection still open
    assert "Traceback" not in one.output()
