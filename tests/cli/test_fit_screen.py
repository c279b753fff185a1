"""The play screen fitted to the terminal, colour and plain text, typed moves, summaries, log and rules."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from oakwood.cli import screens, summaries
from oakwood.cli.pager import own_pager
from oakwood.cli.play import PlaySession, SeatPlan
from oakwood.cli.styles import make_console, styled
from oakwood.cli.terminal import QuitGame, Terminal
from oakwood.engine import State, load

SGR = re.compile(r"\x1b\[[0-9;]*m")
TABLES = [("squarrels", n) for n in range(2, 7)] + [("barrell", n) for n in range(2, 5)]
TABLES += [("nutty", n) for n in range(1, 7)]


def positions(name: str, players: int, count: int, seed: int) -> list[State]:
    """``count`` positions of a random game where someone is to act."""
    game = load(name)
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    out = []
    for step in range(400):
        if state.is_terminal():
            break
        if step % (400 // count) == 0:
            out.append(state.clone())
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def screen_text(name: str, state: State, width: int, height: int | None) -> tuple[str, int]:
    """The fitted screen of the first seat to act, as plain text, and how many log lines it shows."""
    game = load(name)
    seat = state.to_act()[0]
    console = Console(width=width, file=io.StringIO(), color_system=None, force_terminal=False)
    log = [game.describe_event(e) for e in state.events_seen_by(seat, 0)]
    parts = screens.ScreenParts(
        title=f"{game.title} · P{seat + 1} (you)",
        observation=state.observe(seat),
        log=log,
        log_title="Since your last move",
        labels=[f"P{s + 1}" for s in range(state.num_players)],
        heading=screens.Text("P1, your move:"),
        legal=state.legal_actions(seat),
    )
    for renderable in screens.fit_screen(console, game, parts, width, height):
        console.print(renderable)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return text, text.count("• ")


@pytest.mark.parametrize(("name", "players"), TABLES, ids=[f"{n}-{p}p" for n, p in TABLES])
def test_every_table_fits_80x24_with_board_hand_log_and_menu(name: str, players: int) -> None:
    for state in positions(name, players, 6, seed=players):
        text, logged = screen_text(name, state, 80, 24)
        rows = text.rstrip("\n").split("\n")
        assert len(rows) <= 23, f"{len(rows)} rows (the prompt needs the 24th):\n{text}"
        assert all(len(row) <= 80 for row in rows)
        assert "your move:" in rows[-len(state.legal_actions(state.to_act()[0])) - 1 :][0] or re.search(
            r"your move:\n ?1 ", text
        ), text
        if name != "nutty":
            assert "Your hand" in text, text
        else:
            assert re.search(rf"^[ >]P{state.to_act()[0] + 1} ", text, re.MULTILINE), text
        assert logged >= 1, f"no event on screen:\n{text}"


def test_a_bigger_terminal_shows_more_log_and_the_full_board() -> None:
    state = positions("barrell", 4, 3, seed=4)[-1]
    small, small_log = screen_text("barrell", state, 80, 24)
    big, big_log = screen_text("barrell", state, 120, 60)
    assert big_log > small_log
    assert "╭─ Barrell" in big and "(face-down cards in [brackets]" in big  # framed, with the legend
    assert "╭─ Barrell" not in small


def test_a_transcript_is_printed_whole() -> None:
    state = positions("nutty", 6, 3, seed=6)[-1]
    text, _ = screen_text("nutty", state, 80, None)
    assert "?? face down · *power" in text and "Central Trunk" in text


def test_multi_column_menus_keep_descriptions_and_costs() -> None:
    game = load("nutty")
    state = positions("nutty", 2, 5, seed=1)[-1]
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    items = screens.menu_items(game, legal, state.observe(seat))
    assert all("AP" in item.note or item.move == "end" for item in items), items
    grid = screens.menu_grid(items, 2, 80, notes=True, game="nutty")
    assert grid is not None
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(grid)
    assert "1 AP" in console.file.getvalue()  # type: ignore[attr-defined]


def test_solo_menus_say_what_a_move_costs_in_points() -> None:
    game = load("nutty")
    state = game.new_state(1, 3)
    notes = [item.note for item in screens.menu_items(game, state.legal_actions(0), state.observe(0))]
    assert any(note.startswith("free") for note in notes), notes


# ---------------------------------------------------------------------- colour
def test_styles_mark_suits_face_down_cards_your_seat_and_changes() -> None:
    text = styled("P1 — you: field [9♥] 7♠ ??\nBattle scores: P1 +4, P2 -3", "barrell", seat=0)
    spans = {text.plain[s.start : s.end]: str(s.style) for s in text.spans}
    assert spans["9♥"] == "bold red" and spans["[9♥]"] == "dim" and spans["??"] == "dim"
    assert spans["— you"] == "bold cyan"
    assert spans["+4"] == "bold green" and spans["-3"] == "bold red"
    assert text.plain == "P1 — you: field [9♥] 7♠ ??\nBattle scores: P1 +4, P2 -3"  # no character is added


def test_no_color_gives_plain_text_even_when_colour_is_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = make_console(io.StringIO())
    coloured.print(styled("9♥", "barrell"))
    assert SGR.search(coloured.file.getvalue())  # type: ignore[attr-defined]
    monkeypatch.setenv("NO_COLOR", "1")
    plain = make_console(io.StringIO())
    plain.print(styled("9♥ [??] +4", "barrell"))
    assert plain.file.getvalue() == "9♥ [??] +4\n"  # type: ignore[attr-defined]


def test_a_pipe_gets_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    console = make_console(io.StringIO())
    console.print(styled("9♥ +4", "barrell"))
    assert console.file.getvalue() == "9♥ +4\n"  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- sessions in a transcript
def session(name: str, players: int, answers: list[str], seed: int = 3, **options: Any) -> tuple[PlaySession, str]:
    """P1 human against heuristic bots, fed ``answers`` line by line (then the input ends)."""
    game = load(name, **options)
    state = game.new_state(players, seed)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    term = Terminal(console, stdin=io.StringIO("".join(a + "\n" for a in answers)), interactive=False)
    seats = [SeatPlan("human")]
    from oakwood.agents import make_agent

    seats += [SeatPlan("heuristic", make_agent(game, "heuristic", seed=s)) for s in range(1, players)]
    play = PlaySession(game, state, seats, term, seed=seed, delay=0)
    play.run()
    return play, out.getvalue()


def test_a_card_typed_as_shown_is_played() -> None:
    game = load("barrell")
    hand = game.new_state(2, 3).observe(0)["hand"]
    first, second = (card[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[-1]] for card in hand[:2])
    play, out = session("barrell", 2, [f"Mulligan {first}", second.lower()])
    asides = [e for e in play.state.events if e.kind == "mulligan_aside" and e.public.get("seat") == 0]
    assert len(asides) == 2, out  # "mulligan 3♣" and a bare "5♣" (completed to the one move naming it)
    assert "✗" not in out


def test_log_and_rules_are_printed_whole_in_a_transcript() -> None:
    _, out = session("squarrels", 2, ["help", "log", "rules"])
    assert "log      everything you have seen" in out and "rules    the rules" in out
    assert "Everything P1 has seen this game" in out and "match begins" in out
    assert "S'Quarrels rules" in out and "Winter" in out


def test_the_final_table_names_battles_won() -> None:
    _, out = session("barrell", 2, ["1"] * 300)
    assert "Battles won" in out and "Final result" in out
    assert "Battle 1 is over" in out  # the summary of every battle, also in a transcript


def test_a_squarrels_round_summary_adds_up() -> None:
    game = load("squarrels", single_round=True)
    state = game.new_state(3, 11)
    rng = random.Random(11)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    views = state.events_seen_by(0, 0)
    index = next(i for i, v in enumerate(views) if v["kind"] == "round_end")
    panel = summaries.summary(game, views, index, ["P1 (you)", "P2", "P3"], seat=0)
    assert panel is not None
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(panel)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Winter ends round 1" in text and "Golden / Rotten" in text
    for s, line in enumerate(row for row in text.splitlines() if re.search(r"│ P\d", row)):
        numbers = [int(n) for n in re.findall(r"(?<![\[\d])[+-]?\d+(?![\]\dG])", line.split("│")[1])[1:]]
        sets, round_score = numbers[0], numbers[-2]
        bonus = round_score - sets
        assert bonus in (-5, 0, 5), line
        assert round_score == views[index]["scores"][s]


# ---------------------------------------------------------------------- the own pager
class KeysTty(Terminal):
    """An interactive terminal whose lines come from a list."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(Console(file=io.StringIO(), width=80, color_system=None), io.StringIO(""), True)
        self.answers = answers

    def read_line(self, prompt: str) -> str:
        self.console.print(prompt)
        if not self.answers:
            raise QuitGame("input ended", 1)
        return self.answers.pop(0)


