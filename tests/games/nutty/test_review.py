"""Review findings: scenarios where the first implementation departed from RULINGS §3, written in notation."""

from __future__ import annotations

import pytest

from oakwood.engine import IllegalActionError

from .helpers import board, legal, load, obs, play, position

SOLO_PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def solo(first: str, players: list[str], pad: list[str] | None = None, **kw: object) -> str:
    """A solo position: a custom first limb and padding."""
    return position([first, *(pad or SOLO_PAD)], players, solo=True, **kw)  # type: ignore[arg-type]


def test_ns8_solo_fools_gold_lets_the_player_choose() -> None:
    # NS-8 (via NS-17 a, solo_keep_events=true): exactly one golden, chosen by the player.
    text = solo("~FG,~1,~1,~1,~BB", [board(cheeks="0.1", nest="0.1")], keep_events=True)
    state = play(load(text, solo_keep_events=True), "move L1c1")
    view = obs(state)
    assert view["phase"] == "fools" and view["fools_places"] == ["cheeks", "nest"]
    assert set(legal(state)) == {"exchange cheeks", "exchange nest"}
    with pytest.raises(IllegalActionError, match="Fool's Gold"):
        play(state, "move trunk")
    play(state, "exchange nest")
    view = obs(state)
    assert view["phase"] == "play"
    assert view["boards"][0]["cheeks"] == {"brown": 0, "golden": 1}
    assert view["boards"][0]["nest"] == {"brown": 1, "golden": 0}
    one = play(
        load(solo("~FG,~1,~1,~1,~BB", [board(nest="0.1")], keep_events=True), solo_keep_events=True), "move L1c1"
    )
    assert obs(one)["phase"] == "play" and obs(one)["boards"][0]["nest"] == {"brown": 1, "golden": 0}


def test_ns11_solo_lasso_lateral_with_flying() -> None:
    # NS-11 variant lasso_lateral_with_flying applies in solo too ("behave as per the multiplayer rules").
    pad = ["~0,0*0.1,~G,~G,~G", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~1,~1,~1", "~2,~2"]
    text = solo("1,1,2*1.0,~1,~BB", [board(at="L1c2", powers="FL,LA")], pad=pad)
    plain = load(text)
    assert [a for a in legal(plain) if a.startswith("lasso")] == ["lasso L1c3 brown"]
    lateral = load(text, lasso_lateral_with_flying=True)
    assert [a for a in legal(lateral) if a.startswith("lasso")] == ["lasso L1c3 brown", "lasso L2c2 golden"]
    play(lateral, "lasso L2c2 golden")
    assert obs(lateral)["tree"][0][1]["golden"] == 1


def test_ns17_solo_flip_a_face_down_card_underfoot() -> None:
    # NS-17 j: a paid Owl closes the limb and leaves the squirrel on a face-down card; solo actions cost
    # nothing, so it may flip that card (free) instead of walking off and back.
    text = solo("~OW,~1,~1,~1,~1", [board(cheeks="0.1")], pad=[*SOLO_PAD[1:4], "1,~0,~0,~2,~2", "~2"])
    state = play(load(text), "move L1c1")
    assert obs(state)["tree"][0][0] == {"card": None, "brown": 0, "golden": 0, "squirrels": [0]}
    assert "flip" in legal(state)
    play(state, "flip")
    assert obs(state)["tree"][0][0] == {"card": "1", "brown": 1, "golden": 0, "squirrels": [0]}
    assert "flip" not in legal(state)
    with pytest.raises(IllegalActionError, match="already face up"):
        play(state, "flip")


def test_refusals_name_the_missing_power_and_the_face_up_card() -> None:
    # Readable refusals: a power action without the power says so; flipping a face-up card says so.
    pad = ["~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2", "~1,~1,~1,~1,~2"]
    state = load(position(["1,BB,~1,~1,~1", *pad], [board(at="L1c1"), board(at="L1c1", cheeks="1.0")]))
    cases = [
        ("steal p2 brown", "Sticky Fingers"),
        ("lasso L1c2 brown", "The Lasso"),
        ("owl L1", "The Owl"),
        ("copy sticky", "Doppelgänger"),
        ("spit L1c1 brown", "Spittoon"),
    ]
    for text, power in cases:
        with pytest.raises(IllegalActionError, match=f"you do not hold {power}"):
            play(state.clone(), text)
    swing = load(position(["1,BB,~1,~1,~1", *pad], [board(at="L1c2", powers="SW"), board()]))
    with pytest.raises(IllegalActionError, match="already face up"):
        play(swing, "flip")


def test_render_names_the_cards_out_of_play() -> None:
    # The legend explains ?? and *power, not the card codes: out-of-play cards are shown by name.
    pad = ["~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2", "~1,~1,~1,~2,~BB"]
    state = load(position(["1,~1,~1,~1,~1", *pad], [board(), board()], out="WG,WG,SF"))
    picture = state.game.render(state.observe(0))
    assert "Out of play: Wind Gust ×2, Sappy Feet" in picture
