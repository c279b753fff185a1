"""What players read: one exact line per action and effect (issue 8 §4), and leaves showing what lies on them."""

from __future__ import annotations

from oakwood.engine import State

from .helpers import board, load, play, position

PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]
SOLO_PAD = ["~0,~1,~1,~1,~ST", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~2,~2,~ST"]


def lines(state: State, *texts: str) -> list[str]:
    """Play ``texts`` and return the log lines they produced."""
    before = len(state.events)
    play(state, *texts)
    return [state.game.describe_event(event) for event in state.events_seen_by(None, before)]


def test_solo_lines_for_every_action_and_what_it_cost() -> None:
    text = position(["1*2.0,1,2*1.0,~1,~BB", *SOLO_PAD], [board(at="L1c1", powers="BP,LA", nest="1.0")], solo=True)
    state = load(text)
    assert lines(state, "gather brown", "gather brown", "pack brown", "drop brown", "unpack") == [
        "P1 gathers a brown acorn from the card.",
        "P1 gathers a brown acorn from the card.",
        "P1 moves a brown acorn from the cheeks into the Backpack.",
        "P1 drops a brown acorn on the card.",
        "P1 moves the brown acorn from the Backpack into the cheeks.",
    ]
    assert lines(state, "move L1c2", "lasso L1c3 brown", "gather brown", "move L1c1", "move trunk") == [
        "P1 moves to L1c2, paying 1 point: a brown acorn from the cheeks.",
        "P1 lassoes a brown acorn from L1c3 onto L1c2.",
        "P1 gathers a brown acorn from the card.",
        "P1 moves to L1c1 (free).",
        "P1 moves to the trunk (free).",
    ]
    assert lines(state, "stash brown", "bury brown", "unstash brown") == [
        "P1 stashes a brown acorn in the nest (2 points).",
        "P1 buries a brown acorn from the nest: 2 points.",
        "P1 takes a brown acorn back from the nest (1 point).",
    ]


def test_a_limb_break_is_logged_even_with_nobody_beyond_it() -> None:
    text = position(["1,BB,~BB,~1*1.0,~2", *PAD], [board(at="L1c3"), board()])
    assert lines(load(text), "flip") == [
        "P1 flips L1c3 (1 AP, 2 left): Broken Branch.",
        "P1 falls to the trunk from a Broken Branch.",
        "Limb L1 breaks beyond c3: 2 cards leave play (2 unseen); 1 brown acorn on them goes back to the supply.",
        "P2's turn (round 1): 3 AP.",
    ]
    solo = position(["1,BB,~BB,~1*1.0,~2", *SOLO_PAD], [board(at="L1c2", powers="SW", nest="1.0")], solo=True)
    assert lines(load(solo), "move L1c3")[-1] == (
        "Limb L1 breaks beyond c3: 2 cards leave play (2 unseen); 1 brown acorn on them goes back to the supply."
    )


def test_a_break_with_squirrels_beyond_says_who_fell_and_what_they_lost() -> None:
    text = position(["1,BB,~BB,~1,~2", *PAD], [board(at="L1c3"), board(at="L1c4", cheeks="1.1")])
    assert lines(load(text), "flip")[2] == (
        "Limb L1 breaks beyond c3: 2 cards leave play (2 unseen); P2 falls to the trunk, losing 1 brown and "
        "1 golden acorns to the supply."
    )
    slide = load(text, break_tokens_beyond="slide_to_break")
    assert lines(slide, "flip")[2] == (
        "Limb L1 breaks beyond c3: 2 cards leave play (2 unseen); P2 slides inward to the break."
    )


def test_multiplayer_moves_say_their_ap_and_the_wind_says_where_it_blew() -> None:
    text = position(["1,~WG,BB,1,~2", *PAD], [board(at="L1c1"), board(at="L1c1", cheeks="2.0"), board()])
    state = load(text)
    assert lines(state, "move L1c2", "flip") == [
        "P1 moves to L1c2 (1 AP, 2 left).",
        "P1 flips L1c2 (1 AP, 1 left): Wind Gust.",
        "The Wind Gust blows P1 out to L1c4.",
        "P2 falls to the trunk, pushed by a Wind Gust, losing 2 brown acorns to the supply.",
    ]


def test_multiplayer_backpack_and_bury_lines() -> None:
    text = position(["~1,~1,~1,~BB,~BB", *PAD], [board(powers="BP", cheeks="1.1", nest="2.0"), board()])
    assert lines(load(text), "pack golden", "unpack", "bury brown", "bury brown", "end") == [
        "P1 moves a golden acorn from the cheeks into the Backpack.",
        "P1 moves the golden acorn from the Backpack into the cheeks.",
        "P1 buries a brown acorn from the cheeks (1 AP, 2 left): 1 point.",
        "P1 buries a brown acorn from the nest (1 AP, 1 left): 2 points.",
        "P1 ends the turn.",
        "P2's turn (round 1): 3 AP.",
    ]


def test_the_end_of_a_game_names_the_winners_and_their_points() -> None:
    shared = position(["~1,~1,~1,~BB,~BB", *PAD], [board(burrow="5.0"), board(burrow="5.0")], turn="2.3.1.1", end="1.0")
    assert (
        lines(load(shared), "end")[-1] == "Game over (the final round is over): P1 and P2 share the win with 5 points."
    )
    win = position(["~1,~1,~1,~BB,~BB", *PAD], [board(cheeks="0.1", burrow="3.3"), board()])
    assert lines(load(win), "bury golden")[-1] == "Game over (20 points buried): P1 wins with 23 points."


def test_a_leaf_shows_the_acorns_on_it_now() -> None:
    text = position(["2*1.0,~1,~1,~1,~BB", *PAD], [board(at="L1c1"), board()])
    state = load(text)
    row = next(line for line in state.game.render(state.observe(None)).splitlines() if "L1 ─" in line)
    assert row.split(" ─ ")[1].startswith("[leaf 1b @1]")  # not "leaf·2": one of its two acorns is gone
    play(state, "gather brown")
    row = next(line for line in state.game.render(state.observe(None)).splitlines() if "L1 ─" in line)
    assert row.split(" ─ ")[1].startswith("[leaf @1]")


def test_fools_gold_and_the_pickpocket_say_what_they_took() -> None:
    fools = position(["~FG,~1,~1,~1,~BB", *PAD], [board(at="L1c1", nest="0.1"), board()])
    assert lines(load(fools), "flip")[1:] == [
        "Fool's Gold: P1 gives a golden acorn from the nest back for a brown one."
    ]
    pocket = position(["1,~ST,~1,~1,~BB", *PAD], [board(at="L1c1", cheeks="1.1")], solo=True)
    assert lines(load(pocket), "move L1c2")[1:] == [
        "P1 flips L1c2: Sticky Fingers.",
        "Sticky Fingers picks P1's pocket: a brown acorn from the cheeks goes back to the supply.",
    ]


def test_setup_lines() -> None:
    import oakwood

    game = oakwood.load("nutty")
    assert game.describe_event(game.new_state(1, 2).events_seen_by(None)[0]) == (
        "New solo game: the Leaf Deck holds 6 cards; the market sells Swinging Squirrel, Flying Squirrel, "
        "Backpack and The Lasso."
    )
    assert game.describe_event(game.new_state(3, 2).events_seen_by(None)[0]).startswith(
        "New game for 3 players: the Leaf Deck holds 24 cards. P"
    )


def test_powers_taken_and_the_end_trigger() -> None:
    players = [board(at="L1c1", powers="ST,OW"), board(at="L1c1", powers="BP,LA", pack="b"), board()]
    state = load(position(["1,~2,~1,~1,~BB", *PAD], players))
    assert lines(state, "owl p2 backpack", "steal p2 lasso") == [
        "P1's Owl destroys P2's Backpack; the Owl leaves play.",
        "P1 steals P2's Lasso (1 AP, 2 left).",
    ]
    last = position(["~2,1,1,BB,BB", *(limb.replace("~", "") for limb in PAD)], [board(at="L1c1"), board()])
    assert lines(load(last, end_trigger="tree_all_revealed"), "flip")[1:] == [
        "No face-down card is left: the end is triggered, with 3 more turns after this one."
    ]


def test_the_picture_counts_right() -> None:
    revealed = ["2,1,1,BB,BB", *(limb.replace("~", "") for limb in PAD)]
    state = load(position(revealed, [board(burrow="1.0"), board(burrow="2.0")], end="1.3"))
    picture = state.game.render(state.observe(None)).splitlines()
    assert (
        picture[0] == "Nutty Squirrels — multiplayer, round 1, P1 to play with 3 AP (last turns: this one and 3 more)"
    )
    assert picture[-2].startswith(">P1 at trunk    1 point · cheeks -")
    assert picture[-1].startswith(" P2 at trunk   2 points · cheeks -")
    solo = load(position(["1*1.0,~1,~1,~1,~BB", *SOLO_PAD], [board(nest="1.0")], solo=True))
    assert "Wealth (cheeks, backpack, nest) 1 point" in solo.game.render(solo.observe(0))
    over = load(
        position(
            ["1*1.0,~1,~1,~1,~BB", *SOLO_PAD],
            [board(nest="1.0")],
            solo=True,
            solo_fields="solo=5 phase=over result=ended",
        )
    )
    assert over.game.render(over.observe(0)).endswith("Game over: ended, with 1 point.")
