"""Every game as a new player meets it: created from the lobby by clicking, with every option at its default, and
played; the deck composition edited as counts; a round's summary that waits for the player; a game the player
left, abandoned from the lobby; and the lobby's record of the games that ended."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from playwright.sync_api import Page, Request, expect

from .conftest import SCREENS
from .helpers import create_from_lobby, dismiss_summary, is_over, play_a_move, play_one, seq, update
from .nutty_conftest_helpers import choose, click_action


def created_bodies(page: Page) -> list[dict[str, Any]]:
    """The bodies of the ``POST /api/tables`` the page sends from now on (what the lobby form asked for)."""
    bodies: list[dict[str, Any]] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/api/tables"):
            bodies.append(json.loads(request.post_data or "{}"))

    page.on("request", seen)
    return bodies


def defaults(base: str, game: str) -> dict[str, Any]:
    """Every option of ``game`` with its default value, from the catalog the lobby reads."""
    catalog = httpx.get(f"{base}/api/catalog", timeout=10).json()
    options = next(g for g in catalog["games"] if g["name"] == game)["options"]
    return {o["name"]: o["default"] for o in options}


def my_move_by_clicking(page: Page, timeout: float = 60.0) -> None:
    """Wait for the player's turn, then play one move by clicking the board as a person does (Nutty: the thing the
    move acts on; the card games: a card, a target or a button), and wait for the server to take it."""
    end = time.monotonic() + timeout
    while True:
        assert time.monotonic() < end, "the player was never asked to move"
        assert not is_over(page), "the game ended before the player moved"
        dismiss_summary(page)
        current = update(page)
        if current["legal"] and current["table"]["status"] == "playing":
            break
        page.wait_for_timeout(50)
    if current["table"]["game"] == "nutty":
        before = seq(page)
        click_action(page, choose(current), current)
        page.wait_for_function("(s) => window.oakwood.update.seq > s", arg=before)
    else:
        play_a_move(page)
    expect(page.locator("#banner")).to_be_hidden()


CASES = [
    ("squarrels", 3),
    ("barrell", 2),
    ("nutty", 2),
    ("nutty", 1),
    ("squarrels", 6),
    ("barrell", 4),
    ("nutty", 6),
]


def test_every_game_is_created_from_the_lobby_with_its_defaults_and_played(page: Page, live_server: str) -> None:
    bodies = created_bodies(page)
    for game, players in CASES:
        create_from_lobby(page, live_server, game, players)
        assert bodies[-1]["options"] == {}, (game, players, bodies[-1])  # an option left alone is not sent
        table = update(page)["table"]
        assert (table["game"], table["players"]) == (game, players)
        assert table["options"] == defaults(live_server, game), (game, players)
        names = [seat["name"] for seat in table["seats"]]
        assert names[0] == "Ann" and all(seat["level"] == "medium" for seat in table["seats"][1:]), names
        my_move_by_clicking(page)
    assert len(bodies) == len(CASES)


def test_the_deck_composition_is_chosen_by_name_or_edited_as_counts(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.wait_for_function("() => window.oakwoodLobby && window.oakwoodLobby.ready")
    page.select_option("#game", "nutty")
    page.click("#create details summary")
    deck = page.locator("#option-deck_composition")
    expect(deck).to_be_visible()
    assert deck.evaluate("(s) => s.tagName") == "SELECT"  # a named deck, not an empty text box
    expect(deck).to_have_value("proposed_v1")
    deck.select_option("")  # custom counts…
    owls = page.locator("#option-deck_composition-OW")
    expect(owls).to_be_visible()
    owls.fill(str(int(owls.input_value()) + 1))
    expect(page.locator(".counts-total")).to_contain_text("55 cards")
    bodies = created_bodies(page)
    page.fill("#name", "Ann")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.oakwood && window.oakwood.update")
    sent = json.loads(bodies[0]["options"]["deck_composition"])
    assert sent["OW"] == 2 and sum(sent.values()) == 55
    assert json.loads(update(page)["table"]["options"]["deck_composition"])["OW"] == 2


def test_barrells_deck_is_edited_one_card_at_a_time(page: Page, live_server: str) -> None:
    """BR-24: the same editor for another game's deck; a Barrell card is unique, so each box holds 0 or 1."""
    page.goto(f"{live_server}/")
    page.wait_for_function("() => window.oakwoodLobby && window.oakwoodLobby.ready")
    page.select_option("#game", "barrell")
    page.click("#create details summary")
    expect(page.locator("#option-deck_composition")).to_have_value("standard")
    page.locator("#option-deck_composition").select_option("")
    for joker in ("RJ", "BJ"):
        box = page.locator(f"#option-deck_composition-{joker}")
        assert box.get_attribute("max") == "1"
        box.fill("0")
    expect(page.locator(".counts-total")).to_contain_text("52 cards")
    bodies = created_bodies(page)
    page.fill("#name", "Ann")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.oakwood && window.oakwood.update")
    sent = json.loads(bodies[0]["options"]["deck_composition"])
    assert len(sent) == 54 and sent["RJ"] == sent["BJ"] == 0 and sum(sent.values()) == 52
    kept = json.loads(update(page)["table"]["options"]["deck_composition"])
    assert len(kept) == 52 and "RJ" not in kept  # the canonical text lists the cards the deck holds


