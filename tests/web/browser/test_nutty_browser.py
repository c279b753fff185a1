"""A person plays Nutty Squirrels in the browser by clicking only: a whole 2-player game against a medium bot and
a whole solo game, through the real server (``oakwood serve`` in a subprocess, a table from
``POST /api/tables``). Every step checks that the tree, the boards and the AP are drawn from the update, and
every action is played by clicking the thing it acts on (a limb position, an acorn, a board part, the turn
bar), choosing in the small menu when that thing offers several. The server and Chromium come from this folder's
conftest (``live_server``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .nutty_conftest_helpers import Frames, choose, click_action, create_table, open_draw_page, open_table

ROOT = Path(__file__).resolve().parents[3]
#: Screenshots of each run; docs/screens/nutty.png and nutty-solo.png are chosen copies of nutty-mid.png and
#: nutty-solo-mid.png (taken with the shell, 1366x768).
ARTIFACTS = Path(os.environ.get("NUTTY_SCREENS", ROOT / "artifacts" / "screens"))
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

#: Checked after every update: the board drawn is the observation's (six limbs, every card, every squirrel,
#: every board, the AP), and every legal action that names a drawn target sits on it.
CHECK = """async (u) => {
  const { targetOf } = await import('/static/js/games/nutty.js');
  const obs = u.observation, problems = [];
  const root = document.getElementById('game');
  if (root.querySelectorAll('.nt-limb').length !== 6) problems.push('not six limbs');
  if (!root.querySelector('.nt-trunk')) problems.push('no trunk');
  const cards = obs.tree.reduce((t, row) => t + row.length, 0);
  if (root.querySelectorAll('.nt-pos.nt-card').length !== cards) problems.push('cards drawn != cards on the tree');
  const down = obs.tree.flat().filter((c) => c.card === null).length;
  if (root.querySelectorAll('.nt-pos.nt-card.nt-down').length !== down) problems.push('face-down cards differ');
  if (root.querySelectorAll('.nutty-tree .nt-squirrel').length !== obs.boards.length) problems.push('squirrels');
  if (root.querySelectorAll('.nt-board').length !== obs.boards.length) problems.push('boards');
  if (obs.mode === 'multiplayer' && !obs.terminal) {
    const ap = root.querySelector('.nt-ap-chip');
    if (!ap || ap.dataset.ap !== String(obs.ap) || !ap.textContent.includes(`${obs.ap} AP`)) problems.push('AP');
  }
  if (obs.mode === 'solo' && !obs.terminal) {
    const chip = root.querySelector('.nt-points-chip');
    if (!chip || !chip.textContent.startsWith(`${obs.boards[0].points} / 20`)) problems.push('solo points');
  }
  obs.boards.forEach((b, s) => {
    const pts = root.querySelector(`.nt-board.nt-seat-${s} .nt-board-points`);
    if (!pts || !pts.textContent.startsWith(String(b.points))) problems.push(`points of P${s + 1}`);
  });
  for (const item of u.legal) {
    const key = targetOf(item, obs);
    const where = key === 'turn'
      ? root.querySelector(`.nt-turn-button[data-index="${item.index}"]`)
      : root.querySelector(`[data-target="${key}"].nt-actionable`);
    if (!where) problems.push(`no target drawn for ${item.notation} (${key})`);
  }
  if (document.querySelectorAll('#moves button[data-index]').length !== u.legal.length) problems.push('move list');
  return problems;
}"""


DRAWN = "() => Number(document.getElementById('game')?.dataset.seq ?? -1)"


def next_decision(page: Any, frames: Frames, after: int) -> dict[str, Any]:
    """The first update drawn after sequence number ``after`` that asks this seat to act or ends the game."""
    while True:
        page.wait_for_function(f"() => ({DRAWN})() > {after}", timeout=60_000)
        update = frames.drawn(page.evaluate(DRAWN))
        if update["observation"]["terminal"] or update["legal"]:
            page.wait_for_function(
                f"() => ({DRAWN})() === {update['seq']} && document.querySelectorAll('#moves button[data-index]')"
                f".length === {len(update['legal'])}"
            )
            return frames.drawn(update["seq"])
        after = update["seq"]


def play_to_the_end(page: Any, frames: Frames, *, limit: int, shots: dict[int, Callable[[], None]]) -> dict[str, Any]:
    """Click until the game is over; check the drawing at every update the person acts on."""
    steps = 0
    seq = -1
    while True:
        update = next_decision(page, frames, seq)
        problems = page.evaluate(CHECK, update)
        assert problems == [], (steps, problems, update["text"])
        if update["observation"]["terminal"]:
            return update
        assert frames.errors == [], frames.errors
        if steps in shots:
            page.wait_for_timeout(1900)  # the highlights of what changed fade first
            shots[steps]()
        item = choose(update)
        seq = update["seq"]
        click_action(page, item, update)
        steps += 1
        assert steps < limit, f"no end after {limit} clicks"


def both_sizes(page: Any, name: str) -> None:
    """Screenshots ``name``.png at desktop size and ``name``-phone.png at phone size."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / f"{name}-phone.png"))
    page.set_viewport_size(DESKTOP)