def test_the_own_pager_pages_and_searches() -> None:
    lines = [f"line {i}" for i in range(1, 51)] + ["the Golden Acorn"] + [f"line {i}" for i in range(52, 80)]
    term = KeysTty(["", "/golden", "/nothing-like-this", "b", "q"])
    own_pager(term, lines, title="Test", height=20)
    out = term.console.file.getvalue()  # type: ignore[attr-defined]
    assert "1–20 of 79" in out and "21–40 of 79" in out
    assert "51–70 of 79" in out  # the search put the match on top
    assert "“nothing-like-this” is not in Test" in out
    assert "31–50 of 79" in out  # b went back one page
    assert not term.answers


def test_from_120_columns_the_log_stands_beside_the_board() -> None:
    state = positions("squarrels", 4, 3, seed=2)[-1]
    text, logged = screen_text("squarrels", state, 140, 40)
    assert logged >= 3
    assert re.search(r"│ .*│  (─ Since your last move|• )", text), text  # a board row and a log row on one line
    assert all(len(row) <= 140 for row in text.split("\n"))


@pytest.mark.parametrize(("name", "players"), [("squarrels", 6), ("barrell", 4), ("nutty", 6), ("nutty", 1)])
def test_compact_boards_are_shorter_and_keep_the_hand_and_every_player(name: str, players: int) -> None:
    game = load(name)
    for state in positions(name, players, 4, seed=9):
        seat = state.to_act()[0]
        observation = state.observe(seat)
        full, compact = game.render(observation), game.render_compact(observation)  # type: ignore[attr-defined]
        assert len(compact.splitlines()) < len(full.splitlines())
        if name != "nutty":
            assert next(line for line in full.splitlines() if line.startswith("Your hand")) in compact
        for other in range(players):
            assert re.search(rf"(?m)^[ >▶]*P{other + 1}\b", compact), compact


@pytest.mark.parametrize(("name", "players"), [("nutty", 6), ("squarrels", 6), ("barrell", 4)])
def test_a_tall_notice_gives_way_to_its_one_line_form(name: str, players: int) -> None:
    game = load(name)
    for state in positions(name, players, 5, seed=3):
        seat = state.to_act()[0]
        console = Console(width=80, file=io.StringIO(), color_system=None)
        parts = screens.ScreenParts(
            title="T",
            observation=state.observe(seat),
            log=["an event"] * 20,
            log_title="Since your last move",
            labels=[f"P{s + 1}" for s in range(players)],
            heading=screens.Text("P1, your move:"),
            legal=state.legal_actions(seat),
            notice=screens.Text("\n".join(f"hint line {i}" for i in range(9))),
            short_notice=screens.Text("the hint in one line"),
        )
        for renderable in screens.fit_screen(console, game, parts, 80, 24):
            console.print(renderable)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert text.count("\n") <= 23, text
        assert "hint line 0" in text or "the hint in one line" in text
