"""Observation tensors of S'Quarrels and Barrell: size, finiteness, determinism, no leak of hidden information
(a seat's tensor is the same in the truth and in every world drawn for it), and exact values of a few fields."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import oakwood  # noqa: E402
from oakwood.agents import make_agent  # noqa: E402
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.engine import State  # noqa: E402
from oakwood.rl.tensors import Encoder, encoder_for  # noqa: E402

#: The default run: a few seeded games per game and player count, one world per seat and step (the seeds cover
#: one-round games, a multi-round match and a variant); ``-m slow`` runs twenty games with two worlds each.
QUICK_SEEDS = (1, 2, 3, 4)
QUICK_WORLDS = 1
FULL_SEEDS = tuple(range(20))
FULL_WORLDS = 2

#: Variants that change what the observation holds (extra fields, commit races, hidden mulligans…); every
#: fourth seed plays one of them, the rest the defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "squarrels": [
        {"hoard_race": "random", "golden_wild_in_sets": True, "single_round": True},
        {"hoard_race": "seat_order", "golden_lost_scope": "match", "target_score": 20},
        {"whirlwind_draw": "mandatory_to_7", "quarrel_winner_may_draw": True, "single_round": True},
    ],
    "barrell": [
        {"mulligan_mode": "simultaneous", "heart_gift": "split_per_card", "jod_scope": "cards_on_table_only"},
        {"heart_gift_timing": "seat_order", "joker_timing": "after_provisional_score", "jos_mode": "rotate_all"},
        {"discard_recycle": "every_battle", "battle_tie": "all_tied_win", "jos_initiator_may_look": True},
    ],
}


def _options(name: str, seed: int) -> dict[str, Any]:
    if seed % 4 == 3:
        return VARIANTS[name][seed // 4 % len(VARIANTS[name])]
    if name == "squarrels":
        # Most S'Quarrels games play one round and every fourth a short match, to keep the test fast.
        return {"target_score": 25} if seed % 4 == 0 else {"single_round": True}
    return {}


def _check(encoder: Encoder, state: State, step: int, worlds: int, reached: Any) -> None:
    """Every seat's tensor: its size, finite, within its fields' bounds, the same twice, the same in ``worlds`` worlds
    drawn for the seat;
    ``reached`` (an array of the tensor's size) keeps the largest magnitude each number has taken."""
    for seat in range(state.num_players):
        observation = state.observe(seat)
        truth = encoder.encode(observation)
        assert truth.shape == (encoder.size,)
        assert truth.dtype == np.float32
        assert np.isfinite(truth).all()
        low, high = encoder.bounds()
        bad = ~((low <= truth) & (truth <= high))
        if bad.any():
            outside = [f.name for f in encoder.layout.fields if bad[f.offset : f.offset + f.size].any()]
            pytest.fail(f"seat {seat} at step {step}: outside the observation space's bounds: {outside}")
        assert np.array_equal(truth, encoder.encode(observation))
        np.maximum(reached, np.abs(truth), out=reached)
        for k in range(worlds):
            world = state.determinize(seat, random.Random((step * worlds + k) * 8 + seat))
            seen = encoder.encode(world.observe(seat))
            if not np.array_equal(truth, seen):
                differ = [f.name for f in encoder.layout.fields if (truth != seen)[f.offset : f.offset + f.size].any()]
                pytest.fail(f"seat {seat} at step {step}: a world changes {differ}")


TABLES = [("squarrels", n) for n in range(2, 7)] + [("barrell", n) for n in range(2, 5)]


#: Fields that may stay zero through a short sweep: rare events (a Golden lost for the match, a J♦ cancelling a
#: Jack, three drawn battles), variant-only fields, and what a table size never has (no Hoard race with 2
#: S'Quarrels players, no heart gift to choose with 2 Barrell players). Every other field must be used.
RARE: dict[str, set[str]] = {
    "squarrels": {"golden_out_of_match", "must_draw_to_7", "seat_stored_golden"}
    | {"race_on", "race_drawer", "race_eligible", "race_passed", "race_committed", "race_your_answer"},
    "barrell": {"drawn_streak", "queen_zone", "cancelled", "my_gift", "my_gifts", "provisional_known"}
    | {"seat_provisional", "seat_to_give", "seat_covered", "covered"},
}


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_tensor_is_sized_finite_stable_and_leaks_nothing(name: str, players: int) -> None:
    used = _sweep(name, players, QUICK_SEEDS, QUICK_WORLDS)
    every = {f.name for f in encoder_for(oakwood.load(name), players).layout.fields}
    assert every - used <= RARE[name], f"never set: {sorted(every - used - RARE[name])}"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_tensor_sweep_of_twenty_games(name: str, players: int) -> None:
    _sweep(name, players, FULL_SEEDS, FULL_WORLDS)


def _sweep(name: str, players: int, seeds: tuple[int, ...], worlds: int) -> set[str]:
    """Play each seeded game (heuristic and random bots), check every seat's tensor at every step, and return
    the names of the fields that were ever non-zero."""
    used: set[str] = set()
    for seed in seeds:
        game = oakwood.load(name, **_options(name, seed))
        encoder = encoder_for(game, players)
        agents = [
            make_agent(game, "heuristic" if (seat + seed) % 2 else "random", seed=seed) for seat in range(players)
        ]
        reached = np.zeros(encoder.size, dtype=np.float32)
        first = game.new_state(players, seed)
        _check(encoder, first, 0, worlds, reached)
        on_step = _checker(encoder, worlds, reached)
        play_match(game, agents, seed, state=first, on_step=on_step, record_events=False)
        used |= {f.name for f in encoder.layout.fields if reached[f.offset : f.offset + f.size].any()}
    return used


def _checker(encoder: Encoder, worlds: int, reached: Any) -> Callable[[State, int, object], None]:
    """A match's ``on_step``: check every seat after each step."""
    steps = [0]

    def on_step(state: State, seat: int, action: object) -> None:
        steps[0] += 1
        _check(encoder, state, steps[0], worlds, reached)

    return on_step


@pytest.mark.parametrize(("name", "players"), [("squarrels", 2), ("squarrels", 6), ("barrell", 2), ("barrell", 4)])
def test_layout_depends_only_on_the_game_and_the_table(name: str, players: int) -> None:
    game = oakwood.load(name)
    first, second = encoder_for(game, players), encoder_for(game, players)
    assert first.layout == second.layout
    assert len({f.name for f in first.layout.fields}) == len(first.layout.fields)
    assert all(f.size > 0 and f.meaning for f in first.layout.fields)
    assert first.describe().count("\n") == len(first.layout.fields) + 1
    with pytest.raises(ValueError):
        encoder_for(game, game.max_players + 1)


def test_variant_fields_appear_only_under_their_options() -> None:
    plain = {f.name for f in encoder_for(oakwood.load("squarrels"), 4).layout.fields}
    wild = {f.name for f in encoder_for(oakwood.load("squarrels", golden_wild_in_sets=True), 4).layout.fields}
    assert wild - plain == {"seat_stored_golden"}
    plain = {f.name for f in encoder_for(oakwood.load("barrell"), 3).layout.fields}
    split = encoder_for(oakwood.load("barrell", heart_gift="split_per_card", jod_scope="cards_on_table_only"), 3)
    assert {f.name for f in split.layout.fields} - plain == {"my_gifts", "seat_covered", "covered"}


def _field(encoder: Encoder, tensor: Any, name: str) -> list[float]:
    f = encoder.layout.field(name)
    return [float(x) for x in tensor[f.offset : f.offset + f.size]]


@pytest.mark.parametrize("name", ["squarrels", "barrell"])
def test_different_public_situations_give_different_tensors(name: str) -> None:
    game = oakwood.load(name)
    encoder = encoder_for(game, 3)
    state = game.new_state(3, 5)
    observation = state.observe(0)
    tensor = encoder.encode(observation)
    # Another seat sees another hand (and itself first).
    assert not np.array_equal(tensor, encoder.encode(state.observe(1)))
    # The same observation with one card fewer in hand changes the hand fields and nothing before them.
    smaller = dict(observation, hand=observation["hand"][1:])
    changed = encoder.encode(smaller)
    assert _field(encoder, changed, "hand") != _field(encoder, tensor, "hand")
    hand = encoder.layout.field("hand")
    assert np.array_equal(changed[: hand.offset], tensor[: hand.offset])
    # A step of play changes the tensor of every seat.
    after = state.clone()
    mover = after.to_act()[0]
    after.apply(mover, after.legal_actions(mover)[0])
    for seat in range(3):
        assert not np.array_equal(encoder.encode(state.observe(seat)), encoder.encode(after.observe(seat)))


def test_squarrels_fields_hold_the_seeded_position() -> None:
    game = oakwood.load("squarrels")
    encoder = encoder_for(game, 4)
    state = game.new_state(4, 11)
    seat = 2
    observation = state.observe(seat)
    tensor = encoder.encode(observation)
    order = ["rotten", "1", "2", "3", "4", "5", "golden"]
    hand = [float(observation["hand"].count(kind)) for kind in order]
    assert _field(encoder, tensor, "hand") == hand
    assert _field(encoder, tensor, "hand_size") == pytest.approx([sum(hand) / 7])
    assert _field(encoder, tensor, "phase") == [1.0, 0, 0, 0, 0, 0]  # must_draw
    assert _field(encoder, tensor, "decision") == [1.0, 0, 0, 0]  # turn
    assert _field(encoder, tensor, "deck_size") == pytest.approx([observation["deck_size"] / 120])
    # Seat blocks start with the observer and go clockwise.
    sizes = [observation["hand_sizes"][(seat + r) % 4] / 7 for r in range(4)]
    assert _field(encoder, tensor, "seat_hand_size") == pytest.approx(sizes)
    active = observation["active"]
    assert _field(encoder, tensor, "seat_active") == [float(r == (active - seat) % 4) for r in range(4)]
    assert _field(encoder, tensor, "seat_to_act") == _field(encoder, tensor, "seat_active")
    assert _field(encoder, tensor, "seat_total") == [0.0] * 4
    assert _field(encoder, tensor, "quarrel_on") == [0.0]
    # Nothing is placed yet but the hand and the Action cards set aside at the deal.
    unseen = _field(encoder, tensor, "unseen")
    assert unseen[0] == 1.0 - hand[0]  # the Rotten: unseen unless in hand
    assert unseen[1] == pytest.approx((30 - hand[1]) / 30)


def test_squarrels_storage_and_quarrel_fields() -> None:
    game = oakwood.load("squarrels")
    encoder = encoder_for(game, 3)
    base = game.new_state(3, 2).observe(0)
    # Built from a real observation: seat 1 (block 1) stored 2s and 5s, seat 2 is in a Quarrel tie.
    observation = dict(
        base,
        storage=[[], [2, 5, 2], [4]],
        quarrel={
            "drawer": 2,
            "live": [2, 0],
            "committed": [2],
            "your_play": "3",
            "pot": [{"seat": 2, "card": "5"}, {"seat": 0, "card": "5"}, {"seat": 1, "card": "1"}],
        },
        phase="quarrel",
        decision="commit",
    )
    tensor = encoder.encode(observation)
    assert _field(encoder, tensor, "seat_stored") == [0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 1, 0]
    assert _field(encoder, tensor, "seat_stored_points") == pytest.approx([0, 9 / 50, 4 / 50])
    assert _field(encoder, tensor, "quarrel_drawer") == [0, 0, 1]
    assert _field(encoder, tensor, "quarrel_live") == [1, 0, 1]
    assert _field(encoder, tensor, "quarrel_committed") == [0, 0, 1]
    assert _field(encoder, tensor, "quarrel_your_play") == [0, 0, 0, 1, 0, 0, 0]
    pot = _field(encoder, tensor, "quarrel_pot")
    assert pot[0:7] == [0, 0, 0, 0, 0, 1, 0] and pot[7:14] == [0, 1, 0, 0, 0, 0, 0] and pot[14:] == [0] * 5 + [1, 0]
    # Seen from seat 1, seat 1's block comes first.
    seen_by_1 = encoder.encode(dict(observation, seat=1, hand=[], your_round_score=0))
    assert _field(encoder, seen_by_1, "quarrel_drawer") == [0, 1, 0]


def test_barrell_fields_hold_the_seeded_position() -> None:
    game = oakwood.load("barrell")
    encoder = encoder_for(game, 3)
    state = game.new_state(3, 4)
    seat = 1
    observation = state.observe(seat)
    tensor = encoder.encode(observation)
    hand = _field(encoder, tensor, "hand")
    names = [name for name, bit in zip(_card_names(), hand, strict=True) if bit]
    assert sorted(names) == sorted(observation["hand"])
    assert sum(_field(encoder, tensor, "hand_suits")) == len(observation["hand"])
    assert sum(_field(encoder, tensor, "hand_ranks")) == len(observation["hand"])
    assert _field(encoder, tensor, "phase")[0] == 1.0  # mulligan
    assert _field(encoder, tensor, "deck_size") == pytest.approx([observation["deck_size"] / 54])
    sizes = [observation["hand_sizes"][(seat + r) % 3] / 10 for r in range(3)]
    assert _field(encoder, tensor, "seat_hand_size") == pytest.approx(sizes)
    first = observation["first_player"]
    assert _field(encoder, tensor, "seat_first") == [float(r == (first - seat) % 3) for r in range(3)]
    # Before any play, everything but the own hand is unseen.
    unseen = _field(encoder, tensor, "unseen")
    assert [u + h for u, h in zip(unseen, hand, strict=True)] == [1.0] * 54


def test_barrell_field_cards_and_scores() -> None:
    game = oakwood.load("barrell")
    encoder = encoder_for(game, 2)
    base = game.new_state(2, 1).observe(0)
    observation = dict(
        base,
        phase="play",
        fields=[
            [{"card": "7S", "face_up": False}, {"card": "JC", "face_up": True}],
            [{"card": None, "face_up": False}],
        ],
        battle_scores=[12, -4],
        battle_winners=[0],
        wins=[1, 0],
    )
    tensor = encoder.encode(observation)
    field = _field(encoder, tensor, "seat_field")
    assert [i for i, x in enumerate(field) if x] == [10, 3 * 13 + 6]  # J♣ (id 10) and 7♠ (id 45), own block
    assert _field(encoder, tensor, "seat_field_size") == pytest.approx([0.2, 0.1])
    assert _field(encoder, tensor, "seat_field_face_up") == pytest.approx([0.1, 0.0])
    assert _field(encoder, tensor, "seat_field_hidden") == pytest.approx([0.0, 0.1])
    assert _field(encoder, tensor, "seat_battle_score") == pytest.approx([12 / 40, -4 / 40])
    assert _field(encoder, tensor, "seat_wins") == [0.5, 0.0]
    assert _field(encoder, tensor, "seat_battle_winner") == [1.0, 0.0]
    assert _field(encoder, tensor, "unseen")[10] == 0.0


def _card_names() -> list[str]:
    from oakwood.games.barrell.cards import NAMES

    return list(NAMES)


def _play_and_check(name: str, players: int, seed: int, check: Callable[[Any, Encoder, int], None]) -> None:
    """Play a seeded game between heuristic bots and call ``check(state, encoder, seat)`` for every seat and step."""
    game = oakwood.load(name, single_round=True) if name == "squarrels" else oakwood.load(name)
    encoder = encoder_for(game, players)

    def on_step(state: State, seat: int, action: object) -> None:
        for observer in range(players):
            check(state, encoder, observer)

    agents = [make_agent(game, "heuristic", seed=seed + seat) for seat in range(players)]
    play_match(game, agents, seed, on_step=on_step, record_events=False)


@pytest.mark.parametrize("players", [3, 5])
def test_squarrels_unseen_counts_the_cards_hidden_from_the_seat(players: int) -> None:
    from oakwood.games.squarrels.cards import COUNTS, HAND_KINDS, NAME_TO_CARD

    def check(state: Any, encoder: Encoder, seat: int) -> None:
        observation = state.observe(seat)
        # The truth: the Deck, other hands beyond what the seat knows, others' Hoard discards and Quarrel picks.
        hidden = [0] * HAND_KINDS
        for card in state.deck:
            if card < HAND_KINDS:
                hidden[card] += 1
        for other in range(players):
            if other != seat:
                for kind in range(HAND_KINDS):
                    hidden[kind] += state.hands[other][kind]
                for name in observation["known_in_hands"][other]:
                    hidden[NAME_TO_CARD[name]] -= 1
                if other in state.q_commits:
                    hidden[state.q_commits[other]] += 1
        hidden = [
            h + sum(1 for card, owner in state.hoard if owner != seat and card == k) for k, h in enumerate(hidden)
        ]
        unseen = _field(encoder, encoder.encode(observation), "unseen")
        assert unseen == pytest.approx([h / COUNTS[k] for k, h in enumerate(hidden)])

    _play_and_check("squarrels", players, 21, check)


def test_barrell_unseen_cards_are_the_hidden_ones() -> None:
    from oakwood.games.barrell.cards import BIT, DECK_SIZE

    def check(state: Any, encoder: Encoder, seat: int) -> None:
        unseen = _field(encoder, encoder.encode(state.observe(seat)), "unseen")
        hidden_places = set(state.deck)  # the Deck is never seen…
        for other in range(state.num_players):
            for card in range(DECK_SIZE):
                if other != seat and (state.hands[other] | state.aside[other]) & BIT[card]:
                    hidden_places.add(card)  # …another hand may be
            for card in state.fields[other]:
                if not state.face_up & BIT[card]:
                    hidden_places.add(card)  # …and so may a face-down card
        assert set(state.deck) <= {card for card in range(DECK_SIZE) if unseen[card]}
        assert {card for card in range(DECK_SIZE) if unseen[card]} <= hidden_places

    _play_and_check("barrell", 3, 8, check)
