"""SQ-26: the deck as data. ``deck_composition`` is ``standard`` (the rulebook's 120 cards) or custom counts;
a default game is unchanged card for card, a custom deck is validated in one line, dealt, conserved, searched
over, encoded and written like any option."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import numpy as np
import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.engine import InvalidNotationError, InvalidOptionError, Rng, State
from oakwood.engine.replay import Replay
from oakwood.games.squarrels.cards import COUNTS, SYMBOLS
from oakwood.games.squarrels.consistency import most_in_a_round
from oakwood.games.squarrels.state import SQuarrelsState
from oakwood.rl.tensors import encoder_for

#: A small deck: no 4s or 5s, no Ambush or Whirlwind, 19 Number and Rotten cards (two hands of 7, not three).
SMALL = {"R": 1, "1": 9, "2": 6, "3": 3, "G": 1, "Q": 2, "H": 2, "W": 1}
#: A large deck: more of everything than the rulebook's, 60 ones (more of a kind than the standard 30).
LARGE = {"R": 1, "1": 60, "2": 30, "3": 24, "4": 12, "5": 12, "G": 1, "Q": 10, "H": 10, "A": 8, "V": 3, "W": 1}


def load(deck: dict[str, int] | str, **options: object) -> oakwood.Game:
    return oakwood.load("squarrels", deck_composition=deck if isinstance(deck, str) else json.dumps(deck), **options)


def fingerprint(game: oakwood.Game, players: int, seed: int, steps: int = 400) -> str:
    """The deal of ``seed`` and the position after ``steps`` seeded random moves, hashed."""
    state = game.new_state(players, seed)
    digest = hashlib.sha256(state.to_notation().encode())
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    digest.update(state.to_notation().encode())
    return digest.hexdigest()[:16]


def test_the_default_deck_deals_and_plays_exactly_as_before_the_option() -> None:
    """Hashes taken with the code before ``deck_composition`` existed (commit f22433c): same seeds, same deals,
    same random games, same notation; naming the standard deck or writing its counts changes nothing."""
    before = {
        (2, 1): "c1145d333050669a", (2, 2024): "0875b6596f20b08f",
        (4, 1): "bd2ac723ec88d6cc", (4, 2024): "520d213974332f8c",
        (6, 1): "5029cd4f76a01f28", (6, 2024): "a999878f7cf074c3",
    }  # fmt: skip
    written = json.dumps(dict(zip(SYMBOLS, COUNTS, strict=True)))
    for game in (oakwood.load("squarrels"), load("standard"), load(written)):
        assert game.options.deck_composition == "standard"
        assert game.options == oakwood.load("squarrels").options
        for (players, seed), expected in before.items():
            assert fingerprint(game, players, seed) == expected, (players, seed)


def test_a_custom_deck_has_one_canonical_text_and_travels_with_the_options() -> None:
    by_name = load({"winter": 1, "rotten": 1, "1": 9, "2": 6, "3": 3, "golden": 1, "quarrel": 2, "hoard": 2})
    by_symbol = load(SMALL)
    with_zeros = load({**SMALL, "4": 0, "A": 0})
    text = by_symbol.options.deck_composition
    assert text == '{"R":1,"1":9,"2":6,"3":3,"G":1,"Q":2,"H":2,"W":1}'
    assert by_name.options == by_symbol.options == with_zeros.options
    assert by_symbol.options.cards == (1, 9, 6, 3, 0, 0, 1, 2, 2, 0, 0, 1)
    # A replay (the store's and the saved game's form) keeps the deck and replays the same game.
    state = by_symbol.new_state(2, 5)
    rng = Rng(5)
    for _ in range(60):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    record = json.loads(json.dumps(state.replay().to_json()))
    assert record["options"]["deck_composition"] == text
    assert Replay.from_json(record).play().to_notation() == state.to_notation()
    saved = json.loads(json.dumps(state.to_json()))
    assert oakwood.load("squarrels", **saved["options"]).from_json(saved).to_notation() == state.to_notation()


def test_an_old_save_without_the_option_loads_under_the_standard_deck() -> None:
    game = oakwood.load("squarrels")
    state = game.new_state(3, 9)
    saved = state.to_json()
    del saved["options"]["deck_composition"]  # written before the option existed
    assert game.from_json(saved).to_notation() == state.to_notation()


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("tiny", "must be standard or a JSON object of card: count, got 'tiny'"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be standard or a JSON object"),
        ('{"X": 1}', "unknown card 'X' (cards: R 1 2 3 4 5 G Q H A V W)"),
        ('{"1": -1, "W": 1}', "the count of '1' must be a whole number from 0 to 300, got -1"),
        ('{"1": 2.5, "W": 1}', "the count of '1' must be a whole number"),
        ('{"1": true, "W": 1}', "the count of '1' must be a whole number"),
        ('{"1": 30, "2": 30}', "exactly 1 Winter (it ends the round, SQ-15), not 0"),
        ('{"1": 30, "W": 2}', "exactly 1 Winter"),
        ('{"1": 30, "W": 1, "G": 2}', "at most 1 Golden Acorn"),
        ('{"1": 30, "W": 1, "R": 2}', "at most 1 Rotten Acorn"),
        ('{"1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "R": 1, "W": 1}', "no Number card has 3 copies"),
        ('{"1": 12, "W": 1}', "12 Number and Rotten cards are too few to deal 7 to each of 2 players (need 14)"),
        ('{"1": 200, "2": 200, "W": 1}', "401 cards are more than 300"),
        ('{"1": 30, "W": 1, "winter": 1}', "card 'winter' is given twice"),
        ("{" + " " * 5000 + "}", "at most 4096 characters"),
    ],
)
def test_a_bad_deck_is_refused_in_one_line(deck: str, message: str) -> None:
    with pytest.raises(InvalidOptionError) as info:
        oakwood.load("squarrels", deck_composition=deck)
    text = str(info.value)
    assert message in text and "\n" not in text and text.startswith("option 'deck_composition'")


def test_a_deck_too_small_for_the_table_is_refused_when_dealt() -> None:
    game = load(SMALL)  # 19 Number and Rotten cards: two hands of 7, not three
    game.new_state(2, 1)
    with pytest.raises(InvalidOptionError, match=r"19 Number and Rotten cards are too few .* 3 players \(need 21\)"):
        game.new_state(3, 1)


def _small_position() -> str:
    # P1 must draw and the Winter lies on top of the Deck (written bottom to top): every SMALL card is placed.
    return (
        "squarrels players=2 round=1 dealer=2 totals=0,0 last=- phase=must_draw active=1 whirl=0 "
        "hands=1112223/1112233 storage=-/- deck=R1112GQQHHW hoard=- discard=- golden_out=0 quarrel=- race=- "
        "winners=- rng=7:0"
    )


def test_sq26_every_round_starts_from_the_whole_custom_deck() -> None:
    """Winter ends round 1 (SQ-15); round 2 is dealt from the 25 cards of the custom deck (SQ-17, SQ-26): no
    4, 5, Ambush or Whirlwind appears, and every card is accounted for."""
    game = load(SMALL)
    state = game.from_notation(_small_position())
    assert isinstance(state, SQuarrelsState)
    state.apply(0, game.parse_action("draw"))
    state.check_invariants()
    obs = state.observe(None)
    assert obs["round"] == 2
    in_play = obs["deck_size"] + sum(obs["hand_sizes"]) + sum(obs["action_discard"].values()) + obs["hoard_pile_size"]
    assert in_play == 25
    cards = Counter(state.deck) + Counter(c for hand in state.hands for c, n in enumerate(hand) for _ in range(n))
    assert set(cards) <= {i for i, n in enumerate(game.options.cards) if n}
    for c, n in enumerate(state.action_discard):
        cards[c] += n
    assert [cards[c] for c in range(12)] == list(game.options.cards)


def test_sq26_a_position_is_checked_against_its_own_deck() -> None:
    text = _small_position()
    load(SMALL).from_notation(text)
    with pytest.raises(InvalidNotationError, match="the cards do not add up"):
        oakwood.load("squarrels").from_notation(text)


def test_search_worlds_deal_only_the_custom_deck() -> None:
    game = load(LARGE)
    state = game.new_state(3, 4)
    rng = Rng(4)
    for _ in range(40):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    for seed in range(5):
        world = state.determinize(0, Rng(seed))
        world.check_invariants()  # conservation against the custom counts
        assert len(world.deck) == len(state.deck)


def test_the_bots_play_whole_matches_with_a_custom_deck() -> None:
    game = load(LARGE, target_score=15)
    for kind in ("heuristic", "strategist"):
        agents = [make_agent(game, kind, seed=s) for s in range(3)]
        result = play_match(game, agents, 11)
        assert result.state.is_terminal()


def test_the_encoder_grows_its_bounds_with_the_deck() -> None:
    """A deck with 60 ones: hand counts beyond the standard 30 stay inside the declared space."""
    game = load(LARGE, single_round=True)
    standard = encoder_for(oakwood.load("squarrels", single_round=True), 2)
    enc = encoder_for(game, 2)
    assert enc.size == standard.size
    low, high = enc.bounds()
    assert high.max() >= 60
    rng = Rng(2)
    for seed in range(3):
        state: State = game.new_state(2, seed)
        while not state.is_terminal():
            seat = state.to_act()[0]
            for observer in (seat, None):
                tensor = enc.encode_state(state, observer)
                assert np.all(tensor >= low) and np.all(tensor <= high)
                assert np.array_equal(tensor, enc.encode(state.observe(observer)))
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])


def test_the_most_a_round_can_score_follows_the_deck() -> None:
    assert most_in_a_round(COUNTS, per_card=False, wild=False) == 80  # 75 in sets and the Golden's 5
    assert most_in_a_round(COUNTS, per_card=True, wild=True) == 230
    small = load(SMALL).options.cards
    assert most_in_a_round(small, per_card=False, wild=False) == 3 * 1 + 2 * 2 + 1 * 3 + 5
    assert most_in_a_round(small, per_card=False, wild=True) == 15  # no pair is left over: the Golden's 5
    pairs = load({"1": 14, "5": 5, "G": 1, "W": 1}).options.cards  # two 1s and two 5s left over
    assert most_in_a_round(pairs, per_card=True, wild=True) == 3 * (4 * 1 + 5) + 3 * 5  # the Golden makes 5-5-G


def test_the_lobby_edits_the_deck_as_counts() -> None:
    editor = oakwood.load("squarrels").options_class.editors()["deck_composition"]
    assert editor["kind"] == "counts"
    assert editor["presets"]["standard"] == dict(zip(SYMBOLS, COUNTS, strict=True))
    assert [item["code"] for item in editor["items"]] == list(SYMBOLS)
    assert sum(editor["presets"]["standard"].values()) == 120 <= editor["max_total"]
    bounds = {item["code"]: (item.get("min", 0), item.get("max")) for item in editor["items"]}
    assert bounds["W"] == (1, 1) and bounds["G"] == bounds["R"] == (0, 1) and bounds["1"] == (0, None)


def test_the_analysis_measures_winter_over_the_custom_deck() -> None:
    """How far into the Deck Winter came is counted over the game's own deck: a single round with the SMALL deck
    (25 cards), checked against the Deck left after the deal, read from the state before the first move."""
    from oakwood.analysis.features.squarrels import EXTRACTOR

    game = load(SMALL, single_round=True)
    for seed in range(6):
        state = game.new_state(2, seed)
        assert isinstance(state, SQuarrelsState)
        after_deal = len(state.deck)
        rng = Rng(seed)
        drawn = 0  # cards taken from the Deck, Winter included (nothing else leaves or enters it mid-round)
        while not state.is_terminal():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            before = len(state.deck)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            drawn += before - len(state.deck)
        share = EXTRACTOR.extract(game, state).numbers["winter_share_last_round"]
        assert 0.0 <= share <= 1.0
        assert share == pytest.approx((drawn - 1) / after_deal)  # the draws before Winter, over the dealt Deck
