"""The hint advisor: it searches from the asking seat's view only, recommends what the expert bot would play,
and where ``expert`` does not search names the move without estimates."""

from __future__ import annotations

import pytest
from rich.console import Console

from oakwood.cli.hints import HintAdvisor, render_hint
from oakwood.engine import Rng, load
from tests.cli.toygame import TOY_NAME


def text_of(renderable: object) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_hint_depends_only_on_what_the_seat_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    # S'Quarrels: a world is a function of what the seat knows (the conformance kit checks it), so advice from
    # the truth and from a world the seat cannot tell apart from it must be the same, search for search.
    game = load("squarrels", single_round=True)
    monkeypatch.setattr(type(game), "level_iterations", (50, 150))  # a short expert search: a quick test
    state = game.new_state(3, 11)
    seat = state.to_act()[0]
    state.apply(seat, state.legal_actions(seat)[0])  # the draw: now there is a choice to make
    seat = state.to_act()[0]
    world = state.determinize(seat, Rng(5))  # every hidden card dealt again
    assert world.observe(seat) == state.observe(seat) and world.to_notation() != state.to_notation()
    # seconds=60: the iteration budget ends both searches, so they are the same length
    truth = HintAdvisor(game, seed=2, seconds=60.0).advise(state, seat)
    other = HintAdvisor(game, seed=2, seconds=60.0).advise(world, seat)
    assert truth.iterations == other.iterations == 150 and len(truth.options) > 1
    assert [(o.action, o.visits, o.chance) for o in truth.options] == [
        (o.action, o.visits, o.chance) for o in other.options
    ]


def test_the_recommended_option_is_what_the_bot_would_play_and_every_legal_move_is_listed() -> None:
    game = load(TOY_NAME)
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    before = state.to_notation()
    advisor = HintAdvisor(game, seed=1)
    hint = advisor.advise(state, seat)
    assert state.to_notation() == before, "advice never touches the state"
    legal = state.legal_actions(seat)
    assert sorted(o.number for o in hint.options) == list(range(1, len(legal) + 1))
    assert all(legal[o.number - 1] == o.action for o in hint.options)
    report = advisor.bot(seat).last
    assert report is not None and hint.recommended.action == report.ranking[0]
    # the most searched move, or the guide's (the heuristic's) when search did not beat it clearly
    guided = advisor.bot(seat).tree[(seat, repr(state.observe(seat)))].hint
    assert hint.recommended.visits == max(o.visits for o in hint.options) or hint.recommended.action == guided
    assert all(o.chance is not None and 0.0 <= o.chance <= 1.0 for o in hint.options)
    shown = text_of(render_hint(game, hint, searched=True))
    assert f"★  {hint.recommended.number}  {hint.recommended.action}" in shown
    assert "chance to win" in shown


def test_where_expert_is_the_heuristic_the_hint_names_its_move_without_percentages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load("nutty")
    monkeypatch.setattr(type(game), "level_iterations", None)  # a game whose search is not (yet) measured stronger
    state = game.new_state(1, 3)
    seat = state.to_act()[0]
    advisor = HintAdvisor(game, seed=1)
    assert not advisor.searches
    hint = advisor.advise(state, seat)
    assert len(hint.options) == 1 and hint.iterations == 0 and hint.options[0].chance is None
    assert hint.options[0].action in state.legal_actions(seat)
    shown = text_of(render_hint(game, hint, searched=False))
    assert "the expert bot would play" in shown and "heuristic bot, which gives no estimates" in shown
    assert "%" not in shown


def test_the_hint_bots_keep_one_search_tree_per_seat() -> None:
    game = load(TOY_NAME)
    advisor = HintAdvisor(game, seed=1)
    assert advisor.bot(0) is advisor.bot(0) and advisor.bot(0) is not advisor.bot(1)
