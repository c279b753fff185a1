"""Two people in two browser contexts play S'Quarrels (one joins by the invite link) until a Quarrel and a
Hoard race have come: the Quarrel is a commit (the other sees "has chosen", never the card, until both have
chosen) and the race is won by the first slap. With two players the Hoard goes to the other player without a
race unless the drawer may race too (``hoard_drawer_may_race``), so the table is set up that way."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .helpers import create_table, is_over, open_seat, play_one, seq, update, wait_update


def events(page: Page) -> list[dict[str, object]]:
    result: list[dict[str, object]] = page.evaluate("() => window.oakwood.log")
    return result


def wait_for(page: Page, script: str, arg: object = None, timeout: float = 15_000) -> None:
    page.wait_for_function(script, arg=arg, timeout=timeout)


def check_quarrel(pages: list[Page], seats: list[int], screens: Path) -> None:
    """Both seats commit by clicking a card; the second sees the first's commitment, not its card."""
    wait_for(pages[0], "() => window.oakwood.update.observation.phase === 'quarrel'")
    wait_for(pages[1], "() => window.oakwood.update.observation.phase === 'quarrel'")
    live = update(pages[0])["observation"]["quarrel"]["live"]
    players = [i for i in (0, 1) if seats[i] in live]
    assert len(players) == 2, "both players are in the Quarrel"
    first, second = players
    for i in players:
        expect(pages[i].locator("#game .event-panel")).to_contain_text("Quarrel")
    # the card the second player is about to click is marked: the first's commitment redraws the board under it
    target = pages[second].locator("#game .hand .card.playable").first
    target.evaluate("(card) => { window.aimedAt = card; }")
    pages[first].locator("#game .hand .card.playable").first.click()
    wait_for(pages[second], "(s) => window.oakwood.update.observation.quarrel.committed.includes(s)", arg=seats[first])
    # the controls were updated in place: the very element the player aimed at is still there to be clicked
    assert pages[second].evaluate("() => window.aimedAt.isConnected && window.aimedAt.matches('.card.playable')")
    watcher = update(pages[second])["observation"]["quarrel"]
    assert watcher["pot"] == [] and watcher["your_play"] is None
    chosen = pages[second].locator(f"#game .zone[data-seat='{seats[first]}'] .badge.chosen")
    expect(chosen).to_have_text("has chosen")
    # the chooser's own page shows its card: that update may reach it after the watcher's, so wait for it
    wait_for(pages[first], "() => window.oakwood.update.observation.quarrel.your_play !== null")
    mine = update(pages[first])["observation"]["quarrel"]
    assert mine["your_play"] is not None and seats[first] in mine["committed"]
    pages[second].screenshot(path=str(screens / "squarrels-quarrel.png"))
    before = seq(pages[second])
    pages[second].evaluate("() => window.aimedAt.click()")  # the click lands on the element aimed at before
    wait_for(pages[first], "(s) => window.oakwood.update.seq > s", arg=before)
    for page in pages:
        wait_for(page, "() => window.oakwood.log.some((e) => e.kind === 'quarrel_reveal')")


def check_race(pages: list[Page], seats: list[int], screens: Path) -> None:
    """Both may slap (the drawer too: ``hoard_drawer_may_race``, since with two players the only other player
    would win without a race); the first slap takes the Hoard Pile."""
    race = update(pages[0])["observation"]["race"]
    assert sorted(race["eligible"]) == [0, 1]
    racer, watcher = 1, 0
    slap = pages[racer].locator("#game .big-buttons button.slap")
    expect(slap).to_be_visible()
    expect(pages[watcher].locator("#game .big-buttons button.slap")).to_be_visible()
    expect(pages[racer].locator("#game .event-panel .countdown")).to_be_visible()
    pages[racer].screenshot(path=str(screens / "squarrels-race.png"))
    slap.click()
    for page in pages:
        wait_for(page, "() => window.oakwood.log.some((e) => e.kind === 'hoard_won')")
    won = [e for e in events(pages[watcher]) if e["kind"] == "hoard_won"]
    text = str(won[-1]["text"])  # the racer named as the seat strip names them; the pile may have been empty
    assert (
        text.startswith(f"{('Ann', 'Bob')[racer]} grabs")
        or text == "Bob wins the race for the Hoard Pile, but it is empty."
    )


def test_two_people_play_a_quarrel_and_a_hoard_race(browser: Browser, live_server: str, screens: Path) -> None:
    made = create_table(live_server, "squarrels", ["human", "human"], name="Ann", hoard_drawer_may_race=True)
    table = made["table"]["id"]
    ann = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    bob = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    open_seat(ann, live_server, table, made["token"])
    # a table waiting for its second player: nobody is "to play" yet, and Ann is told what she waits for
    expect(ann.locator("#moves")).to_contain_text("Waiting for every seat to be taken")
    expect(ann.locator("#seats .badge.turn")).to_have_count(0)
    bob.goto(f"{live_server}/t/{table}")  # the invite link: no token, a free seat: asked for a name
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button[type=submit]")
    wait_update(bob)
    wait_for(bob, "() => window.oakwood.update.seat !== null")
    pages = [ann, bob]
    seats = [update(ann)["seat"], update(bob)["seat"]]
    assert sorted(seats) == [0, 1]
    expect(ann.locator("#seats .seat").nth(seats[1])).to_contain_text("Bob")
    quarrel_seen = race_seen = False
    end = time.monotonic() + 300
    while not (quarrel_seen and race_seen):
        assert not is_over(ann), "the match ended before a Quarrel and a Hoard race came"
        assert time.monotonic() < end, "no Quarrel and Hoard race in time"
        phase = update(ann)["observation"]["phase"]
        if phase in ("quarrel", "race") and not (quarrel_seen if phase == "quarrel" else race_seen):
            # let the other page catch up before anyone clicks
            wait_for(bob, "(p) => window.oakwood.update.observation.phase === p", arg=phase)
            observation = update(ann)["observation"]
            if (
                phase == "quarrel"
                and len(observation["quarrel"]["live"]) == 2
                and not observation["quarrel"]["committed"]
            ):
                check_quarrel(pages, seats, screens)
                quarrel_seen = True
                continue
            if phase == "race" and not observation["race"]["committed"] and not observation["race"]["passed"]:
                check_race(pages, seats, screens)
                race_seen = True
                continue
        if not any(play_one(page) for page in pages):
            ann.wait_for_timeout(50)
