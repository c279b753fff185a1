"""What the browser tests do on a page: create tables, wait for updates, and play by clicking only."""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

#: What to click, in order (after an action of a selected card): the race buttons, the first legal target on the
#: board (a card, the Deck, an opponent), the other board buttons, and last the move list.
CLICK_ORDER = (
    "#game .big-buttons button[data-index]",
    "#game .card.playable",
    "#game .zone.target",
    "#game .actionbar button[data-index]",
    "#moves button",
)


def create_table(base: str, game: str, seats: list[str], name: str = "Ann", **options: Any) -> dict[str, Any]:
    """Create a table over HTTP; the answer (``table``, ``seat``, ``token``)."""
    body = {"game": game, "players": len(seats), "options": options, "seats": seats, "name": name, "turn_seconds": None}
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def create_from_lobby(
    page: Page,
    base: str,
    game: str,
    players: int,
    name: str = "Ann",
    seats: dict[int, str] | None = None,
    options: dict[str, bool | str] | None = None,
) -> str:
    """Start a table as a person does: open the lobby, type a name, choose the game and the number of players,
    change only the seats in ``seats`` (others keep the form's defaults: you in seat 1, medium bots) and the
    options in ``options`` (a checkbox, else a select), and click *Create the table*. Waits for the table page's
    first update; the table's id."""
    page.goto(f"{base}/")
    page.wait_for_function("() => window.oakwoodLobby && window.oakwoodLobby.ready")
    page.fill("#name", name)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for seat, level in (seats or {}).items():
        page.select_option(f"#seat-{seat}", level)
    if options:
        page.click("#create details summary")
    for option, value in (options or {}).items():
        control = page.locator(f"#option-{option}")
        if isinstance(value, bool):
            control.set_checked(value)
        else:
            control.select_option(value)
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    wait_update(page)
    return page.url.rsplit("/", 1)[1]


def open_seat(page: Page, base: str, table: str, token: str | None) -> None:
    """Open the table page holding ``token`` (None: as a spectator) and wait for the first update."""
    page.goto(f"{base}/")
    if token is not None:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"oakwood-token-{table}", token])
    page.goto(f"{base}/t/{table}")
    wait_update(page)


def wait_update(page: Page, timeout: float = 20_000) -> None:
    page.wait_for_function("() => window.oakwood && window.oakwood.update !== null", timeout=timeout)


def update(page: Page) -> dict[str, Any]:
    """The latest update the page received."""
    result: dict[str, Any] = page.evaluate("() => window.oakwood.update")
    return result


def seq(page: Page) -> int:
    value: int = page.evaluate("() => window.oakwood.update ? window.oakwood.update.seq : -1")
    return value


def is_over(page: Page) -> bool:
    return bool(page.evaluate("() => !!(window.oakwood.update && window.oakwood.update.observation.terminal)"))


def has_moves(page: Page) -> bool:
    return bool(page.evaluate("() => !!(window.oakwood.update && window.oakwood.update.legal.length)"))


def click_first(page: Page) -> str | None:
    """Click the first legal target (see :data:`CLICK_ORDER`); which selector it was, or None."""
    if page.locator("#game .card.selected").count():
        bar = page.locator("#game .actionbar button.primary[data-index]")
        if bar.count() and tap(bar.first):
            return "bar"
    for selector in CLICK_ORDER:
        target = page.locator(selector)
        if target.count():
            return selector if tap(target.first) else None
    return None


def tap(target: Locator) -> bool:
    """Click ``target``; False if it went away first (a newer update redrew the board): look again."""
    try:
        target.click(timeout=3000)
    except PlaywrightTimeoutError:
        return False
    return True


