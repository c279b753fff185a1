"""NS-17k: the solo player chooses which acorns pay; NS-17i: a plain action pays the usual way."""

from __future__ import annotations

import pytest

from oakwood.engine import IllegalActionError

from .helpers import board, legal, load, obs, play, position

# Padding that leaves five 1-brown leaves for the scenarios' first limb.
SOLO_PAD = ["~0,~1,~1,~1,~ST", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~2,~2,~ST"]


def solo(first: str, player: str, **kw: object) -> str:
    """A solo position: a custom first limb and padding."""
    return position([first, *SOLO_PAD], [player], solo=True, **kw)  # type: ignore[arg-type]


def wallet(state: object) -> dict[str, object]:
    """Cheeks, Backpack and nest of the solo board."""
    seen = obs(state)["boards"][0]  # type: ignore[arg-type]
    return {"cheeks": seen["cheeks"], "backpack": seen["backpack"], "nest": seen["nest"]}


def last_line(state: object) -> str:
    game = state.game  # type: ignore[attr-defined]
    return str(game.describe_event(state.events_seen_by(0)[-1]))  # type: ignore[attr-defined]


def test_a_step_lists_the_usual_payment_first_then_the_other_acorns() -> None:
    state = load(solo("1,1,~1,~1,~BB", board(at="L1c1", cheeks="1.0", nest="1.1")))
    moves = [a for a in legal(state) if a.startswith("move L1c2")]
    assert moves == ["move L1c2", "move L1c2 with nest brown", "move L1c2 with nest golden"]
    play(state, "move L1c2 with nest golden")
    assert wallet(state) == {
        "cheeks": {"brown": 1, "golden": 0},
        "backpack": None,
        "nest": {"brown": 5, "golden": 0},  # 1 + 4 brown change
    }
    assert last_line(state) == (
        "P1 moves to L1c2, paying 1 point: a golden acorn from the nest (4 brown acorns back to the nest as change)."
    )


def test_the_plain_step_pays_the_usual_way() -> None:
    state = play(load(solo("1,1,~1,~1,~BB", board(at="L1c1", cheeks="1.0", nest="1.1"))), "move L1c2")
    assert wallet(state)["cheeks"] == {"brown": 0, "golden": 0}  # carried brown first (NS-17i)
    assert last_line(state) == "P1 moves to L1c2, paying 1 point: a brown acorn from the cheeks."


def test_a_purchase_names_its_acorns() -> None:
    text = solo("1,~1,~1,~1,~BB", board(at="L1c1", powers="BP", cheeks="2.0", pack="b", nest="0.1"))
    state = load(text)
    buys = [a for a in legal(state) if a.startswith("buy lasso")]
    assert buys == ["buy lasso", "buy lasso with nest golden"]  # the usual way (carried brown) is not listed twice
    play(state, "buy lasso with nest golden")
    assert wallet(state) == {
        "cheeks": {"brown": 2, "golden": 0},
        "backpack": "brown",
        "nest": {"brown": 2, "golden": 0},
    }
    assert last_line(state) == (
        "P1 buys The Lasso for 3 points: a golden acorn from the nest (2 brown acorns back to the nest as change)."
    )


def test_payments_with_the_same_outcome_are_one_choice() -> None:
    # Usual: two nest brown and the cheeks' golden (change 4); the golden alone leaves the same (change 2).
    state = load(solo("1,~1,~1,~1,~BB", board(at="L1c1", cheeks="0.1", nest="2.0")))
    assert [a for a in legal(state) if a.startswith("buy lasso")] == ["buy lasso"]
    with pytest.raises(IllegalActionError, match="exactly what 'buy lasso' does"):
        play(state, "buy lasso with cheeks golden")


def test_naming_the_usual_payment_points_to_the_plain_action() -> None:
    state = load(solo("1,1,~1,~1,~BB", board(at="L1c1", cheeks="1.0", nest="1.0")))
    with pytest.raises(IllegalActionError, match="type 'move L1c2' \\(NS-17k\\)"):
        play(state, "move L1c2 with cheeks brown")
    with pytest.raises(IllegalActionError, match="you cannot pay with a golden acorn from the Backpack"):
        play(state, "move L1c2 with backpack golden")
    play(state, "move L1c2")
    with pytest.raises(IllegalActionError, match="'move L1c1' costs nothing"):
        play(state, "move L1c1 with nest brown")


def test_change_is_limited_by_the_supply() -> None:
    # 58 brown are on the tree and the board: paying 1 with a golden brings back only the 2 left in the supply.
    text = position(
        ["1,1*3.0,~1,~1,~BB", "2*20.0,2,2,2,2", "3*20.0,3,3,3,3", "~G,~G,~G,~G,~G", "0*15.0,0,0,2,2", "~1,~1"],
        [board(at="L1c1", nest="0.1")],
        solo=True,
        rest_to_out=True,
    )
    state = load(text)
    assert obs(state)["supply"]["brown"] == 2
    play(state, "move L1c2")
    assert wallet(state)["nest"] == {"brown": 2, "golden": 0}
    assert last_line(state).endswith("(2 brown acorns back to the nest as change).")


def test_the_owl_waits_while_the_player_chooses_the_bribe() -> None:
    state = play(load(solo("~OW,~1,~1,~1,~BB", board(cheeks="1.0", nest="2.1"))), "move L1c1")
    view = obs(state)
    assert view["phase"] == "bribe" and view["tree"][0][0]["card"] == "OW"
    assert legal(state) == ["bribe", "bribe with nest golden"]
    with pytest.raises(IllegalActionError, match="first bribe the Owl"):
        play(state, "move trunk")
    assert "must be bribed" in state.game.render(state.observe(0))
    assert last_line(state) == "P1 must bribe the Owl with 3 points: choose the acorns that pay."
    play(state, "bribe with nest golden")
    view = obs(state)
    assert view["phase"] == "play" and "OW" in view["out_of_play"]["cards"]
    assert view["tree"][0][0] == {"card": None, "brown": 0, "golden": 0, "squirrels": [0]}  # the limb closed in
    assert len(view["tree"][0]) == 4  # no new card for a bribed Owl
    assert wallet(state) == {"cheeks": {"brown": 1, "golden": 0}, "backpack": None, "nest": {"brown": 4, "golden": 0}}
    assert last_line(state) == (
        "P1 bribes the Owl with 3 points: a golden acorn from the nest (2 brown acorns back to the nest as change); "
        "the Owl leaves play."
    )


def test_the_plain_bribe_pays_the_usual_way_and_one_way_pays_at_once() -> None:
    state = play(load(solo("~OW,~1,~1,~1,~BB", board(cheeks="1.0", nest="2.1"))), "move L1c1", "bribe")
    assert wallet(state)["nest"] == {"brown": 0, "golden": 1}
    at_once = play(load(solo("~OW,~1,~1,~1,~BB", board(nest="3.0"))), "move L1c1")
    assert obs(at_once)["phase"] == "play" and wallet(at_once)["nest"] == {"brown": 0, "golden": 0}
    lost = play(load(solo("~OW,~1,~1,~1,~BB", board(nest="2.0"))), "move L1c1")
    assert lost.is_terminal() and obs(lost)["result"] == "lost"


def test_an_owl_the_arborist_reveals_waits_for_its_bribe_too() -> None:
    pad = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]
    text = position(["~AR,~1,~OW,~WG,~BB", *pad], [board(cheeks="1.0", nest="2.1")], solo=True, keep_events=True)
    state = play(load(text, solo_keep_events=True), "move L1c1")
    view = obs(state)
    assert view["phase"] == "bribe"
    # The Wind Gust and the Arborist left play and the deck refilled the limb; the Owl waits on its card.
    assert [c["card"] for c in view["tree"][0]] == ["1", "OW", "BB", None, None]
    play(state, "bribe")
    assert [c["card"] for c in obs(state)["tree"][0]] == ["1", "BB", None, None]  # closed in, not refilled
    assert obs(state)["phase"] == "play"


def test_describe_action_says_what_a_payment_costs_and_gives_back() -> None:
    state = load(solo("1,1,~1,~1,~BB", board(at="L1c1", cheeks="1.0", nest="1.1")))
    game = state.game
    assert game.describe_action(game.parse_action("move L1c2 with nest golden")) == (
        "move L1c2 with nest golden — the step costs 1 point: pay with a golden acorn from the nest, "
        "4 brown back to your nest as change"
    )
    assert game.describe_action(game.parse_action("buy lasso with 2 cheeks brown and nest brown")) == (
        "buy lasso with 2 cheeks brown and nest brown — the power costs 3 points: pay with 2 brown acorns from "
        "the cheeks and a brown acorn from the nest"
    )
    assert game.describe_action(game.parse_action("buy lasso")) == (
        "buy lasso — 3 points, paid the usual way: carried brown, then nest brown, then a golden (change to the nest)"
    )