def test_two_player_game_against_a_medium_bot(page: Any, live_server: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(DESKTOP)
    answer = create_table(
        live_server,
        game="nutty",
        players=2,
        options={},
        seats=["human", "medium"],
        name="Hazel <b>Nutkin</b>",
        turn_seconds=None,
        seed=11,
    )
    frames = open_table(page, live_server, answer)

    shots = {
        0: lambda: page.screenshot(path=str(ARTIFACTS / "nutty-start.png")),
        30: lambda: both_sizes(page, "nutty-mid"),
    }
    final = play_to_the_end(page, frames, limit=1500, shots=shots)
    assert final["observation"]["terminal"]
    # The display name is text, never markup.
    assert page.locator("#game .nt-board-name", has_text="Hazel <b>Nutkin</b>").count() == 1
    assert page.locator("#game .nt-board-name b").count() == 0
    page.screenshot(path=str(ARTIFACTS / "nutty-over.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / "nutty-over-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    # The finished game's replay page draws every step with the same module, nothing to click.
    page.goto(f"{live_server}/replay/{final['table']['game_id']}")
    page.wait_for_function(f"() => ({DRAWN})() === 0")  # the replay opens on the deal
    assert page.locator("#game .nt-pos.nt-card.nt-down").count() == 30
    assert page.locator("#game .nt-actionable").count() == 0
    page.click("#next")
    page.wait_for_function(f"() => ({DRAWN})() === 1")
    assert page.locator("#game .nt-limb").count() == 6


def test_solo_game(page: Any, live_server: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(DESKTOP)
    answer = create_table(
        live_server, game="nutty", players=1, options={}, seats=["human"], name="Squirrel", turn_seconds=None, seed=5
    )
    frames = open_table(page, live_server, answer)

    shots = {25: lambda: both_sizes(page, "nutty-solo-mid")}
    final = play_to_the_end(page, frames, limit=1500, shots=shots)
    assert final["observation"]["mode"] == "solo"
    assert final["observation"]["terminal"]
    assert page.locator("#game .nt-turn-title").inner_text().strip() != ""
    page.screenshot(path=str(ARTIFACTS / "nutty-solo-over.png"))


def test_the_tree_is_one_tab_stop_with_arrow_keys(page: Any, live_server: str) -> None:
    page.set_viewport_size(DESKTOP)
    answer = create_table(
        live_server,
        game="nutty",
        players=2,
        options={},
        seats=["human", "medium"],
        name="Kay",
        turn_seconds=None,
        seed=11,
    )
    frames = open_table(page, live_server, answer)
    first = next_decision(page, frames, -1)
    focused = (
        "() => { const a = document.activeElement; return a && a.classList.contains('nt-pos') ? a.dataset.key : null }"
    )
    for _ in range(40):  # Tab from the top of the page into the tree
        page.keyboard.press("Tab")
        if page.evaluate(focused):
            break
    assert page.evaluate(focused) == "trunk"
    page.keyboard.press("Tab")  # one Tab stop: the next Tab leaves the tree
    assert page.evaluate(focused) is None
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == "trunk"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == "L2c1"
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "L1c1"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == "L1c2"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "L1c1"
    page.keyboard.press("ArrowRight")  # across the trunk to the neighbouring limb of the ring
    assert page.evaluate(focused) == "L6c1"
    page.keyboard.press("Home")
    assert page.evaluate(focused) == "trunk"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "L5c1"
    tabbable = page.evaluate("() => document.querySelectorAll('#game .nt-pos[tabindex=\"0\"]').length")
    assert tabbable == 1
    page.keyboard.press("Enter")  # move L5c1: the one action there
    page.wait_for_function(f"() => ({DRAWN})() > {first['seq']}")
    update = frames.drawn(first["seq"] + 1)
    assert update["observation"]["boards"][answer["seat"]]["at"] in ("L5c1", "trunk")  # trunk: it was a fall
    assert page.evaluate(focused) == "L5c1"  # the focus stays where it was across the redraw


def _kind(action: Any, solo: bool) -> tuple[object, ...]:
    text = str(action)
    power = bool(action.power) and action.verb in ("steal", "owl")  # a power of another squirrel, not an acorn
    return (action.verb, solo, " with " in text, " swap " in text, " return " in text, power)


def sample_updates() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """From random games (solo and 2 to 4 players), the first position offering each kind of action: the update
    a seat would get, and the action of that kind to play."""
    import random

    from oakwood.engine import load

    game = load("nutty")
    found: dict[tuple[object, ...], tuple[dict[str, Any], dict[str, Any]]] = {}
    for players in (1, 2, 3, 4):
        for seed in range(12):
            state = game.new_state(players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(300):
                if state.is_terminal():
                    break
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                items = [
                    {"index": game.encode(a), "notation": str(a), "label": game.describe_action(a), "verb": a.verb}
                    for a in legal
                ]
                for action, item in zip(legal, items, strict=True):
                    kind = _kind(action, players == 1)
                    if kind not in found:
                        update = {"type": "update", "seq": 0, "seat": seat, "observation": state.observe(seat)}
                        update |= {"legal": items, "events": [], "can_undo": False, "deadline": None}
                        found[kind] = (update, item)
                plain = [a for a in legal if a.verb not in ("end", "end game")] or list(legal)
                state.apply(seat, rng.choice(plain) if rng.random() < 0.85 else legal[0])
    return list(found.values())


def test_every_kind_of_action_is_played_on_its_target(page: Any, live_server: str) -> None:
    page.set_viewport_size(DESKTOP)
    open_draw_page(page, live_server)
    samples = sample_updates()
    verbs = {item["verb"] for _, item in samples}
    assert verbs >= {"move", "flip", "gather", "drop", "pack", "unpack", "stash", "unstash", "bury", "claim", "end"}
    assert verbs >= {"lasso", "spit", "steal", "owl", "copy", "convert", "buy", "end game"}
    for update, item in samples:
        page.evaluate("(u) => window.draw(u)", update)
        key = page.evaluate("([item, obs]) => window.targetOf(item, obs)", [item, update["observation"]])
        if key == "turn":
            page.click(f'#game .nt-turn-button[data-index="{item["index"]}"]')
        else:
            target = page.locator(f'#game [data-target="{key}"].nt-actionable')
            assert target.count() == 1, (item["notation"], key)
            target.click()
            menu = page.locator(f'#game .nutty-menu .nt-menu-item[data-index="{item["index"]}"]')
            if menu.count():
                menu.click()
        assert page.evaluate("() => window.__acted.pop()") == item["index"], item["notation"]
        assert page.evaluate("() => window.__acted.length") == 0


def test_a_position_with_several_actions_opens_a_menu_by_keyboard(page: Any, live_server: str) -> None:
    page.set_viewport_size(PHONE)
    open_draw_page(page, live_server)
    several = """() => [...document.querySelectorAll('#game .nt-pos')].find((p) =>
        [p, ...p.querySelectorAll('.nt-acorn')].reduce((n, e) => n + Number(e.dataset.actions || 0), 0) > 1)
        ?.dataset.key || null"""
    for update, _ in sample_updates():
        page.evaluate("(u) => window.draw(u)", update)
        key = page.evaluate(several)
        if key:
            break
    else:
        pytest.fail("no position offers two actions in the samples")
    page.focus(f'#game .nt-pos[data-key="{key}"]')
    page.keyboard.press("Enter")
    items = page.locator("#game .nutty-menu .nt-menu-item")
    assert items.count() >= 2
    assert page.evaluate("() => document.activeElement.classList.contains('nt-menu-item')")
    page.keyboard.press("Escape")
    assert page.locator("#game .nutty-menu").count() == 0
    assert page.evaluate("() => document.activeElement.dataset.key") == key
    page.keyboard.press("Enter")
    second = int(page.locator("#game .nutty-menu .nt-menu-item").nth(1).get_attribute("data-index"))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__acted") == [second]


def test_board_parts_act_from_the_keyboard(page: Any, live_server: str) -> None:
    page.set_viewport_size(DESKTOP)
    open_draw_page(page, live_server)
    for update, item in sample_updates():
        if item["verb"] not in ("bury", "stash", "buy", "steal"):
            continue
        page.evaluate("(u) => window.draw(u)", update)
        key = page.evaluate("([item, obs]) => window.targetOf(item, obs)", [item, update["observation"]])
        target = page.locator(f'#game [data-target="{key}"].nt-actionable')
        assert target.get_attribute("tabindex") == "0", key
        target.focus()
        page.keyboard.press("Enter")
        if page.locator("#game .nutty-menu").count():
            page.locator(f'#game .nutty-menu .nt-menu-item[data-index="{item["index"]}"]').focus()
            page.keyboard.press("Enter")
        assert page.evaluate("() => window.__acted.pop()") == item["index"], item["notation"]


def test_a_spectator_sees_the_board_and_nothing_to_click(page: Any, live_server: str) -> None:
    from oakwood.engine import load

    game = load("nutty")
    state = game.new_state(players=3, seed=4)
    for _ in range(40):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    update = {"type": "update", "seq": 40, "seat": None, "observation": state.observe(None), "legal": [], "events": []}
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size(PHONE)
    open_draw_page(page, live_server)
    page.evaluate("(u) => window.draw(u)", update)
    assert errors == []
    assert page.locator("#game .nt-limb").count() == 6
    assert page.locator("#game .nt-board").count() == 3
    assert page.locator("#game .nt-actionable").count() == 0
    assert page.locator("#game .nt-you").count() == 0
    assert "is playing" in page.locator("#game .nt-turn-title").inner_text()
