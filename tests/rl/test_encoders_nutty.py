"""Nutty Squirrels' observation tensor: fixed size, finite, deterministic, blind to hidden cards, and exact."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.engine import State
from oakwood.games.nutty.cards import KIND_ORDER, KINDS
from oakwood.rl.encoders.nutty import NuttyEncoder, place_index
from oakwood.rl.tensors import Encoder, encoder_for

GAMES = 10
WORLDS = (0, 1, 2)
#: A deck heavy in events and powers (NS-1 custom composition): Fool's Gold, Doppelgängers, thieves, Owls, breaks.
BUSY = json.dumps(
    {"1": 8, "2": 6, "G": 5, "BB": 6, "FG": 4, "SF": 2, "AR": 2, "WG": 2, "DO": 2, "ST": 3, "SR": 1, "SP": 1, "OW": 2,
     "BP": 2, "LA": 1, "SW": 1, "FL": 1}
)  # fmt: skip
#: Most games are cut short by the round limit (NS-14a) so the whole file stays fast; the plain game runs to its
#: natural end except at six seats, where every game stops after three rounds (``test_the_end_triggered`` plays a
#: long six-seat game to its end trigger).
SHORT = {"max_rounds": 4}
#: Variants that reach other phases and fields: chained Arborists, Doppelgänger single use, the end variants.
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"arborist_mode": "chain", "doppelganger_duration": "single_use", **SHORT},
    {"win_at_20": "finish_round", "end_trigger": "all_cards_revealed", "max_rounds": 8},
    {"deck_composition": BUSY, "break_tokens_beyond": "slide_to_break", "max_rounds": 12},
    {"deck_composition": BUSY, "arborist_mode": "chain", "doppelganger_duration": "single_use", **SHORT},
    *([SHORT] * (GAMES - 5)),
)
SOLO_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"solo_keep_events": True},
    {"solo_keep_events": True, "solo_max_actions": 40},
    {"solo_keep_events": True, "deck_composition": BUSY},
    {"deck_composition": BUSY},
    *([{}] * (GAMES - 5)),
)


def seats_of(state: State) -> range:
    return range(state.num_players)


def check_position(enc: Encoder, state: State) -> None:
    """Size, finiteness, determinism and the no-leak property for every seat of one position."""
    for seat in seats_of(state):
        observation = state.observe(seat)
        tensor = enc.encode(observation)
        assert tensor.shape == (enc.size,)
        assert tensor.dtype == np.float32
        assert np.isfinite(tensor).all()
        assert (tensor >= 0).all()
        low, high = enc.bounds()
        bad = ~((low <= tensor) & (tensor <= high))
        outside = [f.name for f in enc.layout.fields if bad[f.offset : f.offset + f.size].any()]
        assert not outside, f"seat {seat}: outside the observation space's bounds: {outside}"
        assert np.array_equal(tensor, enc.encode(observation))
        for k in WORLDS:
            world = state.determinize(seat, random.Random(k))
            assert np.array_equal(tensor, enc.encode(world.observe(seat))), f"seat {seat} world {k}"


@pytest.mark.parametrize("players", [1, 2, 3, 4, 6])
def test_every_step_every_seat(players: int) -> None:
    variants = SOLO_VARIANTS if players == 1 else VARIANTS
    steps = 0
    for seed, options in enumerate(variants):
        if players == 6:  # six seats cost the most per step: three rounds each
            options = {**options, "max_rounds": 3}
        game = oakwood.load("nutty", **options)
        enc = encoder_for(game, players)
        assert enc.size == encoder_for(oakwood.load("nutty"), players).size  # options never change the layout
        bots = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        agents = [make_agent(game, bots[i % 2], seed=seed * 10 + i) for i in range(players)]
        state = game.new_state(players, seed)
        check_position(enc, state)

        def on_step(state: State, seat: int, action: Any) -> None:
            check_position(enc, state)  # noqa: B023 (the encoder of this game)

        result = play_match(game, agents, seed, state=state, on_step=on_step)
        steps += result.steps
        assert result.state.is_terminal()
    assert steps > 0


def test_layout_depends_on_player_count_only() -> None:
    sizes = {players: encoder_for(oakwood.load("nutty"), players).size for players in range(1, 7)}
    assert len(set(sizes.values())) == 6
    custom = json.dumps({"1": 20, "G": 5, "BB": 5, "OW": 2, "SW": 1})
    for players in range(1, 7):
        assert encoder_for(oakwood.load("nutty", deck_composition=custom), players).size == sizes[players]
    layout = encoder_for(oakwood.load("nutty"), 4).layout
    assert all(f.meaning for f in layout.fields)
    assert sum(f.size for f in layout.fields) == layout.size


def test_the_end_triggered() -> None:
    """The end trigger and the turns left (NS-14), in a six-seat game with the busy deck, checked once triggered."""
    game = oakwood.load("nutty", deck_composition=BUSY, break_tokens_beyond="slide_to_break")
    enc = encoder_for(game, 6)
    agents = [make_agent(game, ["heuristic", "random"][i % 2], seed=30 + i) for i in range(6)]
    triggered = 0

    def on_step(state: State, seat: int, action: Any) -> None:
        nonlocal triggered
        observation = state.observe(0)
        if observation["end_triggered"] and not state.is_terminal():
            triggered += 1
            check_position(enc, state)
            tensor = enc.encode(observation)
            assert field(enc, tensor, "end_triggered").tolist() == [1]
            assert field(enc, tensor, "turns_left").tolist() == pytest.approx([observation["turns_left"] / 12])

    play_match(game, agents, 3, on_step=on_step)
    assert triggered > 0


def _differing_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [key for key in a if a[key] != b.get(key)]


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_public_change_changes_the_tensor(players: int) -> None:
    """Two successive observations that differ give different tensors (a move is always seen)."""
    game = oakwood.load("nutty")
    enc = encoder_for(game, players)
    for seed in range(2):
        state = game.new_state(players, seed)
        agents = [make_agent(game, "heuristic", seed=i) for i in range(players)]
        before: list[dict[str, Any]] = [state.observe(s) for s in range(players)]
        changes = 0

        def on_step(state: State, seat: int, action: Any) -> None:
            nonlocal changes
            for s in range(players):
                now = state.observe(s)
                if _differing_keys(now, before[s]):  # noqa: B023
                    changes += 1
                    assert not np.array_equal(enc.encode(now), enc.encode(before[s])), (  # noqa: B023
                        f"step {state.to_notation()}: {_differing_keys(now, before[s])} changed unseen"  # noqa: B023
                    )
                before[s] = now  # noqa: B023

        play_match(game, agents, seed, state=state, on_step=on_step)
        assert changes > 0


def field(enc: Encoder, tensor: np.ndarray, name: str) -> np.ndarray:
    f = enc.layout.field(name)
    return tensor[f.offset : f.offset + f.size]


def test_exact_values_four_players() -> None:
    game = oakwood.load("nutty")
    enc = encoder_for(game, 4)
    state = game.new_state(4, 7)
    mover = state.to_act()[0]
    observer = (mover + 2) % 4  # the mover sits two seats after the observer
    start = enc.encode(state.observe(observer))
    assert field(enc, start, "tree_present").tolist() == [1] * 30
    assert field(enc, start, "tree_face_down").tolist() == [1] * 30
    assert field(enc, start, "tree_kind").sum() == 0
    assert field(enc, start, "tree_brown").tolist() == [0, 0, 1, 0, 1] * 6  # NS-2: cards 3 and 5
    assert field(enc, start, "at").reshape(4, 31)[:, 0].tolist() == [1, 1, 1, 1]  # all on the trunk
    assert field(enc, start, "deck").tolist() == [1.0]  # 24 of 24
    assert field(enc, start, "supply").tolist() == pytest.approx([48 / 60, 1.0])
    assert field(enc, start, "hidden").tolist() == [1.0]
    assert field(enc, start, "ap").tolist() == [3]
    assert field(enc, start, "round").tolist() == pytest.approx([1 / 61])
    assert field(enc, start, "to_act").tolist() == [0, 0, 1, 0]
    assert field(enc, start, "phase").tolist() == [1, 0, 0]  # turn fools over
    assert field(enc, start, "decision").tolist() == [1, 0]

    state.apply(mover, game.parse_action("move L1c1"))
    state.apply(mover, game.parse_action("flip"))
    observation = state.observe(observer)
    card = observation["tree"][0][0]
    tensor = enc.encode(observation)
    kind = KIND_ORDER[card["card"]]
    assert field(enc, tensor, "tree_face_down")[0] == 0
    assert field(enc, tensor, "tree_kind").reshape(30, len(KINDS))[0].tolist() == [
        1 if k == kind else 0 for k in range(len(KINDS))
    ]
    assert field(enc, tensor, "tree_brown")[0] == card["brown"]
    assert field(enc, tensor, "tree_squirrels").reshape(30, 4)[0].tolist() == [0, 0, 1, 0]
    assert field(enc, tensor, "at").reshape(4, 31)[2, place_index("L1c1")] == 1
    assert field(enc, tensor, "ap").tolist() == [observation["ap"]]
    assert field(enc, tensor, "hidden").tolist() == pytest.approx([53 / 54])
    unseen = field(enc, tensor, "unseen")
    assert unseen[kind] == pytest.approx(1 - 1 / game.options.cards[card["card"]])
    # Seen by the mover, the same squirrel is in slot 0.
    own = enc.encode(state.observe(mover))
    assert field(enc, own, "tree_squirrels").reshape(30, 4)[0].tolist() == [1, 0, 0, 0]
    assert field(enc, own, "current").tolist() == [1, 0, 0, 0]
    # A spectator (seat None) sees the table in seat 0's order, as seat 0 does (nothing is private in Nutty).
    assert np.array_equal(enc.encode(state.observe(None)), enc.encode(state.observe(0)))


def test_exact_values_solo() -> None:
    game = oakwood.load("nutty")
    enc = encoder_for(game, 1)
    assert isinstance(enc, NuttyEncoder) and enc.solo
    state = game.new_state(1, 3)
    tensor = enc.encode(state.observe(0))
    assert field(enc, tensor, "market").tolist() == [1, 1, 1, 1]  # SW FL BP LA
    assert field(enc, tensor, "wealth").tolist() == [0]
    assert field(enc, tensor, "tree_brown").sum() == 0  # no setup acorns in solo
    assert field(enc, tensor, "deck").tolist() == [1.0]  # 6 of the 36 kept cards
    assert field(enc, tensor, "phase").tolist() == [1, 0, 0, 0]  # play fools bribe over
    kept = {"0", "1", "2", "3", "G", "OW", "ST", "BB"}
    assert field(enc, tensor, "unseen").tolist() == [1.0 if k in kept else 0.0 for k in KINDS]
    state.apply(0, game.parse_action("move L1c1"))  # landing flips the card
    observation = state.observe(0)
    tensor = enc.encode(observation)
    assert field(enc, tensor, "tree_face_down")[0] == 0
    assert field(enc, tensor, "at").tolist()[1] == 1
    assert field(enc, tensor, "actions_taken").tolist() == pytest.approx([1 / 3000])
    assert field(enc, tensor, "points").tolist() == pytest.approx([observation["boards"][0]["points"] / 20])


def test_the_docs_show_the_layouts() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "rl-tensors-nutty.md"
    text = docs.read_text(encoding="utf-8")
    for players in (4, 1):
        assert encoder_for(oakwood.load("nutty"), players).describe() in text


def test_fools_gold_choice_solo() -> None:
    """A solo Fool's Gold with a choice (NS-8): the phase and the places the golden may come from."""
    game = oakwood.load("nutty", solo_keep_events=True, deck_composition=BUSY)
    enc = encoder_for(game, 1)
    seen: list[np.ndarray] = []

    def on_step(state: State, seat: int, action: Any) -> None:
        observation = state.observe(0)
        if observation["phase"] == "fools" and not seen:
            check_position(enc, state)
            seen.append(enc.encode(observation))
            assert observation["fools_places"] == ["cheeks", "nest"]

    play_match(game, [make_agent(game, "heuristic", seed=0)], 9, on_step=on_step)
    assert seen
    assert field(enc, seen[0], "phase").tolist() == [0, 1, 0, 0]  # play fools bribe over
    assert field(enc, seen[0], "fools_places").tolist() == [1, 0, 1, 0]  # cheeks backpack nest burrow
