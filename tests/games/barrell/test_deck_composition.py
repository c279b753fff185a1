"""BR-24: the deck as data. ``deck_composition`` is ``standard`` (the rulebook's 54 cards) or a subset of them
(every card is unique, so a count is 0 or 1); a default game is unchanged card for card, a custom deck is
validated in one line, dealt, conserved, searched over, encoded and written like any option."""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.engine import InvalidNotationError, InvalidOptionError, Rng, State
from oakwood.engine.replay import Replay
from oakwood.games.barrell.cards import BY_NAME, NAMES, cards_of
from oakwood.games.barrell.state import BarrellState
from oakwood.rl.tensors import encoder_for

from .helpers import act, position

#: No Jokers, no Queens of hearts or spades, no low clubs: 46 cards.
LEFT_OUT = ("RJ", "BJ", "QH", "QS", "2C", "3C", "4C", "5C")
SUBSET = {name: 1 for name in NAMES if name not in LEFT_OUT}
#: The clubs and the diamonds, and the J♥: 27 cards, enough for two hands of 10 and not three.
SMALL = {name: 1 for name in NAMES if name[-1] in "CD"} | {"JH": 1}


def load(deck: dict[str, int] | str, **options: object) -> oakwood.Game:
    return oakwood.load("barrell", deck_composition=deck if isinstance(deck, str) else json.dumps(deck), **options)


def random_moves(state: State, rng: Rng, steps: int) -> State:
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    return state


def fingerprint(game: oakwood.Game, players: int, seed: int, steps: int = 400) -> str:
    """The deal of ``seed`` and the position after ``steps`` seeded random moves, hashed."""
    state = game.new_state(players, seed)
    digest = hashlib.sha256(state.to_notation().encode())
    digest.update(random_moves(state, Rng(seed), steps).to_notation().encode())
    return digest.hexdigest()[:16]


def test_the_default_deck_deals_and_plays_exactly_as_before_the_option() -> None:
    """Hashes taken with the code before ``deck_composition`` existed (commit f22433c): same seeds, same deals,
    same random games, same notation; naming the standard deck or listing all 54 cards changes nothing."""
    before = {
        (2, 1): "7bacf1aed2ae0b7f", (2, 2024): "6af6958f1f544862",
        (3, 1): "dc503699cac9a49e", (3, 2024): "86bb942e5096a821",
        (4, 1): "f37f16a6ce90c543", (4, 2024): "00995c694c1190ef",
    }  # fmt: skip
    for game in (oakwood.load("barrell"), load("standard"), load(dict.fromkeys(NAMES, 1))):
        assert game.options.deck_composition == "standard"
        assert game.options == oakwood.load("barrell").options
        for (players, seed), expected in before.items():
            assert fingerprint(game, players, seed) == expected, (players, seed)


def test_a_custom_deck_has_one_canonical_text_and_travels_with_the_options() -> None:
    lower = load({name.lower(): 1 for name in SUBSET} | {"rj": 0})
    game = load(SUBSET)
    assert lower.options == game.options
    text = game.options.deck_composition
    assert json.loads(text) == SUBSET and text.startswith('{"AC":1,"6C":1,')
    assert game.deck_mask.bit_count() == 46 and not any(game.deck_mask >> BY_NAME[n] & 1 for n in LEFT_OUT)
    state = random_moves(game.new_state(3, 5), Rng(5), 80)
    record = json.loads(json.dumps(state.replay().to_json()))
    assert record["options"]["deck_composition"] == text
    assert Replay.from_json(record).play().to_notation() == state.to_notation()
    saved = json.loads(json.dumps(state.to_json()))
    assert oakwood.load("barrell", **saved["options"]).from_json(saved).to_notation() == state.to_notation()


def test_an_old_save_without_the_option_loads_under_the_standard_deck() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(3, 9)
    saved = state.to_json()
    del saved["options"]["deck_composition"]  # written before the option existed
    assert game.from_json(saved).to_notation() == state.to_notation()


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("small", "must be standard or a JSON object of card: count, got 'small'"),
        ("{not json", "not valid JSON"),
        ('{"ZZ": 1}', "unknown card 'ZZ'"),
        ('{"AC": 2}', "the count of AC must be 0 or 1 (every Barrell card is unique), got 2"),
        ('{"AC": -1}', "the count of AC must be 0 or 1"),
        ('{"AC": true}', "the count of AC must be 0 or 1"),
        ('{"AC": 1, "ac": 1}', "card 'ac' is given twice"),
        ('{"AC": 1}', "1 card is too few to deal 10 to each of 2 players (need 20)"),
        ("{}", "0 cards are too few to deal 10 to each of 2 players (need 20)"),
    ],
)
def test_a_bad_deck_is_refused_in_one_line(deck: str, message: str) -> None:
    with pytest.raises(InvalidOptionError) as info:
        oakwood.load("barrell", deck_composition=deck)
    text = str(info.value)
    assert message in text and "\n" not in text and text.startswith("option 'deck_composition'")


