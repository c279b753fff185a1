"""The client passes the server's Content-Security-Policy: the lobby, a waiting table (with its invite link), a
table of every game with a few moves played, and a spectator's view load in Chromium with no violation — no
inline script or style, no request to another origin — and the WebSocket connects under ``connect-src 'self'``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page

from .helpers import create_table, is_over, open_seat, play_one

pytestmark = pytest.mark.timeout(120)

#: Records every violation in the page itself, from before its first script runs.
WATCH = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__violations = window.__violations || []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""


def watch(page: Page) -> list[str]:
    """Start watching ``page`` for CSP violations; the console's reports of them, as they come."""
    reported: list[str] = []

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            reported.append(message.text)

    page.on("console", seen)
    page.add_init_script(WATCH)
    return reported


def violations(page: Page, reported: list[str]) -> list[Any]:
    """What the page and its console reported."""
    seen: list[Any] = page.evaluate("() => window.__violations || []")
    return [*seen, *reported]


def test_the_server_sends_the_policy(live_server: str) -> None:
    policy = httpx.get(f"{live_server}/", timeout=10).headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy


def test_the_lobby_and_a_waiting_table_load_without_a_violation(page: Page, live_server: str) -> None:
    reported = watch(page)
    page.goto(f"{live_server}/")
    page.wait_for_function("() => window.oakwoodLobby && window.oakwoodLobby.ready")
    assert violations(page, reported) == []
    answer = create_table(live_server, "barrell", ["human", "human"])
    open_seat(page, live_server, answer["table"]["id"], answer["token"])
    page.wait_for_selector(".invite-link")
    assert violations(page, reported) == []


@pytest.mark.parametrize("game", ["squarrels", "barrell", "nutty"])
def test_a_game_in_play_raises_no_violation(page: Page, live_server: str, game: str) -> None:
    reported = watch(page)
    answer = create_table(live_server, game, ["human", "easy"])
    open_seat(page, live_server, answer["table"]["id"], answer["token"])
    for _ in range(6):  # a few moves: every update is drawn and morphed into the page
        if is_over(page) or not play_one(page):
            break
    assert violations(page, reported) == []
    open_seat(page, live_server, answer["table"]["id"], None)  # a spectator's page too
    assert violations(page, reported) == []
