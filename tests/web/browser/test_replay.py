"""The replay page of a finished game: step forward and back with the buttons and the arrow keys, from one
seat's view or the public one, drawn by the game's own module."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from .helpers import create_table, open_seat, play_to_end, update


def test_replay_steps_and_seat_picker(page: Page, live_server: str, screens: Path) -> None:
    made = create_table(live_server, "barrell", ["human", "medium"], name="Ann")
    open_seat(page, live_server, made["table"]["id"], made["token"])
    play_to_end([page])
    game_id = update(page)["table"]["game_id"]
    page.click("#game-over .replay-link")
    page.wait_for_url(f"**/replay/{game_id}")
    label = page.locator("#step-label")
    expect(label).to_contain_text("step 0 of")
    expect(page.locator("#prev")).to_be_disabled()
    page.click("#next")
    expect(label).to_contain_text("step 1 of")
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("step 2 of")
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text("step 1 of")
    page.click("#last")
    expect(page.locator("#next")).to_be_disabled()
    # the seats are named as at the table, in the picker and in the log
    picker = [o.strip() for o in page.locator("#seat option").all_inner_texts()]
    assert "Ann" in picker and "Bot 2 (medium)" in picker and not any("(human)" in o for o in picker), picker
    assert not any(text.startswith(("P1 ", "P2 ")) for text in page.locator("#log li").all_inner_texts())
    # the public view has no hand; seat 1's view has its hand
    expect(page.locator("#game .hand")).to_have_count(0)
    page.select_option("#seat", "0")
    page.click("#first")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#game .hand .card").first).to_be_visible()
    assert page.locator("#game .card.playable").count() == 0  # nothing can be played in a replay
    assert page.locator("#log li").count() > 0
    page.screenshot(path=str(screens / "barrell-replay.png"))
