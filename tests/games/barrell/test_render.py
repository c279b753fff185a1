"""What the terminal shows: the table picture stays truthful across battles."""

from __future__ import annotations

from oakwood.games.barrell.render import render

from .helpers import pass_all, position, state_of


def test_provisional_scores_show_in_later_battles_too() -> None:
    # BR-12 variant after_provisional_score: the Joker's controller decides with the provisional scores in view.
    # In battle 2 the previous battle's scores are still in the observation; they must not hide the new ones.
    text = position(hands=["2C", "3C"], fields=["RJ.9S", "6D.5H"], battle=2, wins="1.0", scores="12.3", bwin="1")
    state = state_of(text, joker_timing="after_provisional_score")
    pass_all(state)
    assert state.phase == "jokers"
    picture = render(state.observe(0))
    assert "Provisional scores: P1 4, P2 6" in picture


def test_a_long_discard_pile_says_the_hidden_part_is_the_oldest() -> None:
    discard = ".".join(f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")) + ".2H.3H.4H.5H"
    state = state_of(position(hands=["2C", "3C"], fields=["", ""], discard=discard))
    line = next(ln for ln in render(state.observe(0)).splitlines() if "Discard" in ln)
    assert line.startswith("  Discard (14, newest last): (2 older) 3♠")
    assert line.endswith("5♥")
