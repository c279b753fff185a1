"""NS-17l: the solo player is warned before a move that ends the game short of 20 points or puts 20 out of
reach, never from a card a move would reveal, and never in the multiplayer game."""

from __future__ import annotations

import random
from collections.abc import Hashable

import oakwood
from oakwood.engine import State
from oakwood.games.nutty import reach
from oakwood.games.nutty.actions import END_GAME
from oakwood.games.nutty.solo import SoloState

from .helpers import board, load, play, position

# Limbs 2–6 revealed and picked clean, as in test_solo_end.py: only the first limb and the squirrel matter.
BARE = ["2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "1,1,2,ST,ST"]


def solo(first: str, player: str, rest: list[str] = BARE) -> State:
    return load(position([first, *rest], [player], solo=True))


def warnings(state: State) -> dict[str, str]:
    """The warnings of the live position by move text, after checking that a world gives the same."""
    world = state.determinize(0, random.Random(0))
    found = {str(action): text for action, text in state.game.move_warnings(world, 0).items()}
    assert found == {str(action): text for action, text in state.game.move_warnings(state, 0).items()}
    return found


def test_end_game_is_warned_with_the_score() -> None:
    # 18 points in the nest and a face-down card next door: the game could go on.
    state = solo("1,~1,~1,~1,~1", board(at="L1c1", nest="3.3"))
    assert warnings(state)["end game"] == "This ends the game with 18 points, 2 short of 20."


def test_a_move_after_which_nothing_is_within_reach_is_warned() -> None:
    # NS-17g's example: 4 in the nest, a golden on a revealed Broken Branch at L1c2 that only the Lasso bought
    # after the step to L1c1 can reach. The step to L6c1 spends that point, and buying Swinging Squirrel spends
    # three: both end the game (test_solo_end.py). The step to L1c1 leaves the Lasso in reach, and is not warned.
    state = solo("1,BB*0.1,1,1,1", board(nest="4.0"))
    found = warnings(state)
    assert found["move L6c1"] == "This ends the game with 3 points, 17 short of 20."
    assert found["buy swinging"] == "This ends the game with 1 point, 19 short of 20."
    assert found["end game"] == "This ends the game with 4 points, 16 short of 20."
    assert "move L1c1" not in found
    assert play(state, "move L6c1").is_terminal() and state.scores() == [3.0]  # what was said happens


def test_burying_the_points_that_paid_the_way_is_warned() -> None:
    # On the trunk with a golden in the nest: the face-down L1c3 lies past two face-up cards (a point each).
    # Burying the golden leaves nothing to pay with, so nothing is within reach: the game ends at 5 points.
    state = solo("1,1,~1,~1,~1", board(nest="0.1"))
    found = warnings(state)
    assert found["bury golden"] == "This ends the game with 5 points, 15 short of 20."
    assert "unstash golden" not in found  # carried, the golden still pays
    assert play(state, "bury golden").is_terminal() and state.scores() == [5.0]


def test_a_purchase_that_puts_20_out_of_reach_is_warned() -> None:
    # On the trunk with 5 points: the face-down L1c5 is four paid steps away. A power for 3 leaves 2 points:
    # the brown on L6c1 is still in reach (the game goes on), but with it 3 points cannot pay for four steps,
    # even flying from limb 6 to limb 1.
    state = solo("1,1,1,1,~1", board(nest="5.0"), [*BARE[:4], "1*1.0,1,2,ST,ST"])
    found = warnings(state)
    out_of_reach = "After this, 20 points are out of reach: at most 3 points, 17 short of 20."
    for power in ("lasso", "flying", "swinging", "backpack"):
        assert found[f"buy {power}"] == out_of_reach
    after = play(state.clone(), "buy lasso")
    assert not after.is_terminal() and reach.most_points(after) == 3  # type: ignore[arg-type]
    # The bound is certain: no way of playing on gets past it.
    for seed in range(20):
        chooser, line = random.Random(seed), after.clone()
        while not line.is_terminal():
            assert isinstance(line, SoloState)
            assert line.points(0) + line.carried(0) <= 3
            line.apply(0, chooser.choice(line.legal_actions(0)))
        assert line.scores()[0] <= 3
    # A step costs a point too, but leaves the four steps to L1c5 paid for: 20 stays in reach.
    assert "move L6c1" not in found and "move L1c1" not in found and "bury brown" not in found


def test_an_ordinary_move_is_not_warned() -> None:
    # A brown to gather and face-down cards ahead: nothing but `end game` is warned.
    state = solo("1*1.0,~1,~1,~1,~1", board(at="L1c1", nest="2.0"))
    assert warnings(state) == {"end game": "This ends the game with 2 points, 18 short of 20."}
    fresh = oakwood.load("nutty").new_state(1, 3)
    assert warnings(fresh) == {"end game": "This ends the game with 0 points, 20 short of 20."}


def test_no_second_warning_once_20_is_out_of_reach() -> None:
    # 5 points and a golden in view, nothing face down: 20 was out of reach before any move.
    state = solo("1,BB*0.1,1,1,1", board(nest="4.0"))
    assert reach.most_points(state) == 9  # type: ignore[arg-type]
    assert not any(text.startswith("After this") for text in warnings(state).values())


def test_a_move_onto_a_face_down_card_is_never_warned_from_what_it_reveals() -> None:
    # In truth L1c2 is a Broken Branch: the fall would leave nothing within reach and end the game. The step is
    # not warned, in any world (in some it is a leaf), and the warnings are the same in every world and the
    # same as the live state's. Stepping back to the trunk leaves no point to pay for L1c1: that is warned.
    state = solo("1,~BB,1*0.1,1,1", board(at="L1c1"))
    game = state.game
    truth = game.move_warnings(state, 0)
    assert {str(action): text for action, text in truth.items()} == {
        "move trunk": "This ends the game with 0 points, 20 short of 20.",
        "end game": "This ends the game with 0 points, 20 short of 20.",
    }
    rng = random.Random(1)
    revealed = set()
    for _ in range(60):
        world = state.determinize(0, rng)
        assert game.move_warnings(world, 0) == truth
        revealed.add(world.limbs[0][1][0])  # type: ignore[attr-defined]
    assert len(revealed) > 1, "the worlds put different cards at L1c2"
    assert play(state.clone(), "move L1c2").is_terminal()  # the truth would have ended it


def test_warnings_are_the_same_in_every_world_along_random_games() -> None:
    game = oakwood.load("nutty")
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        chooser = random.Random(seed)
        state = game.new_state(1, seed)
        while not state.is_terminal():
            truth: dict[Hashable, str] = game.move_warnings(state, 0)
            assert END_GAME in truth
            for _ in range(3):
                assert game.move_warnings(state.determinize(0, rng), 0) == truth
            checked += 1
            legal = [a for a in state.legal_actions(0) if a is not END_GAME] or list(state.legal_actions(0))
            state.apply(0, chooser.choice(legal))
    assert checked > 50


def test_the_multiplayer_game_warns_of_nothing() -> None:
    state = oakwood.load("nutty").new_state(2, 7)
    assert state.game.move_warnings(state.determinize(0, random.Random(0)), 0) == {}
    tree = ["2,~1,~1,~BB,~BB", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2", "~1,~1,~1,~1,~1"]
    late = load(position(tree, [board(at="L1c1", burrow="3.3"), board()]))
    assert late.game.move_warnings(late.determinize(0, random.Random(0)), 0) == {}