def test_a_bad_deck_is_refused_in_one_line_and_nothing_is_created(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.wait_for_function("() => window.oakwoodLobby && window.oakwoodLobby.ready")
    page.fill("#name", "Ann")
    page.select_option("#game", "nutty")
    page.click("#create details summary")
    page.locator("#option-deck_composition").select_option("")
    counts = page.locator(".counts input")
    for i in range(counts.count()):  # an empty deck: every count 0 (each box accepts it; the deck does not)
        counts.nth(i).fill("0")
    expect(page.locator(".counts-total")).to_have_class("help counts-total bad")
    before = len(httpx.get(f"{live_server}/api/tables", timeout=10).json()["tables"])
    page.click("#create button[type=submit]")
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner .msg")).to_contain_text("deck_composition")
    assert page.url.rstrip("/") == live_server
    assert len(httpx.get(f"{live_server}/api/tables", timeout=10).json()["tables"]) == before


def test_a_battle_summary_shows_the_revealed_fields_and_waits_for_the_player(page: Page, live_server: str) -> None:
    dialog = page.locator("#summary-dialog")
    for _ in range(3):  # a deal whose first battle ends the game is legal (below): the person starts another table
        create_from_lobby(page, live_server, "barrell", 2)
        end = time.monotonic() + 120
        while not dialog.evaluate("(d) => d.open") and not is_over(page):
            assert time.monotonic() < end, "no battle ended"
            if not play_one(page, close_summary=False):  # the summary under test is not to be closed unseen
                page.wait_for_timeout(50)
        if not dialog.evaluate("(d) => d.open"):  # the first battle ended the game: the game-over panel took it
            page.goto(f"{live_server}/")
            continue
        expect(dialog.locator("h3")).to_contain_text("Battle 1 is over")
        rows = dialog.locator("tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Ann")
        assert dialog.locator(".summary-cards .card").count() >= 1  # the fields as revealed, drawn as cards
        page.wait_for_timeout(3000)  # the next battle may begin behind it: the summary stays until it is closed
        if dialog.evaluate("(d) => d.open"):
            break
        # Closed only by the game's end, which can come behind the summary: a player left with no cards watches
        # the bot win the next battle alone, or nobody holds a card (BR-15). The game-over panel then shows the
        # last summary beside the final scores.
        assert is_over(page), "the summary closed while the game went on"
        page.goto(f"{live_server}/")
    assert dialog.evaluate("(d) => d.open"), "three deals in a row ended the game at the first battle"
    page.screenshot(path=str(SCREENS / "barrell-summary.png"))
    expect(page.locator("#seats .seat .score-label").first).to_have_text("battles won")
    page.click("#summary-close")
    assert not dialog.evaluate("(d) => d.open")
    page.reload()
    page.wait_for_function("() => window.oakwood && window.oakwood.update")
    page.wait_for_timeout(500)
    assert not dialog.evaluate("(d) => d.open"), "a summary the player closed does not come back on a reload"


def test_a_paused_game_is_abandoned_from_the_lobby_and_recorded(page: Page, live_server: str) -> None:
    table = create_from_lobby(page, live_server, "barrell", 2)
    my_move_by_clicking(page)
    page.goto(f"{live_server}/")  # Ann leaves: nobody is at the table, so it waits for her
    row = page.locator(f"#tables li[data-table='{table}']")
    expect(row.locator(".badge")).to_have_text("paused", timeout=10_000)
    page.once("dialog", lambda d: d.accept())
    row.locator("button.abandon").click()
    expect(row).to_have_count(0, timeout=10_000)
    ended = page.locator("#history li.abandoned").first
    expect(ended).to_contain_text("abandoned by Ann")
    expect(ended.locator("a.replay")).to_have_attribute("href", f"/replay/{update_game_id(live_server, table)}")


def update_game_id(base: str, table: str) -> int:
    """The stored game of a table that ended, from the lobby's history."""
    history = httpx.get(f"{base}/api/tables", timeout=10).json()["history"]
    return int(next(g["game_id"] for g in history if g["id"] == table))


def test_the_history_tells_when_who_won_and_the_scores(page: Page, live_server: str) -> None:
    table = create_from_lobby(page, live_server, "squarrels", 3, options={"single_round": True})
    end = time.monotonic() + 180
    while not is_over(page):
        assert time.monotonic() < end
        if not play_one(page):
            page.wait_for_timeout(50)
    final = update(page)
    page.goto(f"{live_server}/")
    row = page.locator(f"#history li[data-key='game-{final['table']['game_id']}']")
    expect(row).to_contain_text("S'Quarrels · 3 players")
    expect(row).to_contain_text("today at")
    winner = final["observation"]["winners"][0]
    name = "Ann" if winner == 0 else f"Bot {winner + 1} (medium)"  # as the seat strip names them
    expect(row.locator(".badge")).to_contain_text(name)
    expect(row).to_contain_text("total: Ann ")
    page.screenshot(path=str(SCREENS / "lobby.png"), full_page=True)
    assert table == final["table"]["id"]


def test_a_solo_move_that_ends_the_game_short_of_twenty_asks_first(page: Page, live_server: str) -> None:
    create_from_lobby(page, live_server, "nutty", 1)
    end_game = page.locator("#moves button", has_text="End game")
    expect(end_game).to_have_count(1)
    expect(end_game).to_contain_text("⚠")
    end_game.click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text("short of 20")
    page.click("#confirm-no")  # thinking again: nothing was sent
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(300)
    assert not is_over(page) and update(page)["seq"] == 0
    end_game.click()
    page.click("#confirm-yes")
    page.wait_for_function("() => window.oakwood.update.observation.terminal")
    expect(page.locator("#game-over .verdict")).to_have_text("0 points: 20 short of 20")
    page.screenshot(path=str(SCREENS / "nutty-solo-short.png"))


def test_a_hard_bot_chosen_in_the_lobby_plays_a_whole_game_from_its_worker(page: Page, live_server: str) -> None:
    # the searching levels think in the server's worker processes: chosen by a person, they play the game out
    table = create_from_lobby(page, live_server, "barrell", 2, seats={1: "hard"})
    end = time.monotonic() + 240
    while not is_over(page):
        assert time.monotonic() < end, "the game did not end"
        if not play_one(page):
            page.wait_for_timeout(50)
    final = update(page)
    assert final["table"]["status"] == "finished" and final["table"]["id"] == table
    assert final["table"]["seats"][1]["level"] == "hard"
    page.goto(f"{live_server}/")
    expect(page.locator(f"#history li[data-key='game-{final['table']['game_id']}']")).to_contain_text("Bot 2 (hard)")
