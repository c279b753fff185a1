"""The table page around the game: the rules dialog, the four-colour toggle, the hand as one Tab stop with the
arrow keys, moves announced in the live region, undo, and reconnecting by itself after a drop."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from .helpers import click_past_summary, create_table, open_seat, play_one, seq, update


def test_rules_four_colour_keyboard_and_live_region(page: Page, live_server: str) -> None:
    made = create_table(live_server, "barrell", ["human", "medium"], name="Ann")
    table = made["table"]["id"]
    open_seat(page, live_server, table, made["token"])
    page.click("#rules-button")
    expect(page.locator("#rules-dialog")).to_be_visible()
    expect(page.locator("#rules-body h2").first).to_contain_text("Barrell")
    assert page.locator("#rules-body li").count() > 5
    page.click("#rules-close")
    expect(page.locator("#rules-dialog")).to_be_hidden()

    page.check("#four-colour")
    assert page.evaluate("() => localStorage.getItem('oakwood-four-colour')") == "1"
    page.reload()
    expect(page.locator("body")).to_have_class("four-colour")
    expect(page.locator("#four-colour")).to_be_checked()

    page.wait_for_function("() => document.querySelectorAll('#game .hand .card').length >= 2")
    hand = page.locator("#game .hand .card")
    assert page.locator("#game .hand .card[tabindex='0']").count() == 1
    first = page.locator("#game .hand .card[tabindex='0']")
    first.focus()
    before = page.evaluate("() => document.activeElement.dataset.key")
    page.keyboard.press("ArrowRight")
    after = page.evaluate("() => document.activeElement.dataset.key")
    assert after != before and after.startswith("hand-")
    assert page.locator("#game .hand .card[tabindex='0']").count() == 1
    assert hand.count() >= 2
    # suits are symbols, never colour alone
    assert any(symbol in (page.text_content("#game .hand") or "") for symbol in "♠♥♦♣★")

    for _ in range(8):  # a few of our moves: the bot's moves are announced
        play_one(page)
    page.wait_for_function("() => document.getElementById('live').textContent.length > 0", timeout=20_000)


def test_undo_and_reconnect(browser: Browser, live_server: str) -> None:
    made = create_table(live_server, "barrell", ["human", "human"], name="Ann")
    table = made["table"]["id"]
    joined = httpx.post(f"{live_server}/api/tables/{table}/join", json={"name": "Bob"}, timeout=10).json()
    ann = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    open_seat(ann, live_server, table, made["token"])
    open_seat(bob, live_server, table, joined["token"])
    ann.wait_for_function("() => window.oakwood.update.table.status === 'playing'")
    # whoever is to act plays one move by clicking; they may take it back while nobody else has acted
    mover = None
    for _ in range(50):
        for page in (ann, bob):
            if update(page)["legal"]:
                mover = page
                break
        if mover is not None:
            break
        ann.wait_for_timeout(100)
    assert mover is not None
    legal_before = [a["index"] for a in update(mover)["legal"]]
    mover.locator("#moves button").first.click()
    expect(mover.locator("#undo")).to_be_visible()
    at = seq(mover)
    mover.click("#undo")
    mover.wait_for_function("(s) => window.oakwood.update.seq > s", arg=at)
    assert [a["index"] for a in update(mover)["legal"]] == legal_before
    expect(mover.locator("#undo")).to_be_hidden()

    # a dropped connection: the page says so and reconnects by itself
    ann.evaluate("() => window.oakwood.ws.close()")
    expect(ann.locator("#status")).to_have_text("reconnecting…")
    expect(ann.locator("#status")).to_contain_text("playing as Ann", timeout=15_000)
    expect(bob.locator("#seats .seat").nth(update(ann)["seat"]).locator(".dot")).to_have_class("dot online")


def test_an_illegal_message_shows_a_dismissible_banner(page: Page, live_server: str) -> None:
    made = create_table(live_server, "squarrels", ["human", "medium"], name="Ann")
    open_seat(page, live_server, made["table"]["id"], made["token"])
    page.evaluate("() => window.oakwood.ws.send(JSON.stringify({type: 'act', seq: -5, action: 0}))")
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner .msg")).to_contain_text("position changed")
    click_past_summary(page, "#banner-close")  # the bot may end the round before Ann moves (the Winter, SQ-15)
    expect(page.locator("#banner")).to_be_hidden()


def test_a_bot_covers_a_player_out_of_time_until_they_are_back(page: Page, live_server: str) -> None:
    body = {"game": "squarrels", "players": 2, "options": {}, "seats": ["human", "medium"], "name": "Ann"}
    made = httpx.post(f"{live_server}/api/tables", json={**body, "turn_seconds": 10}, timeout=10).json()
    open_seat(page, live_server, made["table"]["id"], made["token"])
    page.wait_for_function("() => window.oakwood.update.legal.length > 0", timeout=20_000)
    expect(page.locator("#countdown")).to_be_visible()
    notice = page.locator("#covered-notice")
    expect(notice).to_be_visible(timeout=20_000)  # the clock ran out: a bot plays for Ann
    expect(page.locator("#seats .seat.you .badge.covered")).to_have_text("bot playing")
    click_past_summary(page, "#back")  # the bot may have ended a round meanwhile: its summary waits for Ann
    expect(notice).to_be_hidden(timeout=10_000)
    expect(page.locator("#seats .seat.you .badge.covered")).to_have_count(0)
