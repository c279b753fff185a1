"""Fuzzing what a browser may send: any bytes, any JSON, are either one of the protocol's messages or a
clear refusal — never another exception — and a table refuses every bad move without changing."""

from __future__ import annotations

import json
import tempfile
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from oakwood.engine import load
from oakwood.store import LiveGame, open_store
from oakwood.web.protocol import Act, Back, Hello, Ping, ProtocolError, Undo, decode
from oakwood.web.table import Seat, Table, TableError

#: stands for "the seat's first legal move", so the fuzzer also plays games forward
FIRST_LEGAL = -100

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "undo", "back", "ping", "chat", ""])},
    optional={"token": JSON, "seq": JSON, "action": JSON, "extra": JSON},
)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_any_frame_is_a_message_or_a_refusal(frame: bytes | str) -> None:
    try:
        message = decode(frame)
    except ProtocolError as exc:
        assert exc.code in ("malformed", "too_large") and exc.message
    else:
        assert isinstance(message, Hello | Act | Undo | Back | Ping)


@settings(max_examples=400, deadline=None)
@given(MESSAGES)
def test_any_json_object_is_a_message_or_a_refusal(fields: dict[str, Any]) -> None:
    try:
        message = decode(json.dumps(fields))
    except ProtocolError as exc:
        assert exc.code == "malformed"
    else:
        assert isinstance(message, Hello | Act | Undo | Back | Ping)
        if isinstance(message, Act):
            assert type(message.seq) is int and type(message.action) is int


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["squarrels", "barrell", "nutty"]),
    st.lists(st.tuples(st.integers(-2, 5), st.integers(-3, 700)), max_size=30),
)
def test_a_table_applies_legal_moves_and_refuses_the_rest_unchanged(game: str, moves: list[tuple[int, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder, open_store(f"sqlite:///{folder}/fuzz.db") as store:
        state = load(game).new_state(2, 7)
        table = Table(
            id="fuzz",
            game=state.game,
            state=state,
            seats=[Seat(kind="human", name="A", token_hash="a"), Seat(kind="human", name="B", token_hash="b")],
            live=LiveGame.start(store, state, ["human", "human"], source="web"),
        )
        for seat, wanted in moves:
            index = wanted
            if wanted == FIRST_LEGAL and seat in table.to_act():
                index = table.game.encode(table.state.legal_actions(seat)[0])
            before, seq = table.state.to_notation(), table.seq
            legal = (
                0 <= seat < 2
                and seat in table.to_act()
                and 0 <= index < table.game.num_actions
                and table.game.decode(index) in table.state.legal_actions(seat)
            )
            try:
                table.act(seat, seq, index)
            except TableError as exc:
                assert not legal and exc.code in ("illegal", "not_your_turn", "game_over") and exc.message
                assert table.state.to_notation() == before and table.seq == seq
            else:
                assert legal and table.seq == seq + 1
        stored = store.get_game(table.live.id)
        assert [pair for pair in stored.actions] == [
            (s, table.game.encode(a)) for s, a in table.state.history
        ]  # what is stored is exactly what was applied
