"""The Nutty Squirrels feature extractor: scenario positions whose features are known by hand, seeded games
cross-checked against the observations (a different code path from the event log), properties over many seeded
games, and the deck compositions of the deck-composition study."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.analysis.features.base import GameFeatures
from oakwood.analysis.features.nutty import EXTRACTOR, POWER_FACT
from oakwood.analysis.quality import QUALITY_NUMBERS
from oakwood.arena.match import play_match
from oakwood.engine import State
from tests.games.nutty.helpers import board, load, play, position

DECKS = Path(__file__).resolve().parents[2] / "docs" / "reports" / "nutty-decks"

# Padding limbs (face down), leaving three 1s, one 2 and every event and power for the scenarios.
PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]
# The winner-to-be: on the trunk, one golden in the nest and 15 points buried ("bury golden" wins).
WINNER = board(nest="0.1", burrow="0.3")


def tree(*limbs: str) -> list[str]:
    """Custom limbs first, then padding up to six limbs."""
    return [*limbs, *PAD[: 6 - len(limbs)]]


def features(state: State) -> GameFeatures:
    """Extract as the workbench does: from the game replayed with its events."""
    assert state.is_terminal()
    final = state.replay().play()
    return EXTRACTOR.extract(final.game, final)


def seeded(players: int, seed: int, **options: Any) -> State:
    """A seeded heuristic game played to its end."""
    game = oakwood.load("nutty", **options)
    agents = [make_agent(game, "heuristic", seed=seed * 10 + i) for i in range(players)]
    return play_match(game, agents, seed).state


def zero_except(facts: dict[str, list[float]], **expected: list[float]) -> None:
    """Every seat fact is all zeros except the ones given; P1 took the first turn unless given."""
    seats = len(facts["first_player"])
    expected.setdefault("first_player", [1.0] + [0.0] * (seats - 1))
    for key, values in facts.items():
        assert values == expected.get(key, [0.0] * len(values)), key


# ------------------------------------------------------------------ scenarios (features known by hand)


def test_broken_branch_falls_then_twenty_points() -> None:
    text = position(
        tree("~1,~1,~1,~LA,~BP", "~2,~SW,~BB,~FL,~ST"),
        [board(at="L2c3", cheeks="1.0"), board(at="L2c3", cheeks="0.1", nest="0.1", burrow="0.3")],
    )
    state = play(load(text), "flip", "bury golden")  # both fall (P1's turn ends); P2 buries to 20
    f = features(state)
    assert f.ending == "twenty_points"
    zero_except(f.seat_facts, fell_from_broken_branch=[1.0, 1.0], lost_acorns_in_fall=[1.0, 1.0])
    n = f.numbers
    assert (n["cards_flipped"], n["broken_branches_revealed"], n["falls"], n["points_lost_in_falls"]) == (1, 1, 2, 6)
    assert (n["turns"], n["rounds"], n["top_score"], n["margin"], n["tree_revealed"]) == (1, 1, 20, 20, 0)


def test_twenty_points_with_the_round_finished() -> None:
    """win_at_20=finish_round: the game ends "final round over", yet 20 points ended it (NS-15)."""
    text = position(tree("~1,~1,~1,~BB,~BB"), [board(cheeks="0.1", burrow="3.3"), board()])
    state = play(load(text, win_at_20="finish_round"), "bury golden", "end", "end")
    assert state.events[-1].public["reason"] == "final round over"
    assert features(state).ending == "twenty_points"


def _last_card(p2: str) -> State:
    """Every tree card is face up but L1c1; P1 stands on it; the Leaf Deck is empty."""
    limbs = ["~1,1,1,1,1", "2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "1"]
    return load(position(limbs, [board(at="L1c1"), p2], rest_to_out=True))


def test_last_card_triggers_the_end_and_twenty_points_in_the_final_round() -> None:
    state = play(_last_card(WINNER), "flip", "end", "bury golden")
    f = features(state)
    assert f.ending == "twenty_points_final_round"
    zero_except(f.seat_facts, triggered_end=[1.0, 0.0])
    assert (f.numbers["tree_revealed"], f.numbers["tree_revealed_round"], f.numbers["leaf_cards_flipped"]) == (1, 1, 1)


def test_tree_revealed_final_round_played_out() -> None:
    # Triggered in P1's turn of round 1 (P1 first): the round ends after P2, then one more turn each.
    state = play(_last_card(board(burrow="3.0")), "flip", "end", "end", "end", "end")
    f = features(state)
    assert f.ending == "tree_revealed"
    assert state.winners() == [1]
    assert (f.numbers["turns"], f.numbers["rounds"], f.numbers["margin"], f.numbers["shared_win"]) == (3, 2, 3, 0)


def test_shared_win_and_round_limit() -> None:
    game = oakwood.load("nutty", max_rounds=1)
    state = game.new_state(2, seed=4)
    play(state, "end", "end")
    f = features(state)
    assert f.ending == "round_limit"
    assert (f.numbers["rounds"], f.numbers["turns"], f.numbers["shared_win"], f.numbers["top_score"]) == (1, 2, 1, 0)
    first = state.observe(None)["first"]
    assert f.seat_facts["first_player"] == [1.0 if s == first else 0.0 for s in range(2)]


def test_wind_gust_blows_and_knocks_off() -> None:
    text = position(tree("~WG,~1,~1,~1,~2"), [board(at="L1c1"), WINNER, board(at="L1c4", cheeks="1.0")])
    state = play(load(text), "flip", "end", "bury golden")
    f = features(state)
    zero_except(
        f.seat_facts,
        blown_by_wind_gust=[1.0, 0.0, 1.0],
        lost_acorns_in_fall=[0.0, 0.0, 1.0],
    )
    assert (f.numbers["falls"], f.numbers["points_lost_in_falls"]) == (1, 1)


def test_fools_gold_and_sappy_feet() -> None:
    fools = play(load(position(tree("~FG,~1,~1,~1,~BB"), [board(at="L1c1", cheeks="0.1"), WINNER])), "flip", "end")
    zero_except(features(play(fools, "bury golden")).seat_facts, lost_golden_to_fools_gold=[1.0, 0.0])
    sappy = play(load(position(tree("~SF,~1,~1,~1,~BB"), [board(at="L1c1"), WINNER])), "flip", "end")
    zero_except(features(play(sappy, "bury golden")).seat_facts, slowed_by_sappy_feet=[1.0, 0.0])


@pytest.mark.parametrize("mode", ["reveal_only", "chain"])
def test_arborist_reveals_a_broken_branch_under_a_squirrel(mode: str) -> None:
    text = position(tree("~AR,~BB,~SF,~2,~1"), [board(at="L1c1"), WINNER, board(at="L1c2")])
    state = load(text, arborist_mode=mode)
    # NS-10 chain: the Broken Branch resolves as if P1 flipped it, which ends P1's turn
    f = features(play(state, "flip", *(["end"] if mode == "reveal_only" else []), "bury golden"))
    slowed = [1.0, 0.0, 0.0] if mode == "chain" else [0.0, 0.0, 0.0]  # NS-10: only a chain applies Sappy Feet
    zero_except(
        f.seat_facts,
        revealed_arborist=[1.0, 0.0, 0.0],
        fell_from_broken_branch=[0.0, 0.0, 1.0],
        slowed_by_sappy_feet=slowed,
    )
    assert (f.numbers["cards_flipped"], f.numbers["cards_revealed_by_arborist"]) == (1, 4)
    assert f.numbers["broken_branches_revealed"] == 1


def test_limb_break_drops_the_squirrels_beyond() -> None:
    text = position(tree("~1,BB,~BB,~1,~1"), [board(at="L1c3"), WINNER, board(at="L1c5", cheeks="0.1")])
    f = features(play(load(text), "flip", "bury golden"))
    zero_except(
        f.seat_facts,
        fell_from_broken_branch=[1.0, 0.0, 0.0],
        fell_in_limb_break=[0.0, 0.0, 1.0],
        lost_acorns_in_fall=[0.0, 0.0, 1.0],
    )
    assert (f.numbers["limb_breaks"], f.numbers["falls"], f.numbers["points_lost_in_falls"]) == (1, 2, 5)


def test_owl_destroys_a_power_and_sticky_fingers_steals_one() -> None:
    text = position(
        tree("OW,~1,~1,~1,~BB"),
        [
            board(at="L1c1", nest="0.1", burrow="0.3"),
            board(powers="BP"),
            board(at="L2c1", powers="ST"),
            board(at="L2c1", powers="LA"),
        ],
    )
    moves = ["claim", "owl p2 backpack", "end", "end", "steal p4 lasso", "end", "end", "move trunk", "bury golden"]
    f = features(play(load(text), *moves))
    assert f.ending == "twenty_points"
    zero_except(
        f.seat_facts,
        held_owl=[1.0, 0.0, 0.0, 0.0],
        held_lasso=[0.0, 0.0, 1.0, 0.0],
        lost_power=[0.0, 1.0, 0.0, 1.0],
    )
    assert f.numbers["powers_taken"] == 1


def test_owl_scares_a_limb() -> None:
    text = position(tree("OW,~1,~1,~1,~BB"), [board(at="L1c1", nest="0.1", burrow="0.3"), board(at="L1c3")])
    f = features(play(load(text), "claim", "owl L1", "move trunk", "bury golden"))
    zero_except(f.seat_facts, held_owl=[1.0, 0.0], scared_by_owl=[0.0, 1.0])


SOLO_TREE = ["~OW,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "1,~0,~0,~2,~2", "~2"]


def test_solo_endings() -> None:
    lost = play(load(position(SOLO_TREE, [board(cheeks="2.0")], solo=True)), "move L1c1")
    f = features(lost)
    assert f.ending == "solo_lost_owl" and f.numbers["rounds"] == 0
    zero_except(f.seat_facts)
    bribed = play(load(position(SOLO_TREE, [board(cheeks="0.1")], solo=True)), "move L1c1", "end game")
    f = features(bribed)
    assert f.ending == "solo_player_ended"
    zero_except(f.seat_facts, bribed_owl=[1.0])
    won = play(load(position(SOLO_TREE, [board(cheeks="1.0", nest="19.0")], solo=True)), "stash brown")
    f = features(won)
    assert f.ending == "solo_won" and f.numbers["top_score"] == 20


# ------------------------------------------------------------------ seeded games against the observations


def _observed(state: State) -> dict[str, Any]:
    """What the spectator observations say, re-playing the game action by action (not the event log)."""
    game = state.game
    again = game.new_state(state.num_players, seed=state.replay().seed)
    n = state.num_players
    held = [set[str]() for _ in range(n)]
    first = again.observe(None).get("first", 0)
    twenty_before_end = None
    for seat, action in state.history:
        again.apply(seat, action)
        view = again.observe(None)
        for s, b in enumerate(view["boards"]):
            held[s].update(b["powers"])
        if twenty_before_end is None and n > 1 and max(view["scores"]) >= 20:
            twenty_before_end = not view["end_triggered"]
    view = again.observe(None)
    return {
        "held": held,
        "first": first,
        "round": view.get("round", 0),
        "end_triggered": view.get("end_triggered", False),
        "twenty_before_end": twenty_before_end,
    }


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (1, 6), (1, 7)])
def test_seeded_games_agree_with_the_observations(players: int, seed: int) -> None:
    state = seeded(players, seed)
    f = features(state)
    seen = _observed(state)
    for code, key in POWER_FACT.items():  # the naming table; the facts come from the observations
        assert f.seat_facts[key] == [1.0 if code in seen["held"][s] else 0.0 for s in range(players)], key
    assert f.seat_facts["first_player"] == [1.0 if s == seen["first"] else 0.0 for s in range(players)]
    if players == 1:
        return
    assert f.numbers["rounds"] == seen["round"]
    assert f.numbers["tree_revealed"] == float(seen["end_triggered"])
    expected = {True: "twenty_points", False: "twenty_points_final_round", None: "tree_revealed"}
    if f.ending != "round_limit":
        assert f.ending == expected[seen["twenty_before_end"]]


def test_hand_checked_seed() -> None:
    """Seed 1 at 3 players, read by hand from its log (``describe_event``); a change of the heuristic changes it.

    P3 starts; P1 falls from a Broken Branch on L1c1, claims Swinging Squirrel and Spittoon, reveals Sappy Feet,
    a Fool's Gold holding no golden, and the Arborist (golden, 3-brown, Broken Branch); P2 claims Lasso,
    Doppelganger and Flying Squirrel; 20 cards flipped, 10 of them leaves; P1 buries 20 against 7 and 17.
    """
    state = seeded(3, 1)
    f = features(state)
    assert state.scores() == [20.0, 7.0, 17.0]
    assert f.ending == "twenty_points"
    zero_except(
        f.seat_facts,
        first_player=[0.0, 0.0, 1.0],
        held_swinging_squirrel=[1.0, 0.0, 0.0],
        held_spittoon=[1.0, 0.0, 0.0],
        held_lasso=[0.0, 1.0, 0.0],
        held_doppelganger=[0.0, 1.0, 0.0],
        held_flying_squirrel=[0.0, 1.0, 0.0],
        fell_from_broken_branch=[1.0, 0.0, 0.0],
        slowed_by_sappy_feet=[1.0, 0.0, 0.0],
        revealed_arborist=[1.0, 0.0, 0.0],
    )
    n = f.numbers
    assert (n["cards_flipped"], n["leaf_cards_flipped"], n["cards_revealed_by_arborist"]) == (20, 10, 3)
    assert (n["broken_branches_revealed"], n["falls"], n["powers_taken"], n["margin"]) == (2, 1, 5, 3)


# ------------------------------------------------------------------ properties


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_properties_over_seeded_games(players: int) -> None:
    for seed in range(9 if players > 1 else 5):
        state = seeded(players, 100 + seed)
        f = features(state)
        assert f.ending in EXTRACTOR.endings
        assert f.ending.startswith("solo_") == (players == 1)
        assert set(f.numbers) == set(EXTRACTOR.numbers) - set(QUALITY_NUMBERS)  # measure.py adds those
        assert set(f.seat_facts) == set(EXTRACTOR.seat_facts)
        assert all(len(v) == players for v in f.seat_facts.values())
        assert all(x in (0.0, 1.0) for v in f.seat_facts.values() for x in v)
        assert sum(f.seat_facts["first_player"]) == 1
        assert sum(f.seat_facts["triggered_end"]) == f.numbers["tree_revealed"]
        assert (f.numbers["top_score"] >= 20) == (
            f.ending in ("twenty_points", "twenty_points_final_round", "solo_won")
        )
        assert features(state) == f
        assert GameFeatures.from_json(json.loads(json.dumps(f.to_json()))) == f


def test_every_key_is_described() -> None:
    for table in (EXTRACTOR.endings, EXTRACTOR.numbers, EXTRACTOR.seat_facts):
        assert all(key.isidentifier() and key == key.lower() and text for key, text in table.items())
    assert 6 <= len(EXTRACTOR.seat_facts) <= 25


# ------------------------------------------------------------------ the deck-composition study


@pytest.mark.parametrize("path", sorted(DECKS.glob("*.json")), ids=lambda p: p.stem)
def test_study_decks_load_and_play_to_the_end(path: Path) -> None:
    text = path.read_text()
    assert json.loads(text) != json.loads(json.dumps(oakwood.load("nutty").options.cards))
    for players in (1, 2, 4):
        for seed in (1, 2):
            state = seeded(players, seed, deck_composition=text)
            assert state.is_terminal()
            assert features(state).ending in EXTRACTOR.endings


def test_there_are_three_study_decks() -> None:
    assert len(list(DECKS.glob("*.json"))) == 3
    readme = (DECKS / "README.md").read_text()
    assert all(p.name in readme for p in DECKS.glob("*.json"))