def dismiss_summary(page: Page) -> bool:
    """Close the round or battle summary if it is open (it stays until the player closes it, and the board
    behind it takes no click meanwhile); whether one was open."""
    close = page.locator("#summary-dialog[open] #summary-close")
    if not close.count():
        return False
    try:
        close.click(timeout=10_000)
    except PlaywrightTimeoutError:
        if not close.count():  # it closed meanwhile (the game ended: the game-over panel shows the summary)
            return False
        page.screenshot(path="artifacts/screens/summary-stuck.png")
        state = page.evaluate(
            "() => { const d = document.getElementById('summary-dialog'); const r = d.getBoundingClientRect();"
            " return [d.open, d.matches(':modal'), r.width, r.height, getComputedStyle(d).display]; }"
        )
        raise AssertionError(f"the summary cannot be closed: open, modal, width, height, display = {state}") from None
    return True


def click_past_summary(page: Page, selector: str, tries: int = 3) -> None:
    """Click ``selector`` the way a player would while bots play on: a round or battle summary that opened
    meanwhile (a bot can end a round alone: the S'Quarrels Winter, SQ-15) is a modal dialog that takes every
    click, so close it first, and again if another opened before the click landed."""
    for _ in range(tries):
        dismiss_summary(page)
        if tap(page.locator(selector)):
            return
    raise AssertionError(f"{selector} could not be clicked in {tries} tries")


def confirm_warning(page: Page) -> str | None:
    """Accept the warning a move asked to confirm (a solo move that ends the game short of 20…), if one is open;
    its text."""
    dialog = page.locator("#confirm-dialog[open]")
    if not dialog.count():
        return None
    text = page.locator("#confirm-text").inner_text()
    page.click("#confirm-yes")
    return text


def play_one(page: Page, timeout: float = 15.0, close_summary: bool = True) -> bool:
    """If the page has a move to make, make it by clicking and wait for the position to change (or for a card's
    actions to open); whether a click was made. A summary in the way is closed first, as a person would, unless
    ``close_summary`` is False: then an open summary is left for the caller and no click is made."""
    if not close_summary:
        if page.locator("#summary-dialog[open]").count():
            return False
    else:  # never when the caller waits for a summary: one opening right after the look above would be closed
        dismiss_summary(page)
    if not has_moves(page):
        return False
    before = seq(page)
    clicked = click_first(page)
    if clicked is None:
        return False
    confirm_warning(page)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if seq(page) != before or page.locator("#game .card.selected").count() or is_over(page):
            return True
        page.wait_for_timeout(40)
    return True  # a stale click (a bot moved first) is refused and shown; the next round looks again


def wait_turn(page: Page, timeout: float = 20_000) -> None:
    """Wait until the page has a move to make or the game is over: after a click, the page is shown its own move
    before the bots' replies, so its next turn can be an update or more away."""
    page.wait_for_function(
        "() => { const u = window.oakwood.update; return !!u && (u.legal.length > 0 || u.observation.terminal); }",
        timeout=timeout,
    )


def play_a_move(page: Page, timeout: float = 20_000) -> None:
    """Wait for the page's turn and make one move by clicking: the first legal target, and the first action of a
    card whose move bar that opened; returns once the page is shown the move."""
    end = time.monotonic() + timeout / 1000
    while True:  # a click can miss when a newer update redraws the board under it: look again
        wait_turn(page, timeout)
        before = seq(page)
        if play_one(page):
            break
        assert time.monotonic() < end, "the page had a move and no click was made in time"
    while page.locator("#game .card.selected").count() and seq(page) == before:  # a card's move bar opened
        play_one(page)
        assert time.monotonic() < end, "a card's move bar opened and no action was clicked in time"
    page.wait_for_function("(s) => window.oakwood.update.seq > s", arg=before, timeout=timeout)


def play_to_end(pages: list[Page], max_clicks: int = 2000, timeout: float = 240.0) -> int:
    """Play every page by clicking until the game is over; the number of clicks."""
    clicks = 0
    end = time.monotonic() + timeout
    while not is_over(pages[0]):
        assert time.monotonic() < end, "the game did not end in time"
        assert clicks < max_clicks, "too many clicks"
        moved = False
        for page in pages:
            if play_one(page):
                clicks += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
    return clicks
