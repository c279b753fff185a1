"""Legal move entries carry the game's warning (Nutty solo, NS-17l) for the client to confirm, or None."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import Update, create, hello, send, until

pytestmark = pytest.mark.timeout(120)


def by_notation(update: Update) -> dict[str, str | None]:
    """Each legal move's warning, by its notation (every entry has the key)."""
    return {entry["notation"]: entry["warning"] for entry in update["legal"]}


def test_a_solo_table_warns_before_end_game_and_not_before_an_ordinary_move(client: TestClient) -> None:
    answer = create(client, "nutty", ["human"], seed=0)
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        first = hello(ws, answer["token"])
        warnings = by_notation(first)
        assert warnings["end game"] == "This ends the game with 0 points, 20 short of 20."
        # The other moves step onto face-down cards: never warned from what they reveal.
        assert [text for move, text in warnings.items() if move != "end game"] == [None] * (len(warnings) - 1)
        step = next(entry for entry in first["legal"] if entry["notation"] == "move L1c1")
        send(ws, type="act", seq=first["seq"], action=step["index"])
        update = until(ws, lambda u: u["seq"] > first["seq"])
        # This deal's L1c1 is a leaf: gathering its brown (or stepping back to the trunk) is not warned.
        assert by_notation(update) == {
            "move trunk": None,
            "move L1c2": None,
            "gather brown": None,
            "end game": "This ends the game with 0 points, 20 short of 20.",
        }


@pytest.mark.parametrize(("game", "seats"), [("nutty", ["human", "medium"]), ("barrell", ["human", "medium", "easy"])])
def test_other_tables_carry_no_warning(client: TestClient, game: str, seats: list[str]) -> None:
    answer = create(client, game, seats, seed=3)
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        if not update["legal"]:  # the bots move first
            update = until(ws, lambda u: bool(u["legal"]))
        assert update["legal"] and all(entry["warning"] is None for entry in update["legal"])
