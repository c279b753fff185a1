"""A person plays a whole game of S'Quarrels and of Barrell against medium bots, by clicking only."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from .helpers import create_from_lobby, is_over, play_one, update


def screenshot_phone(page: Page, path: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": 1366, "height": 768})


def play_with_screenshots(page: Page, screens: Path, game: str, after: int, limit: int = 1500) -> int:
    """Play by clicking to the end of the game; after ``after`` clicks, with a few cards in hand, take the
    desktop and phone screenshots of the game. The number of clicks."""
    shot = False
    clicks = 0
    while not is_over(page):
        if play_one(page):
            clicks += 1
        else:
            page.wait_for_timeout(50)
        if not shot and clicks >= after and page.locator("#game .hand .card").count() >= 4:
            page.wait_for_timeout(1800)  # let the highlights fade
            page.screenshot(path=str(screens / f"{game}.png"))
            screenshot_phone(page, screens / f"{game}-phone.png")
            shot = True
        assert clicks < limit, "the game did not end"
    return clicks


def test_a_whole_squarrels_game_by_clicking(page: Page, live_server: str, screens: Path) -> None:
    # A random deal: the bot before you may draw Winter first and end the round before your first turn (it
    # happened in CI); then you start another table from the lobby, as a person would.
    for _ in range(3):
        create_from_lobby(page, live_server, "squarrels", 3, options={"single_round": True})
        expect(page.locator("#seats .seat")).to_have_count(3)
        clicks = play_with_screenshots(page, screens, "squarrels", after=12)
        if clicks >= 1:
            break
    assert clicks >= 1, "three deals in a row ended before your first turn"
    final = update(page)
    assert final["observation"]["terminal"]
    expect(page.locator("#game-over")).to_be_visible()
    expect(page.locator("#game-over .replay-link")).to_have_attribute("href", f"/replay/{final['table']['game_id']}")
    page.screenshot(path=str(screens / "squarrels-over.png"))


def test_a_whole_barrell_game_by_clicking(page: Page, live_server: str, screens: Path) -> None:
    create_from_lobby(page, live_server, "barrell", 3)
    expect(page.locator("#seats .seat")).to_have_count(3)
    clicks = play_with_screenshots(page, screens, "barrell", after=4)
    final = update(page)
    assert final["observation"]["terminal"]
    expect(page.locator("#game-over")).to_be_visible()
    page.screenshot(path=str(screens / "barrell-over.png"))
    assert clicks >= 2  # at least the mulligan and one battle's play