def test_a_deck_too_small_for_the_table_is_refused_when_dealt() -> None:
    game = load(SMALL)
    game.new_state(2, 1)
    with pytest.raises(InvalidOptionError, match=r"27 cards are too few to deal 10 to each of 3 players \(need 30\)"):
        game.new_state(3, 1)


def _with_deck(text: str, deck: str) -> str:
    """A :func:`position` whose Deck is ``deck`` instead of every card left unnamed."""
    return re.sub(r" deck=\S* ", f" deck={deck} ", text)


def test_br24_the_jack_of_hearts_draws_what_is_left_possibly_nothing() -> None:
    """A 20-card deck at two players: both hands hold every card, so the J♥'s two cards find an empty Deck and
    an empty Discard pile: nothing is drawn and play goes on (BR-24, BR-11)."""
    deck = ["JH", *(f"{r}C" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9"))]
    other = [f"{r}D" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    game = load(dict.fromkeys(deck + other, 1))
    text = _with_deck(position(hands=[".".join(deck), ".".join(other)]), "")
    state = game.from_notation(text)
    assert isinstance(state, BarrellState)
    act(state, 1, "play JH")
    state.check_invariants()
    assert len(state.observe(0)["hand"]) == 9  # the J♥ left the hand; nothing came in
    assert state.deck == [] and state.discard == []
    act(state, 2, "play 10D")
    state.check_invariants()
    # The same position, under the standard deck, misses 34 cards; a card outside the custom deck is refused.
    with pytest.raises(InvalidNotationError, match="every one of the 54 cards must lie in a zone"):
        oakwood.load("barrell").from_notation(text)
    with pytest.raises(InvalidNotationError, match="not in this game's deck"):
        game.from_notation(_with_deck(text, "KS"))


def test_br24_a_card_left_out_never_appears_and_worlds_deal_only_the_deck() -> None:
    game = load(SUBSET)
    absent = sum(1 << BY_NAME[n] for n in LEFT_OUT)
    for seed in range(3):
        state = random_moves(game.new_state(3, seed), Rng(seed), 60)
        state.check_invariants()
        assert isinstance(state, BarrellState)
        for seat in range(3):
            world = state.determinize(seat, Rng(seed))
            world.check_invariants()  # conservation against the custom deck
            assert isinstance(world, BarrellState)
            held = world.deck + world.discard + [c for field in world.fields for c in field]
            held += [c for hand in world.hands for c in cards_of(hand)]
            assert not any(1 << c & absent for c in held)


def test_the_bot_plays_whole_games_with_a_custom_deck() -> None:
    game = load(SUBSET)
    result = play_match(game, [make_agent(game, "heuristic", seed=s) for s in range(3)], 11)
    assert result.state.is_terminal()


def test_the_encoder_keeps_its_space_and_a_card_left_out_is_never_unseen() -> None:
    game = load(SUBSET)
    standard = encoder_for(oakwood.load("barrell"), 3)
    enc = encoder_for(game, 3)
    assert enc.size == standard.size
    low, high = enc.bounds()
    unseen = enc.layout.field("unseen")
    rng = Rng(3)
    state: State = game.new_state(3, 3)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        tensor = enc.encode_state(state, seat)
        assert np.all(tensor >= low) and np.all(tensor <= high)
        assert np.array_equal(tensor, enc.encode(state.observe(seat)))
        for name in LEFT_OUT:
            assert tensor[unseen.offset + BY_NAME[name]] == 0.0
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])


def test_the_lobby_edits_the_deck_as_one_count_a_card() -> None:
    editor = oakwood.load("barrell").options_class.editors()["deck_composition"]
    assert editor["kind"] == "counts"
    assert editor["presets"]["standard"] == dict.fromkeys(NAMES, 1)
    assert [item["code"] for item in editor["items"]] == list(NAMES)
    assert all(item["max"] == 1 for item in editor["items"])
    assert (editor["min_total"], editor["max_total"]) == (20, 54)
