"""Direct tensors and masks against their definitions (issue 34, "The decision on the tensors").

A game's encoder may compute its tensor straight from the state (``Encoder.encode_state`` overridden, so
``encoder.direct``); the definition stays ``encode(state.observe(seat))``. For every game whose encoder has a direct
path, every table size and every option set that changes an observation, seeded random games are played to the
end and at every step:

- for every seat and the spectator (``None``): the direct tensor equals ``encode(observe(seat))`` exactly
  (``np.array_equal``: same shape, dtype and numbers), and ``fill_state`` writes the same numbers over a dirty
  buffer;
- for every seat: the adapters' mask (``MaskCache``) equals the mask of the legal actions (``action_mask``), to
  act or not;
- no leak on the direct path: for every seat, the direct tensor of every ``determinize(seat)`` world equals the
  truth's (the spectator's too).

A game without a direct path is skipped by the sweep; :data:`DIRECT` names the games that must have one, so a path
removed by mistake fails here rather than going unchecked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import oakwood  # noqa: E402
from oakwood.engine import NotYourTurnError, Rng, State  # noqa: E402
from oakwood.rl.common import observation_encoder  # noqa: E402
from oakwood.rl.gymnasium import MaskCache, end_game_index  # noqa: E402
from oakwood.rl.tensors import Encoder, action_mask  # noqa: E402
from tests.conformance import test_barrell  # noqa: E402

#: The games whose encoders have a direct path.
DIRECT = {"barrell", "nutty", "squarrels"}

#: Per game, the option sets swept: the defaults, the conformance sweep's variant sets (every variant switched on
#: at least once) and the encoder tests' variant sets (those that change what an observation holds: hidden
#: mulligans, split gifts, cards_on_table_only, provisional scores…).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "barrell": [
        *test_barrell.VARIANTS.values(),
        {"mulligan_mode": "simultaneous", "heart_gift": "split_per_card", "jod_scope": "cards_on_table_only"},
        {"heart_gift_timing": "seat_order", "joker_timing": "after_provisional_score", "jos_mode": "rotate_all"},
        {"discard_recycle": "every_battle", "battle_tie": "all_tied_win", "jos_initiator_may_look": True},
    ],
    # Every table size 1-6 (solo has its own fields); the options change the scales (max_rounds, the composition,
    # solo_max_actions) and the fields reached: the conformance sweep's variant set, and a deck heavy in events and
    # powers (Fool's Gold, Doppelgängers, thieves, Owls, breaks) with the solo events kept.
    "nutty": [
        {"max_rounds": 6},
        {
            "break_tokens_beyond": "slide_to_break",
            "wind_gust_turn_end": "always",
            "fools_gold_includes_backpack": False,
            "arborist_mode": "chain",
            "lasso_lateral_with_flying": True,
            "doppelganger_duration": "single_use",
            "doppel_sticky": "take_tracked_loot",
            "end_trigger": "all_cards_revealed",
            "max_rounds": 8,
            "win_at_20": "finish_round",
            "tb_golden_scope": "all_possessed",
            "solo_keep_events": True,
        },
        {
            "deck_composition": json.dumps(
                {"1": 8, "2": 6, "G": 5, "BB": 6, "FG": 4, "SF": 2, "AR": 2, "WG": 2, "DO": 2, "ST": 3, "SR": 1}
                | {"SP": 1, "OW": 2, "BP": 2, "LA": 1, "SW": 1, "FL": 1}
            ),
            "solo_keep_events": True,
            "solo_max_actions": 300,
            "max_rounds": 12,
        },
    ],
    # One round (realtime Hoard races), a match of several rounds, the conformance sweep's two variant sets
    # (commit races in random and seat order, the Golden wild in sets and lost for the match, forced draws to 7…)
    # and a custom deck.
    "squarrels": [
        {"single_round": True},
        {"target_score": 25},
        {
            "single_round": True,
            "setup_winter_reshuffle": "winter_only",
            "whirlwind_draw": "mandatory_to_7",
            "quarrel_winner_may_draw": True,
            "quarrel_exhaustion": "survivor_plays",
            "golden_wild_in_sets": True,
            "hoard_drawer_may_race": True,
            "hoard_empty_skips": True,
            "hoard_race": "random",
            "set_scoring": "per_card",
        },
        {
            "target_score": 25,
            "quarrel_exhaustion": "any_out_draws",
            "golden_lost_scope": "match",
            "hoard_race": "seat_order",
            "target_tie": "shared_win",
        },
        # SQ-26: a custom deck with more of a kind than the standard one (60 ones): the scales follow the deck.
        {
            "deck_composition": json.dumps(
                {"R": 1, "1": 60, "2": 30, "3": 24, "4": 12, "5": 12, "G": 1, "Q": 10, "H": 10, "A": 8, "V": 3, "W": 1}
            ),
            "single_round": True,
            "golden_wild_in_sets": True,
        },
    ],
}
#: Seeded random games per (options, table size); worlds drawn per seat at every step for the no-leak check.
GAMES = 3
WORLDS = 1


def _tables() -> list[tuple[str, int, int]]:
    tables = []
    for name in sorted(DIRECT):
        game = oakwood.load(name)
        for players in range(game.min_players, game.max_players + 1):
            tables += [(name, players, k) for k in range(len(OPTIONS[name]))]
    return tables


def _differ(encoder: Encoder, a: Any, b: Any) -> list[str]:
    """The layout fields where two tensors differ."""
    return [
        f.name
        for f in encoder.layout.fields
        if not np.array_equal(a[f.offset : f.offset + f.size], b[f.offset : f.offset + f.size])
    ]


def check_direct_tensors(encoder: Encoder, state: State, rng: Rng, worlds: int, where: str) -> None:
    """The direct tensor of every seat and the spectator equals ``encode(observe(seat))`` and is the same in
    every world drawn for the seat."""
    dirty = np.full(encoder.size, np.nan, dtype=np.float32)
    for seat in [None, *range(state.num_players)]:
        definition = encoder.encode(state.observe(seat))
        direct = encoder.encode_state(state, seat)
        assert direct.dtype == np.float32 and direct.shape == (encoder.size,)
        if not np.array_equal(direct, definition):
            pytest.fail(f"{where}, seat {seat}: the direct tensor differs in {_differ(encoder, direct, definition)}")
        dirty.fill(np.nan)
        encoder.fill_state(state, seat, dirty)
        assert np.array_equal(dirty, definition), f"{where}, seat {seat}: fill_state differs"
        if seat is None:
            continue
        for _ in range(worlds):
            world = state.determinize(seat, rng)
            seen = encoder.encode_state(world, seat)
            if not np.array_equal(seen, direct):
                pytest.fail(f"{where}, seat {seat}: a world's direct tensor changes {_differ(encoder, seen, direct)}")
            assert np.array_equal(encoder.encode_state(world, None), encoder.encode_state(state, None))


def check_masks(masks: MaskCache, state: State, where: str) -> None:
    """The adapters' mask of every seat equals the mask of its legal actions (all 0 when it is not to act)."""
    game = state.game
    to_act = state.to_act()
    for seat in range(state.num_players):
        definition = action_mask(game, state, seat)
        if seat in to_act:
            assert np.array_equal(masks.mask(state, seat), definition), f"{where}, seat {seat}: the mask differs"
        else:
            assert not definition.any()


