"""A spectator sees only what is public: every WebSocket frame it receives and its page hold no hand, no face-down
card and no private event detail, while a player at the same table plays on. A display name with markup shows
as text."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket, expect

from .helpers import create_table, is_over, open_seat, play_one, seq, update


def record(page: Page) -> list[dict[str, Any]]:
    """Every frame the page's WebSockets receive, decoded."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


#: A log line that names a card only its player may see: the card in brackets after the move.
PRIVATE = re.compile(
    r"(face down|picked a Quarrel card|steals a card|plays a card face down|aside for the mulligan) ?\("
)


def private_events(player: Page) -> dict[int, str]:
    """The player's log lines that name a card only the player may see: "(5)" after a face-down discard, a
    Quarrel pick or a stolen card."""
    log: list[dict[str, Any]] = player.evaluate("() => window.oakwood.log")
    return {int(e["index"]): str(e["text"]) for e in log if PRIVATE.search(str(e["text"]))}


def check_squarrels_frame(frame: dict[str, Any]) -> None:
    obs = frame["observation"]
    assert frame["seat"] is None and frame["legal"] == [] and frame["can_undo"] is False
    assert obs["hand"] is None and obs["hoard_pile_yours"] is None and obs["your_round_score"] is None
    if obs["quarrel"]:
        assert obs["quarrel"]["your_play"] is None
    if obs["race"]:
        assert obs["race"]["your_answer"] is None


def check_barrell_frame(frame: dict[str, Any]) -> None:
    obs = frame["observation"]
    assert frame["seat"] is None and frame["legal"] == []
    assert obs["hand"] is None and obs["aside"] is None
    assert "my_gift" not in obs and "my_gifts" not in obs
    for field in obs["fields"]:
        for slot in field:
            assert slot["face_up"] or slot["card"] is None, f"a face-down card shown to a spectator: {slot}"


def watch_a_game(browser: Browser, live_server: str, game: str, moves: int, **options: Any) -> None:
    """Watch tables until one lets the player make a private move before it ends (a random deal can end a
    S'Quarrels round with Winter first), checking every frame the spectator receives at each."""
    for _ in range(3):
        if watch_a_table(browser, live_server, game, moves, **options):
            return
    raise AssertionError("three tables ended before the player made a move only the player may see")


def watch_a_table(browser: Browser, live_server: str, game: str, moves: int, **options: Any) -> bool:
    """One table: whether the player made a private move (then checked against what the spectator got)."""
    made = create_table(live_server, game, ["human", "medium", "medium"], name="Ann", **options)
    table = made["table"]["id"]
    player = browser.new_context().new_page()
    spectator = browser.new_context().new_page()
    frames = record(spectator)
    open_seat(player, live_server, table, made["token"])
    open_seat(spectator, live_server, table, None)
    expect(spectator.locator("#status")).to_contain_text("watching")
    # Play until the table has made ``moves`` moves (the player's and the bots') and the player one that only it
    # may see: counted by the position's seq, not by clicks, since a click may only select a card or come too
    # late on a loaded machine.
    deadline = time.monotonic() + 120
    while (seq(player) < moves or not private_events(player)) and not is_over(player):
        assert time.monotonic() < deadline, f"the table made {seq(player)} of {moves} moves in time"
        if not play_one(player):
            player.wait_for_timeout(50)
    reached = seq(player)
    spectator.wait_for_function(f"() => window.oakwood.update && window.oakwood.update.seq >= {reached}")
    updates = [f for f in frames if f.get("type") == "update"]
    assert len(updates) > 1 and max(f["seq"] for f in updates) >= reached  # the spectator followed every move
    check = check_squarrels_frame if game == "squarrels" else check_barrell_frame
    for frame in updates:
        check(frame)
    # the page: no hand, no move buttons, and none of the player's hand cards drawn face up as a hand
    expect(spectator.locator("#game .hand")).to_have_count(0)
    expect(spectator.locator("#moves button")).to_have_count(0)
    assert update(spectator)["seat"] is None
    # the player's private log lines never reach the spectator with their card
    secret = private_events(player)
    seen = {int(e["index"]): str(e["text"]) for f in updates for e in f["events"]}
    for index, text in secret.items():
        if index in seen:
            assert seen[index] != text and not PRIVATE.search(seen[index]), (text, seen[index])
    return bool(secret)


def test_a_spectator_of_squarrels_sees_nothing_hidden(browser: Browser, live_server: str) -> None:
    watch_a_game(browser, live_server, "squarrels", 40, single_round=True)


def test_a_spectator_of_barrell_sees_nothing_hidden(browser: Browser, live_server: str) -> None:
    watch_a_game(browser, live_server, "barrell", 25)


def test_a_display_name_with_markup_shows_as_text(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.fill("#name", "<b>x</b>")
    page.select_option("#game", "barrell")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.oakwood && window.oakwood.update !== null")
    table = update(page)["table"]["id"]
    name = page.locator("#seats .seat-name").first
    expect(name).to_have_text("<b>x</b>")
    assert page.locator("#seats b, #game b").count() == 0
    expect(page.locator("#game .zone.you .who")).to_contain_text("<b>x</b>")
    page.goto(f"{live_server}/")
    expect(page.locator(f"#tables li[data-table='{table}'] .who")).to_contain_text("<b>x</b>")
    assert page.locator("#tables b").count() == 0