def sweep(name: str, players: int, options: dict[str, Any], seeds: range, worlds: int) -> int:
    """Play each seeded random game to the end, checking every step; the number of positions checked."""
    game = oakwood.load(name, **options)
    encoder = observation_encoder(game, players)
    assert encoder.direct, f"{name} has no direct path"
    masks = MaskCache()
    end_game = end_game_index(game)
    checked = 0
    for seed in seeds:
        state = game.new_state(players, seed)
        state.record_events = False
        rng = Rng(seed)
        step = 0
        while True:
            where = f"{name} {players}p {options} seed {seed} step {step}"
            check_direct_tensors(encoder, state, rng, worlds, where)
            checked += 1
            if state.is_terminal():
                break
            check_masks(masks, state, where)
            seat = rng.choice(state.to_act())
            legal = state.legal_actions(seat)
            if len(legal) > 1 and end_game is not None:
                # Nutty solo: "end game" is legal from the first move; skipped while other moves remain, or random
                # play would end most solo games at once and check nothing.
                legal = [action for action in legal if game.encode(action) != end_game]
            state.apply(seat, rng.choice(legal))
            step += 1
    return checked


def test_the_games_with_a_direct_path() -> None:
    for name in ("squarrels", "barrell", "nutty"):
        game = oakwood.load(name)
        assert observation_encoder(game, game.min_players).direct == (name in DIRECT), name


@pytest.mark.parametrize("name", sorted(DIRECT))
def test_direct_path_refuses_what_observe_refuses(name: str) -> None:
    game = oakwood.load(name)
    players = max(2, game.min_players)
    state = game.new_state(players, 1)
    encoder = observation_encoder(game, players)
    buffer = np.zeros(encoder.size, dtype=np.float32)
    for seat in (-1, players, 1.0, True, "0"):
        with pytest.raises(NotYourTurnError):
            state.observe(seat)  # type: ignore[arg-type]
        with pytest.raises(NotYourTurnError):
            encoder.encode_state(state, seat)  # type: ignore[arg-type]
        with pytest.raises(NotYourTurnError):
            encoder.fill_state(state, seat, buffer)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players", "variant"), _tables())
def test_direct_tensor_is_the_observation_s_at_every_step(name: str, players: int, variant: int) -> None:
    options = OPTIONS[name][variant]
    checked = sweep(name, players, options, range(100 * players + variant, 100 * players + variant + GAMES), WORLDS)
    assert checked > 10 * GAMES  # whole games were played, not ended at once


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "variant"), _tables())
def test_direct_tensor_sweep_of_twenty_games(name: str, players: int, variant: int) -> None:
    sweep(name, players, OPTIONS[name][variant], range(1000, 1020), 2)
